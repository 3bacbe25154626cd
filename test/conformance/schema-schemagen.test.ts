// Generated-schema goldens (REFERENCE §4.8): each input under schemagen/input must produce the
// output beside it. Asserted semantically (same definitions, fields, args, types, enum values,
// directives); byte-identical matches are counted and reported separately.
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { DefinitionNode, DocumentNode } from 'graphql';
import { Kind, parse, print } from 'graphql';
import { compileSchema } from '../../engine/schema/compile-schema.js';

const DIR = '../shared/dgraph-testdata/schema/testdata/schemagen';
const LAMBDA_URL = 'http://localhost:8686/graphql-worker';
const cases = readdirSync(`${DIR}/input`).filter((f) => f.endsWith('.graphql')).sort();

/** One comparable line per definition member, so a failing case shows exactly what differs. */
function normalise(doc: DocumentNode): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const def of doc.definitions) {
    const [key, lines] = describeDefinition(def);
    out[key] = lines;
  }
  return out;
}

function describeDefinition(def: DefinitionNode): [string, string[]] {
  const dirs = (d: { directives?: readonly { loc?: unknown }[] | undefined }): string =>
    (d.directives ?? []).map((x) => print(x as Parameters<typeof print>[0])).join(' ');
  switch (def.kind) {
    case Kind.OBJECT_TYPE_DEFINITION:
    case Kind.INTERFACE_TYPE_DEFINITION:
      return [
        `${def.kind} ${def.name.value}`,
        [
          `implements ${(def.interfaces ?? []).map((i) => i.name.value).join(' & ')} ${dirs(def)}`,
          ...(def.fields ?? []).map(
            (f) => `${f.name.value}(${(f.arguments ?? []).map((a) => `${a.name.value}: ${print(a.type)}`).join(', ')}): ${print(f.type)} ${dirs(f)}`,
          ),
        ],
      ];
    case Kind.INPUT_OBJECT_TYPE_DEFINITION:
      return [`${def.kind} ${def.name.value}`, [dirs(def), ...(def.fields ?? []).map((f) => `${f.name.value}: ${print(f.type)} ${dirs(f)}`)]];
    case Kind.ENUM_TYPE_DEFINITION:
      return [`${def.kind} ${def.name.value}`, [dirs(def), ...(def.values ?? []).map((v) => `${v.name.value} ${dirs(v)}`)]];
    case Kind.UNION_TYPE_DEFINITION:
      return [`${def.kind} ${def.name.value}`, [dirs(def), ...(def.types ?? []).map((t) => t.name.value)]];
    case Kind.SCALAR_TYPE_DEFINITION:
      return [`${def.kind} ${def.name.value}`, []];
    case Kind.DIRECTIVE_DEFINITION:
      return [`${def.kind} ${def.name.value}`, [print(def).replace(/\s+/g, ' ')]];
    default:
      return [`${def.kind}`, [print(def)]];
  }
}

const identical: string[] = [];

describe('schemagen goldens', () => {
  for (const file of cases) {
    it(file, () => {
      const input = readFileSync(`${DIR}/input/${file}`, 'utf8');
      const expected = readFileSync(`${DIR}/output/${file}`, 'utf8');
      const result = compileSchema(input, { lambdaUrl: LAMBDA_URL });
      if (!result.ok) throw new Error(`compile failed: ${JSON.stringify(result.errors)}`);
      const actual = result.compiled.generatedSchema;
      if (actual === expected) identical.push(file);
      expect(normalise(parse(actual))).toEqual(normalise(parse(expected)));
    });
  }

  afterAll(() => {
    console.log(`schemagen: ${identical.length}/${cases.length} byte-identical`);
  });
});
