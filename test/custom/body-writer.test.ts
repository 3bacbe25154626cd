// Unit tests: outbound bodies written straight from a body template must be the very bytes the
// generic path (goJson of renderBody) writes, for any template and any parent values.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileBodyWriter, jsonObjectText, valuesWriter } from '../../engine/custom/body-writer.js';
import { goEscape, goJson } from '../../engine/custom/go-json.js';
import { parseBodyTemplate, renderBody, type BodyTemplate } from '../../engine/custom/template.js';

const names = ['a', 'b', 'id', 'name', 'Z', 'x1'];
const scalar = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.constantFrom('<&>', '\u2028', 'caf€'));
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom(...names), scalar, { maxKeys: 3 }));
const template: fc.Arbitrary<BodyTemplate> = fc.letrec<{ t: BodyTemplate }>((tie) => ({
  t: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(...names).map((name) => ({ kind: 'var', name }) as const),
    scalar.map((v) => ({ kind: 'const', value: v }) as const),
    fc.array(tie('t'), { maxLength: 3 }).map((items) => ({ kind: 'list', items }) as const),
    fc.array(fc.tuple(fc.constantFrom(...names), tie('t')), { maxLength: 4 }).map((fields) => ({ kind: 'object', fields }) as const),
  ),
})).t;
const vars = fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 5 });

describe('compileBodyWriter', () => {
  it('writes what goJson(renderBody(...)) writes, escapes applied once at the end', () => {
    fc.assert(
      fc.property(template, vars, (t, v) => {
        const writer = compileBodyWriter(t);
        expect(writer).toBeDefined();
        const text = writer?.(v);
        const rendered = renderBody(t, v);
        if (rendered === undefined) expect(text).toBeUndefined();
        else expect(goEscape(text as string)).toBe(goJson(rendered));
      }),
      { numRuns: 2000 },
    );
  });

  it('a BATCH list of items matches goJson of the rendered list (absent items become null)', () => {
    const t = parseBodyTemplate('{ uid: $id, about: { n: $name, tags: [$id, "x<y"] } }') as BodyTemplate;
    const parents = [{ id: '0x1', name: 'Ann & Bob' }, { id: '0x2' }, {}];
    const writer = compileBodyWriter(t);
    const items = `[${parents.map((p) => writer?.(p) ?? 'null').join(',')}]`;
    expect(goEscape(items)).toBe(goJson(parents.map((p) => renderBody(t, p))));
    expect(goEscape(items)).toBe('[{"about":{"n":"Ann \\u0026 Bob","tags":["0x1","x\\u003cy"]},"uid":"0x1"},{"about":{"tags":["0x2","x\\u003cy"]},"uid":"0x2"},{"about":{"tags":[null,"x\\u003cy"]}}]');
  });

  it('a repeated key keeps its last defined value, as renderBody does', () => {
    const t: BodyTemplate = { kind: 'object', fields: [['k', { kind: 'var', name: 'a' }], ['k', { kind: 'var', name: 'b' }]] };
    expect(compileBodyWriter(t)?.({ a: 1, b: 2 })).toBe('{"k":2}');
    expect(compileBodyWriter(t)?.({ a: 1 })).toBe('{"k":1}');
    expect(goJson(renderBody(t, { a: 1 }))).toBe('{"k":1}');
  });

  it('leaves a `__proto__` key to the generic path', () => {
    expect(compileBodyWriter({ kind: 'object', fields: [['__proto__', { kind: 'var', name: 'a' }]] })).toBeUndefined();
  });

  it('without a template, writes the parent values with keys sorted and absent ones left out', () => {
    expect(valuesWriter(['name', 'id', 'age'])({ id: '0x1', name: 'n' })).toBe('{"id":"0x1","name":"n"}');
    expect(valuesWriter(['name', 'id'])({ id: '0x1', name: 'n' })).toBe(goJson({ name: 'n', id: '0x1' }));
  });

  it('wraps pre-written pieces in an envelope with sorted keys', () => {
    expect(jsonObjectText([['variables', '{"input":[1]}'], ['query', '"q"']])).toBe(goJson({ variables: { input: [1] }, query: 'q' }));
  });
});
