// The literal-insensitive document cache: a document that differs from a validated one only in string and
// number literals is validated with the literal rules alone. Its answer — the parsed document, or every
// error with its wording, place and order — must be what a preparer that never saw the shape gives.

import fc from 'fast-check';
import { parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { literalTypesOf } from '../../../engine/request/literal-check.js';
import { literalShape } from '../../../engine/request/literal-shape.js';
import { RequestPreparer, type Prepared } from '../../../engine/request/prepare-request.js';
import { compileSchema } from '../../../engine/schema/compile-schema.js';
import { cacheCounters } from '../../../engine/util/cache-stats.js';
import { Engine } from '../../../engine/index.js';

const compiled = compileSchema(`
type Author { id: ID! handle: String! @id posts: [Post] @hasInverse(field: author) }
type Post {
  id: ID! slug: String! @id title: String @search(by: [term]) score: Int @search rating: Float @search
  views: Int64 @search published: DateTime @search author: Author
}
`);
if (!compiled.ok) throw new Error('schema');
const schema = compiled.compiled.apiSchema;
const limits = { maxQueryTokens: 100_000, maxQueryDepth: 100 };

describe('literalShape', () => {
  it('blanks string, block string, int and float literals, nothing else', () => {
    expect(literalShape('{ q(a: "x", b: 12, c: -1.5e3, d: """y""", e: true, f: ENUM, g: null) { p2 } }')).toBe(
      '{ q(a: "", b: 0, c: 0.0, d: """""", e: true, f: ENUM, g: null) { p2 } }',
    );
  });

  it('is the same for documents that differ only in those literals', () => {
    const a = literalShape('query { getPost(id: "0x1") { slug } queryPost(first: 10, filter: { rating: { gt: 1.5 } }) { slug } }');
    const b = literalShape('query { getPost(id: "0xffff") { slug } queryPost(first: 2, filter: { rating: { gt: -3e2 } }) { slug } }');
    expect(a).toBe(b);
  });

  it('keeps names with digits, comments, enum and boolean values and the kind of each literal', () => {
    const base = '{ q(first: 1) { a } }';
    for (const other of ['{ q(first: 1.0) { a } }', '{ q(first: "1") { a } }', '{ q(first: 1) { a2 } }', '{ q(first: 1) { a } } # 2', '{ q(first: ONE) { a } }']) {
      expect(literalShape(other)).not.toBe(literalShape(base));
    }
  });

  it('ends strings where graphql-js does: escapes, quotes and braces inside, comments with quotes', () => {
    expect(literalShape('{ q(a: "x\\"} y", b: 1) { a } }')).toBe('{ q(a: "", b: 0) { a } }');
    expect(literalShape('{ q(a: """x \\""" } "" y""") { a } }')).toBe('{ q(a: """""") { a } }');
    expect(literalShape('# "not a string\n{ q(a: 1) { a } }')).toBe('# "not a string\n{ q(a: 0) { a } }');
  });

  it('gives no shape without literals or with a string graphql-js would refuse', () => {
    expect(literalShape('{ q { a } }')).toBeUndefined();
    expect(literalShape('{ q(a: "x\n") { a } }')).toBeUndefined();
    expect(literalShape('{ q(a: "x) { a } }')).toBeUndefined();
    expect(literalShape('{ q(a: """x) { a } }')).toBeUndefined();
  });
});

/** Templates with literal slots: S string, I int, F float, B block string. */
const templates = [
  '{ queryPost(filter: { score: { gt: I } }, first: I, offset: I) { slug } }',
  '{ a: getPost(id: S) { slug } a: getPost(id: S) { slug } }',
  '{ queryPost(filter: { title: { allofterms: S } }) @cascade(fields: [S, S]) { slug title } }',
  '{ queryPost(filter: { published: { ge: S }, views: { lt: S } }) { slug } }',
  '{ queryPost(filter: { rating: { lt: F }, views: { gt: I } }, order: { asc: rating }) { slug rating } }',
  'query ($x: Int = I, $r: Float = F) { queryPost(first: $x, filter: { rating: { gt: $r } }) { slug } }',
  'mutation { addPost(input: [{ slug: S, title: B, score: I, rating: F, views: I, published: S }]) { numUids } }',
  '{ a: queryPost(first: I) { slug } a: queryPost(first: I) { slug } b: queryAuthor(filter: { handle: { eq: S } }) { handle } }',
  '{ queryPost(filter: { slug: { in: [S, S, S] }, score: { between: { min: I, max: I } } }, first: I) { slug } }',
  '{ queryPost(filter: { or: [{ score: { lt: I } }, { rating: { ge: F } }], slug: { in: S } }, first: I) { id } queryAuthor(first: I) { handle } }',
  '{ getPost(id: I) { slug } }',
];
/** Templates whose literals all pass validation whatever their value (refused at execution, if at all). */
const neverInvalid = new Set([3, 4, 5, 10]);
const valid: Readonly<Record<string, string>> = { S: '"slug"', I: '1', F: '1.5', B: '"""slug"""' };
const strings = ['slug', 'title', 'nope', '2020-01-01T00:00:00Z', 'not a date', '0x1', '12', '-3', '99999999999999999999', 'é\\u00e9', 'a\\"b', ''];
const ints = ['0', '1', '-5', '2147483647', '2147483648', '-2147483649', '9223372036854775807', '9223372036854775808', '99999999999999999999'];
const floats = ['0.5', '-1.5e3', '1e400', '2.0', '-0.0'];
const blocks = ['"""slug"""', '"""a \\""" b"""', '"""\n  two\n  lines\n"""'];
const slot = (kind: string): fc.Arbitrary<string> =>
  kind === 'S' ? fc.constantFrom(...strings).map((s) => `"${s}"`) : kind === 'I' ? fc.constantFrom(...ints) : kind === 'F' ? fc.constantFrom(...floats) : fc.constantFrom(...blocks);

/** The template with each slot filled from `values` (in slot order). */
const fill = (template: string, values: readonly string[]): string => {
  let n = 0;
  return template.replace(/\b[SIFB]\b/g, () => values[n++] ?? '');
};
const slotsOf = (template: string): string[] => template.match(/\b[SIFB]\b/g) ?? [];

/** A comparable form of a preparation: the document as printed, or the errors with their places. */
function answer(prepared: Prepared): unknown {
  return prepared.ok ? { ok: true, document: print(prepared.prepared.checked.document), variables: prepared.prepared.variables } : prepared;
}

describe('RequestPreparer with a known document shape', () => {
  it.each(templates.map((t, i) => [i, t]))('template %i: literal variants prepare exactly as on a fresh preparer', (_i, template) => {
    const warm = new RequestPreparer(schema, limits);
    const first = warm.prepare({ method: 'POST', headers: {}, query: fill(template as string, slotsOf(template as string).map((k) => valid[k] ?? '')) });
    expect(first.ok).toBe(true);
    const hitsBefore = cacheCounters.documentShape.hits;
    let failures = 0;
    fc.assert(
      fc.property(fc.tuple(...slotsOf(template as string).map(slot)), (values) => {
        const query = fill(template as string, values);
        const fresh = new RequestPreparer(schema, limits).prepare({ method: 'POST', headers: {}, query });
        if (!fresh.ok) failures++;
        expect(answer(warm.prepare({ method: 'POST', headers: {}, query }))).toEqual(answer(fresh));
      }),
      { numRuns: 150 },
    );
    // The shortcut was taken, and the variants covered literals that fail validation (DateTime and Int64
    // literals of filters, and variables' default values here, are refused at execution, not validation).
    expect(cacheCounters.documentShape.hits).toBeGreaterThan(hitsBefore);
    if (!neverInvalid.has(templates.indexOf(template as string))) expect(failures).toBeGreaterThan(0);
  });

  it('checks the literals without the rules only in shapes where no other rule reads them', () => {
    const typesOf = (query: string) => literalTypesOf(schema, parse(query));
    expect(typesOf('{ queryPost(first: 1, filter: { slug: { in: ["a", "b"] }, rating: { gt: 2 } }) { slug } }')?.map(String)).toEqual(['Int', 'String', 'String', 'Float']);
    for (const query of [
      'query ($n: Int = 1) { queryPost(first: $n) { slug } }',
      '{ queryPost(first: 1) { ...F } } fragment F on Post { slug }',
      '{ queryPost(first: 1) { ... on Post { slug } } }',
      '{ queryPost(first: 1) @cascade(fields: ["slug"]) { slug } }',
      '{ queryPost(first: 1) { slug @include(if: true) } }',
      '{ a: getPost(id: "1") { slug } a: getPost(id: "1") { slug } }',
      '{ queryPost(first: 1) { author { name } author { name } } }',
    ]) {
      expect(typesOf(query)).toBeUndefined();
    }
  });

  it('an invalid literal in a known shape gets every error of the full validation, in order', () => {
    const warm = new RequestPreparer(schema, limits);
    const good = '{ a: getPost(id: "1") { slug } a: getPost(id: "1") { slug } queryPost(first: 1) { slug } }';
    const bad = '{ a: getPost(id: "1") { slug } a: getPost(id: "2") { slug } queryPost(first: 2147483648) { slug } }';
    expect(warm.prepare({ method: 'POST', headers: {}, query: good }).ok).toBe(true);
    const prepared = warm.prepare({ method: 'POST', headers: {}, query: bad });
    expect(prepared).toEqual(new RequestPreparer(schema, limits).prepare({ method: 'POST', headers: {}, query: bad }));
    expect(prepared.ok ? [] : prepared.errors.map((e) => e.message)).toHaveLength(2);
  });
});

describe('Engine answers to literal variants of a known shape', () => {
  const sdl = 'type Post { id: ID! slug: String! @id title: String @search(by: [term]) score: Int @search published: DateTime @search }';
  const add = 'mutation { addPost(input: [{ slug: "a", title: "red fox", score: 3, published: "2020-01-01T00:00:00Z" }, { slug: "b", title: "blue fox", score: 7, published: "2021-06-01T00:00:00Z" }]) { numUids } }';
  async function engine(): Promise<Engine> {
    const opened = await Engine.open({ dataDir: '', maxQueryTokens: 50_000, maxQueryDepth: 200, debug: false });
    if (!(await opened.updateSchema(sdl)).ok) throw new Error('schema');
    await opened.execute({ method: 'POST', query: add, headers: {} });
    return opened;
  }
  const template = (title: string, score: string, when: string, id: string): string =>
    `{ queryPost(filter: { title: { anyofterms: ${title} }, score: { ge: ${score} }, published: { ge: ${when} } }, order: { asc: score }) { slug score } getPost(id: ${id}) { slug } }`;
  const variants = [
    template('"fox"', '1', '"2019-01-01T00:00:00Z"', '"0x1"'),
    template('"blue"', '5', '"2021-01-01T00:00:00Z"', '"0x2"'),
    template('"fox"', '2147483648', '"2019-01-01T00:00:00Z"', '"0x1"'),
    template('"fox"', '1', '"not a date"', '"0x1"'),
    template('"fox"', '1', '"2019-01-01T00:00:00Z"', '"zzz"'),
    template('"red\\u0020fox"', '-3', '"2019"', '"0xffffffff"'),
  ];

  it('are the answers (data and errors) of an engine that never saw the shape', async () => {
    const warm = await engine();
    const hitsBefore = cacheCounters.documentShape.hits;
    for (const query of variants) {
      const fresh = await engine();
      const expected = await fresh.execute({ method: 'POST', query, headers: {} });
      const got = await warm.execute({ method: 'POST', query, headers: {} });
      expect({ kind: got.kind, body: got.body }).toEqual({ kind: expected.kind, body: expected.body });
      await fresh.close();
    }
    expect(cacheCounters.documentShape.hits - hitsBefore).toBeGreaterThanOrEqual(variants.length - 1);
    await warm.close();
  });
});
