// Pipeline-level behaviour of compileSchema that the conformance catalogues don't cover.
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../../engine/schema/compile-schema.js';

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
});
