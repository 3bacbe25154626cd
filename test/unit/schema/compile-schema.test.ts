// Pipeline-level behaviour of compileSchema that the conformance catalogues don't cover.
import { readFileSync, readdirSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../../engine/schema/compile-schema.js';

const E2E = '../shared/dgraph-testdata/e2e';

describe('compileSchema', () => {
  it('refuses an empty schema', () => {
    expect(compileSchema('')).toEqual({ ok: false, errors: [{ message: 'No schema specified' }] });
  });

  it('never echoes a secret value in errors', () => {
    const r = compileSchema('type T { id: ID! name: String }\n# Service.Secret KEY "top secret" extra"');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(JSON.stringify(r.errors)).not.toContain('top secret');
  });

  it('accepts bare Service.Secret values', () => {
    const r = compileSchema('type T { id: ID! name: String }\n# Service.Secret KEY bare-value');
    expect(r.ok && r.compiled.model.secrets.get('KEY')).toBe('bare-value');
  });

  it('reports parse errors with gqlparser wording and location', () => {
    const r = compileSchema('type T {\n  f: String\n}\ngarbage');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]?.locations).toEqual([{ line: 4, column: 1 }]);
  });

  it('requires lambda-url for @lambda', () => {
    const r = compileSchema('type T { id: ID! name: String  up: String @lambda }');
    expect(r.ok).toBe(false);
    expect(compileSchema('type T { id: ID! name: String  up: String @lambda }', { lambdaUrl: 'http://l' }).ok).toBe(true);
  });

  it('accepts an empty argument list like gqlparser (`@auth()`)', () => {
    expect(compileSchema('type T @auth() { id: ID! name: String }').ok).toBe(true);
  });

  it('refuses operations in a schema document', () => {
    const r = compileSchema('query { a }');
    expect(r.ok ? [] : r.errors).toEqual([{ message: 'Unexpected Name "query"', locations: [{ line: 1, column: 1 }] }]);
  });

  const e2eSchemas = [
    'normal/schema.graphql',
    'directives/schema.graphql',
    'auth/schema.graphql',
    ...readdirSync(`${E2E}/custom_logic/schemas`).map((f) => `custom_logic/schemas/${f}`),
  ];
  for (const file of e2eSchemas) {
    it(`compiles the e2e schema ${file}`, () => {
      const r = compileSchema(readFileSync(`${E2E}/${file}`, 'utf8'), { lambdaUrl: 'http://localhost:8686/graphql-worker' });
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      expect(validate(r.compiled.apiSchema, parse('{ __schema { queryType { name } } }'))).toEqual([]);
    });
  }
});
