// Schema validation catalogue (REFERENCE §9): every invalid schema is refused with the listed
// errors (message and locations, in order), every valid one is accepted.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { compileSchema } from '../../engine/schema/compile-schema.js';
import type { SchemaError } from '../../engine/api.js';

const LAMBDA_URL = 'http://localhost:8086/graphql-worker';

interface YamlError {
  readonly message: string;
  readonly locations?: readonly { line: number; column: number }[];
}
interface YamlCase {
  readonly name: string;
  readonly input: string;
  readonly errlist?: readonly YamlError[];
}
interface YamlFile {
  readonly invalid_schemas: readonly YamlCase[];
  readonly valid_schemas: readonly YamlCase[];
}

function load(file: string): YamlFile {
  return parseYaml(readFileSync(`../shared/dgraph-testdata/schema/${file}`, 'utf8')) as YamlFile;
}

const stats = { exactMessages: 0, invalid: 0 };

function errorsOf(input: string): readonly SchemaError[] {
  const r = compileSchema(input, { lambdaUrl: LAMBDA_URL });
  return r.ok ? [] : r.errors;
}

function suite(file: string): void {
  const data = load(file);
  describe(`${file}: invalid schemas`, () => {
    for (const c of data.invalid_schemas) {
      it(c.name, () => {
        const got = errorsOf(c.input);
        const expected = c.errlist ?? [];
        stats.invalid++;
        if (JSON.stringify(got.map((e) => e.message)) === JSON.stringify(expected.map((e) => e.message))) stats.exactMessages++;
        expect(got.length).toBeGreaterThan(0);
        expect(got.map((e) => e.locations ?? [])).toEqual(expected.map((e) => e.locations ?? []));
        expect(got.map((e) => e.message)).toEqual(expected.map((e) => e.message));
      });
    }
  });
  describe(`${file}: valid schemas`, () => {
    for (const c of data.valid_schemas) {
      it(c.name, () => {
        expect(errorsOf(c.input)).toEqual([]);
      });
    }
  });
}

suite('gqlschema_test.yml');
suite('auth_schemas_test.yaml');

afterAll(() => {
  console.log(`schema validation: ${stats.exactMessages}/${stats.invalid} invalid cases with exact messages`);
});
