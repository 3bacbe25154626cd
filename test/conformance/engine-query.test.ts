// resolve/query_test.yaml through the engine facade: every case's `gqlquery` runs without
// unexpected errors (1) against resolve/schema.graphql, the schema it was written for, and (2)
// against the e2e "normal" and "directives" schemas seeded with e2e test_data.json, for the cases
// those schemas support. Hand-computed answers over the seed data pin filters, order, pagination,
// aggregates, cascade and fragments; both e2e schemas must give identical answers.

import { readFileSync } from 'node:fs';
import { buildSchema, parse, validate } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSchema } from '../../engine/schema/compile-schema.js';
import { loadCases, openHarness, seed, testdata, type Harness } from './helpers/engine-harness.js';

const cases = loadCases('resolve/query_test.yaml');
/** Cases graphql-js rightly rejects (they only exercise Dgraph's rewriting). */
const invalidDocuments = new Set(['Query with Same Alias', 'Aggregate Query with Sum and Avg']);

function supportedBy(schemaPath: string): (query: string) => boolean {
  const compiled = compileSchema(readFileSync(`${testdata}/${schemaPath}`, 'utf8'), { lambdaUrl: 'http://127.0.0.1:1/x' });
  if (!compiled.ok) throw new Error(`${schemaPath} does not compile`);
  const schema = compiled.compiled.apiSchema ?? buildSchema(compiled.compiled.generatedSchema);
  return (query) => {
    try {
      return validate(schema, parse(query)).length === 0;
    } catch {
      return false;
    }
  };
}

const counts: Record<string, { passed: number; total: number }> = {};
function count(suite: string, ok: boolean): void {
  const c = (counts[suite] ??= { passed: 0, total: 0 });
  c.total++;
  if (ok) c.passed++;
}

describe('query_test.yaml against resolve/schema.graphql', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness('resolve/schema.graphql');
  });
  for (const c of cases) {
    const run = invalidDocuments.has(c.name) ? it.skip : it;
    run(c.name, async () => {
      const result = await h.gql(c['gqlquery'] as string, c['gqlvariables'] ? JSON.parse(c['gqlvariables'] as string) : undefined);
      count('resolve', result.errors === undefined);
      expect(result.errors).toBeUndefined();
      expect(result.kind).toBe('ok');
    });
  }
});

const answers = new Map<string, unknown>();

for (const schemaPath of ['e2e/normal/schema.graphql', 'e2e/directives/schema.graphql']) {
  describe(`query_test.yaml against ${schemaPath} with seed data`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await openHarness(schemaPath);
      await seed(h, schemaPath.replace('schema.graphql', 'test_data.json'));
    });
    const supported = supportedBy(schemaPath);
    for (const c of cases) {
      const query = c['gqlquery'] as string;
      const run = supported(query) ? it : it.skip;
      run(c.name, async () => {
        const result = await h.gql(query, c['gqlvariables'] ? JSON.parse(c['gqlvariables'] as string) : undefined);
        count(schemaPath, result.errors === undefined);
        expect(result.errors).toBeUndefined();
        // Same API, same data: the directives schema (remapped types/predicates) answers identically.
        const key = `${c.name}`;
        if (answers.has(key)) expect(stripIds(result.data)).toEqual(answers.get(key));
        else answers.set(key, stripIds(result.data));
      });
    }

    describe('hand-computed answers over the seed data', () => {
      const q = async (query: string, variables?: Record<string, unknown>) => {
        const result = await h.gql(query, variables);
        expect(result.errors).toBeUndefined();
        return result.data;
      };
      it('eq / in / has / eq:null filters', async () => {
        expect(await q(`{ queryState(filter: { xcode: { eq: "mh" } }) { name } }`)).toEqual({ queryState: [{ name: 'Maharashtra' }] });
        expect(await q(`{ queryState(filter: { xcode: { in: ["ka", "gj", "zz"] } }, order: { asc: name }) { name } }`)).toEqual({
          queryState: [{ name: 'Gujarat' }, { name: 'Karnataka' }],
        });
        expect(await q(`{ queryState(filter: { has: country }, order: { desc: name }) { name } }`)).toEqual({
          queryState: [{ name: 'Maharashtra' }, { name: 'Karnataka' }, { name: 'Gujarat' }],
        });
        expect(await q(`{ queryPost(filter: { not: { has: category } }) { title } }`).then((d: any) => d.queryPost.length)).toBe(4);
        expect(await q(`{ queryAuthor(filter: { qualification: { eq: null } }) { name } }`).then((d: any) => d.queryAuthor.length)).toBe(3);
      });
      it('numeric, date and Int64 ranges', async () => {
        expect(await q(`{ queryPost(filter: { numLikes: { gt: 80 } }, order: { asc: numLikes }) { title numLikes } }`)).toEqual({
          queryPost: [
            { title: 'Learning GraphQL in Dgraph', numLikes: 87 },
            { title: 'Introducing GraphQL in Dgraph', numLikes: 100 },
          ],
        });
        expect(await q(`{ queryPost(filter: { numLikes: { between: { min: 1, max: 77 } } }, order: { desc: numLikes }) { numLikes } }`)).toEqual({
          queryPost: [{ numLikes: 77 }, { numLikes: 1 }],
        });
        expect(await q(`{ queryPost(filter: { numViews: { ge: 274877906944 } }, order: { asc: numViews }) { numViews } }`)).toEqual({
          queryPost: [{ numViews: 274877906944 }, { numViews: 280000000000 }],
        });
        expect(await q(`{ queryAuthor(filter: { dob: { lt: "2000-06-01T00:00:00Z" } }, order: { asc: dob }) { name } }`)).toEqual({
          queryAuthor: [{ name: 'Ann Other Author' }, { name: 'Ann Author' }],
        });
        expect(await q(`{ queryAuthor(filter: { reputation: { le: 8.9 } }, order: { desc: reputation }) { reputation } }`)).toEqual({
          queryAuthor: [{ reputation: 8.9 }, { reputation: 6.6 }],
        });
      });
      it('term, fulltext, regexp, exact list and bool filters', async () => {
        expect(await q(`{ queryPost(filter: { title: { allofterms: "graphql dgraph" } }, order: { asc: title }) { title } }`)).toEqual({
          queryPost: [{ title: 'Introducing GraphQL in Dgraph' }, { title: 'Learning GraphQL in Dgraph' }],
        });
        expect(await q(`{ queryPost(filter: { title: { anyofterms: "random doco" } }, order: { asc: title }) { title } }`)).toEqual({
          queryPost: [{ title: 'GraphQL doco' }, { title: 'Random post' }],
        });
        expect(await q(`{ queryPost(filter: { text: { alloftext: "learning" } }, order: { asc: numLikes }) { numLikes } }`)).toEqual({
          queryPost: [{ numLikes: 77 }, { numLikes: 87 }],
        });
        expect(await q(`{ queryCountry(filter: { name: { regexp: "/^ang.*/i" } }) { name } }`)).toEqual({ queryCountry: [{ name: 'Angola' }] });
        expect(await q(`{ queryPost(filter: { tags: { eq: "Random" } }) { numLikes } }`)).toEqual({ queryPost: [{ numLikes: 1 }] });
        expect(await q(`{ queryPost(filter: { isPublished: false }) { numLikes } }`)).toEqual({ queryPost: [{ numLikes: 1 }] });
        expect(await q(`{ queryPost(filter: { postType: { eq: Fact } }, order: { asc: numLikes }) { numLikes } }`)).toEqual({
          queryPost: [{ numLikes: 1 }, { numLikes: 100 }],
        });
      });
      it('and / or / not', async () => {
        const data = await q(`{ queryPost(
            filter: { or: [{ numLikes: { lt: 10 } }, { and: [{ isPublished: true }, { not: { topic: { eq: "Learn" } } }] }] },
            order: { asc: numLikes }) { numLikes } }`);
        expect(data).toEqual({ queryPost: [{ numLikes: 1 }, { numLikes: 77 }, { numLikes: 100 }] });
      });
      it('order then, first/offset at root and nested', async () => {
        expect(await q(`{ queryAuthor(order: { asc: name }, first: 2, offset: 1) { name } }`)).toEqual({
          queryAuthor: [{ name: 'Ann Other Author' }, { name: 'Three Author' }],
        });
        expect(await q(`{ queryPost(order: { asc: topic, then: { desc: numLikes } }) { topic } }`).then((d: any) => d.queryPost.length)).toBe(4);
        expect(await q(`{ queryState(order: { asc: name }, first: 10, offset: 3) { name } }`)).toEqual({
          queryState: [{ name: 'NSW' }, { name: 'Nusa' }],
        });
        expect(
          await q(`{ queryAuthor(filter: { name: { eq: "Ann Author" } }) { posts(order: { desc: numLikes }, first: 1) { numLikes } } }`),
        ).toEqual({ queryAuthor: [{ posts: [{ numLikes: 100 }] }] });
        expect(
          await q(`{ queryCountry(filter: { name: { eq: "India" } }) { states(order: { asc: xcode }, offset: 1, filter: { not: { xcode: { eq: "ka" } } }) { xcode } } }`),
        ).toEqual({ queryCountry: [{ states: [{ xcode: 'mh' }] }] });
      });
      it('aggregate<T> and <f>Aggregate', async () => {
        expect(
          await q(`{ aggregatePost { count numLikesMin numLikesMax numLikesSum numLikesAvg titleMin titleMax numViewsMax } }`),
        ).toEqual({
          aggregatePost: {
            count: 4,
            numLikesMin: 1,
            numLikesMax: 100,
            numLikesSum: 265,
            numLikesAvg: 66.25,
            titleMin: 'GraphQL doco',
            titleMax: 'Random post',
            numViewsMax: 280000000000,
          },
        });
        expect(await q(`{ aggregateState(filter: { xcode: { eq: "none" } }) { count nameMin } }`)).toEqual({
          aggregateState: { count: 0, nameMin: null },
        });
        expect(
          await q(`{ queryAuthor(order: { asc: name }) { name postsAggregate(filter: { isPublished: true }) { count numLikesMax } } }`),
        ).toEqual({
          queryAuthor: [
            { name: 'Ann Author', postsAggregate: { count: 2, numLikesMax: 100 } },
            { name: 'Ann Other Author', postsAggregate: { count: 1, numLikesMax: 87 } },
            { name: 'Three Author', postsAggregate: { count: 0, numLikesMax: null } },
          ],
        });
      });
      it('@cascade with and without fields, pagination after cascade', async () => {
        expect(await q(`{ queryState(order: { asc: name }) @cascade { name country { name } } }`)).toEqual({
          queryState: [
            { name: 'Gujarat', country: { name: 'India' } },
            { name: 'Karnataka', country: { name: 'India' } },
            { name: 'Maharashtra', country: { name: 'India' } },
          ],
        });
        expect(await q(`{ queryState(order: { asc: name }, first: 1, offset: 1) @cascade(fields: ["country"]) { name } }`)).toEqual({
          queryState: [{ name: 'Karnataka' }], // listed but unselected fields are checked on the stored node
        });
        expect(
          await q(`{ queryState(order: { asc: name }, first: 1, offset: 1) @cascade(fields: ["country"]) { name country { id } } }`),
        ).toEqual({ queryState: [{ name: 'Karnataka', country: { id: expect.any(String) } }] });
        expect(
          await q(`{ queryAuthor(order: { asc: name }) @cascade { name posts(filter: { numLikes: { gt: 90 } }) { numLikes } } }`),
        ).toEqual({ queryAuthor: [{ name: 'Ann Author', posts: [{ numLikes: 100 }] }] });
      });
      it('fragments on interfaces/unions and __typename', async () => {
        const data = await q(`query { queryPost(filter: { numLikes: { eq: 1 } }) { __typename ...P author { __typename ... on Author { name } } } }
          fragment P on Post { topic }`);
        expect(data).toEqual({ queryPost: [{ __typename: 'Post', topic: 'Random', author: { __typename: 'Author', name: 'Ann Other Author' } }] });
      });
      it('get by ID and by @id (Int64, Int, String)', async () => {
        expect(await q(`{ getBook(bookId: 1234567890) { name chapters { chapterId } } }`)).toEqual({
          getBook: { name: 'Dgraph and Graphql', chapters: [] },
        });
        expect(await q(`{ getChapter(chapterId: 1) { name } }`)).toEqual({ getChapter: { name: 'How Dgraph Works' } });
        expect(await q(`{ getState(xcode: "nusa") { name capital } }`)).toEqual({ getState: { name: 'Nusa', capital: null } });
        const { queryCountry } = (await q(`{ queryCountry(filter: { name: { eq: "India" } }) { id } }`)) as any;
        const id = queryCountry[0].id;
        expect(await q(`query ($id: ID!) { getCountry(id: $id) { name states(order: { asc: name }) { name } } }`, { id })).toEqual({
          getCountry: { name: 'India', states: [{ name: 'Gujarat' }, { name: 'Karnataka' }, { name: 'Maharashtra' }] },
        });
        expect(await q(`{ getCountry(id: "0xfffff") { name } }`)).toEqual({ getCountry: null });
      });
      it('ngram filter', async () => {
        expect(await q(`{ queryArticle(filter: { title: { ngram: "muscle building" } }) { title } }`)).toEqual({
          queryArticle: [{ title: 'Weight Training and Muscle Building' }],
        });
      });
    });
  });
}

/** Uids depend on insertion order; answers are compared without them. */
function stripIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripIds);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!(typeof v === 'string' && /^0x[0-9a-f]+$/.test(v))) out[k] = stripIds(v);
  return out;
}

describe('counts', () => {
  it('reports conformance counts', () => {
    console.log('engine-query conformance:', JSON.stringify(counts));
  });
});
