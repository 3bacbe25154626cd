// The direct JSON path (engine/exec/write-objects.ts) against the general one (response objects,
// then JSON.stringify): two engines holding the same data, one with `directJson: false`, must give
// byte-identical bodies (key order included) for every query of resolve/query_test.yaml the e2e
// schema supports, for answers the direct path must hand back (errors, @cascade, @lambda fields),
// and for stored strings JSON must escape.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCases, openHarness, seed, type Harness } from './helpers/engine-harness.js';
import { unsupported } from './unsupported.js';

const schemaPath = 'e2e/normal/schema.graphql';
/** Characters JSON escapes or that need care (surrogates alone and paired, U+2028, Latin-1, NUL), and any other. */
const awkwardChar = fc.oneof(
  fc.constantFrom('"', '\\', '\n', '\t', '\u0000', '\u001f', '\u007f', '\ud800', '\udc00', '\u2028', 'é', '😀', 'a', ' '),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const cases = loadCases('resolve/query_test.yaml');

async function body(h: Harness, query: string, variables?: Record<string, unknown>): Promise<string> {
  const response = await h.engine.execute({ method: 'POST', query, variables, headers: {} });
  return response.body;
}

/** The direct engine's answer, which must have been written directly (as bytes). */
async function directBody(h: Harness, query: string, variables?: Record<string, unknown>): Promise<string> {
  const response = await h.engine.execute({ method: 'POST', query, variables, headers: {} });
  expect(response.bytes, response.body).toBeDefined();
  return response.body;
}

describe('direct JSON answers equal the general path byte for byte', () => {
  let direct: Harness;
  let general: Harness;
  const same = async (query: string, variables?: Record<string, unknown>): Promise<string> => {
    const [a, b] = [await body(direct, query, variables), await body(general, query, variables)];
    expect(a).toBe(b);
    return a;
  };

  beforeAll(async () => {
    direct = await openHarness(schemaPath);
    general = await openHarness(schemaPath, { directJson: false });
    for (const h of [direct, general]) await seed(h, schemaPath.replace('schema.graphql', 'test_data.json'));
  });

  it('every query_test.yaml query', async () => {
    const failing: string[] = [];
    for (const c of cases) {
      const variables = c['gqlvariables'] ? (JSON.parse(c['gqlvariables'] as string) as Record<string, unknown>) : undefined;
      const answer = await same(c['gqlquery'] as string, variables);
      if (answer.includes('"errors"')) failing.push(c.name);
    }
    // Exactly the cases unsupported.ts lists for this schema answer errors (also compared byte for byte).
    expect(failing.sort()).toEqual(Object.keys(unsupported.normal).sort());
  });

  it('answers with errors, @cascade and @lambda fields fall back to the general path', async () => {
    const withError = await same('query { getAuthor(id: "not-a-uid") { name } }');
    expect(withError).toContain('"errors"');
    expect(await same('query { queryAuthor(order: { asc: name }) @cascade { name country { name } } }')).toContain('"queryAuthor"');
    const lambda = await same('query { queryAuthor(first: 1) { name bio } }');
    expect(lambda).toContain('"queryAuthor"');
    expect(await same('query { queryPost(first: 3, order: { asc: title }) { title author { name } category { name } tags numViews isPublished __typename } }')).toContain(
      '"__typename":"Post"',
    );
  });

  it('@skip/@include, aliases, fragments and nested pages', async () => {
    const query = `query ($skip: Boolean!, $first: Int) {
      a: queryCountry(order: { desc: name }, first: $first) { n: name states(order: { asc: name }, first: 1) { name @skip(if: $skip) xcode capital } }
      b: queryCharacter { __typename ... on Human { name appearsIn starships { name } } ... on Droid { primaryFunction } }
      c: aggregatePost { count }
    }`;
    for (const skip of [true, false]) await same(query, { skip, first: 2 });
  });

  it('root aggregates are written directly', async () => {
    const queries = [
      'query { aggregatePost { count numViewsMax numViewsAvg numViewsSum titleMin __typename } }',
      'query ($t: String!) { a: aggregatePost(filter: { title: { anyofterms: $t } }) { n: count titleMax } b: aggregatePost(filter: { title: { anyofterms: "nothingmatches" } }) { count numViewsAvg } }',
    ];
    for (const query of queries) {
      const answer = await directBody(direct, query, { t: 'Introducing GraphQL' });
      expect(answer).toBe(await body(general, query, { t: 'Introducing GraphQL' }));
      expect(answer).not.toContain('"errors"');
    }
  });

  it('stored strings that JSON must escape', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: awkwardChar, maxLength: 12 }), { minLength: 1, maxLength: 5 }), async (names) => {
        const input = names.map((name) => ({ name }));
        const add = 'mutation ($input: [AddCountryInput!]!) { addCountry(input: $input) { numUids } }';
        for (const h of [direct, general]) await body(h, add, { input });
        const query = 'query ($names: [String]) { queryCountry(filter: { name: { in: $names } }, order: { asc: name }) { name } }';
        const answer = await directBody(direct, query, { names });
        expect(answer).toBe(await body(general, query, { names }));
        expect(answer.startsWith('{"data":{"queryCountry":[')).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('similarity roots are written directly, byte for byte as the general path', () => {
  const vectorSchema = 'schema/testdata/schemagen/input/embedding-directive-with-similar-queries.graphql';
  let direct: Harness;
  let general: Harness;

  beforeAll(async () => {
    direct = await openHarness(vectorSchema);
    general = await openHarness(vectorSchema, { directJson: false });
    // Distances that are not integers (JSON number text), ties, and one product without a vector.
    const input = [
      { id: 'p1', title: 'one', product_vector: [0.5, 1.25, -3] },
      { id: 'p2', title: 'two', product_vector: [0.1, 0.2, 0.3] },
      { id: 'p3', title: 'three', product_vector: [0.1, 0.2, 0.3] },
      { id: 'p4', title: 'four', product_vector: [7, -1.5, 2e-7] },
      { id: 'p5', title: 'none' },
    ];
    for (const h of [direct, general]) {
      const added = await body(h, 'mutation ($input: [AddProductInput!]!) { addProduct(input: $input) { numUids } }', { input });
      expect(added.startsWith('{"data":{"addProduct":{"numUids":5}}')).toBe(true);
    }
  });

  it('by embedding and by id, with a filter, aliases, __typename and vector_distance', async () => {
    const queries: [string, Record<string, unknown>][] = [
      ['query ($v: [Float!]!) { querySimilarProductByEmbedding(by: product_vector, topK: 3, vector: $v) { id title vector_distance } }', { v: [0.1, 0.2, 0.31] }],
      [
        'query ($v: [Float!]!) { s: querySimilarProductByEmbedding(by: product_vector, topK: 4, vector: $v, filter: { not: { id: { eq: "p3" } } }) { __typename d: vector_distance id } }',
        { v: [1, 1, 1] },
      ],
      ['query { querySimilarProductById(by: product_vector, topK: 2, id: "p2") { id vector_distance product_vector } }', {}],
      ['query { querySimilarProductById(by: product_vector, topK: 2, id: "p5") { id } none: querySimilarProductById(by: product_vector, topK: 2, id: "p9") { id } }', {}],
    ];
    for (const [query, variables] of queries) {
      const answer = await directBody(direct, query, variables);
      expect(answer).toBe(await body(general, query, variables));
      expect(answer).not.toContain('"errors"');
    }
  });
});
