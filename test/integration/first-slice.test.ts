// Issue #2's first engine slice, end to end over HTTP against the real server process: the
// product spec's schema uploaded through /admin/schema, data written with add mutations and read
// back with get/query, filters, order, pagination, inverse edges and interfaces.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstSliceSchema } from '../fixtures/first-slice.js';
import { gunzipSync } from 'node:zlib';
import { header, postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { nativeTransport, startServer, type ServerProcess } from './helpers/server-process.js';

let server: ServerProcess;

interface Response {
  data?: any;
  errors?: { message: string; locations?: unknown; path?: unknown }[];
  extensions?: { requestID?: string };
}

async function gql(query: string, variables?: Record<string, unknown>, operationName?: string): Promise<Response> {
  const answer = await postGraphql(server.url, { query, variables, operationName });
  expect(answer.status).toBe(200);
  return answer.json() as Response;
}

let bookId: string;

beforeAll(async () => {
  server = await startServer();
  expect(await uploadSchema(server.url, firstSliceSchema)).toEqual(uploadSucceeded);
  const seeded = await gql(`mutation {
    addProduct(input: [{ name: "GraphQL Book" }, { name: "Rust Book" }, { name: "Cook Book" }]) { product { productID name } numUids }
  }`);
  expect(seeded.errors).toBeUndefined();
  bookId = seeded.data.addProduct.product.find((p: { name: string }) => p.name === 'GraphQL Book').productID;
  const reviews = await gql(
    `mutation ($pid: ID!) {
      addReview(input: [
        { about: { productID: $pid }, by: { username: "alice" }, comment: "Running fast and well written", rating: 5, verified: true },
        { about: { productID: $pid }, by: { username: "bob" }, comment: "Too slow for me", rating: 2, verified: false },
        { about: { productID: $pid }, by: { username: "alice" }, comment: "Second read, still good", rating: 4, verified: true }
      ]) { numUids review { rating } }
    }`,
    { pid: bookId },
  );
  expect(reviews.errors).toBeUndefined();
});

afterAll(async () => {
  await server?.stop();
});

describe('first slice over HTTP', () => {
  it('runs on the native uWebSockets.js transport', () => {
    expect(server.transport).toBe(nativeTransport);
  });

  it('add returns the lower-cased type list and numUids, and a requestID', async () => {
    const added = await gql(`mutation { addProduct(input: [{ name: "Widget" }]) { product { name } numUids } }`);
    expect(added.data).toEqual({ addProduct: { product: [{ name: 'Widget' }], numUids: 1 } });
    expect(added.extensions?.requestID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('gets by ID and by the @id field', async () => {
    const byId = await gql(`query ($id: ID!) { getProduct(productID: $id) { productID name __typename } }`, { id: bookId });
    expect(byId.data.getProduct).toEqual({ productID: bookId, name: 'GraphQL Book', __typename: 'Product' });
    const byXid = await gql(`{ getCustomer(username: "bob") { username reviews { rating } } }`);
    expect(byXid.data.getCustomer).toEqual({ username: 'bob', reviews: [{ rating: 2 }] });
    const missing = await gql(`{ getProduct(productID: "0xfffff") { name } }`);
    expect(missing).toEqual({ data: { getProduct: null } });
  });

  it('nested list fields take order and first, and inverse edges show from both sides', async () => {
    const product = await gql(
      `query ($id: ID!) { getProduct(productID: $id) { reviews(order: { desc: rating }, first: 2) { rating by { username } } } }`,
      { id: bookId },
    );
    expect(product.data.getProduct.reviews).toEqual([
      { rating: 5, by: { username: 'alice' } },
      { rating: 4, by: { username: 'alice' } },
    ]);
    const alice = await gql(`{ getCustomer(username: "alice") { reviews(order: { asc: rating }) { rating about { name } } } }`);
    expect(alice.data.getCustomer.reviews).toEqual([
      { rating: 4, about: { name: 'GraphQL Book' } },
      { rating: 5, about: { name: 'GraphQL Book' } },
    ]);
  });

  it('filters: term, eq, ge, alloftext with stemming, regexp with flags, boolean', async () => {
    const term = await gql(`{ queryProduct(filter: { name: { anyofterms: "rust cook" } }, order: { asc: name }) { name } }`);
    expect(term.data.queryProduct).toEqual([{ name: 'Cook Book' }, { name: 'Rust Book' }]);
    const ge = await gql(`{ queryReview(filter: { rating: { ge: 4 } }, order: { desc: rating }) { rating } }`);
    expect(ge.data.queryReview).toEqual([{ rating: 5 }, { rating: 4 }]);
    const text = await gql(`{ queryReview(filter: { comment: { alloftext: "run fast" } }) { comment } }`);
    expect(text.data.queryReview).toEqual([{ comment: 'Running fast and well written' }]);
    const regexp = await gql(`{ queryCustomer(filter: { username: { regexp: "/^ALIC.$/i" } }) { username } }`);
    expect(regexp.data.queryCustomer).toEqual([{ username: "alice" }]);
    const bool = await gql(`{ queryReview(filter: { verified: false }) { comment } }`);
    expect(bool.data.queryReview).toEqual([{ comment: 'Too slow for me' }]);
    const eq = await gql(`{ queryCustomer(filter: { username: { eq: "alice" } }) { username } }`);
    expect(eq.data.queryCustomer).toEqual([{ username: 'alice' }]);
  });

  it('order and first at the root', async () => {
    const top = await gql(`{ queryReview(order: { asc: rating }, first: 2) { rating } }`);
    expect(top.data.queryReview).toEqual([{ rating: 2 }, { rating: 4 }]);
  });

  it('interfaces answer with fragments, inline fragments and __typename', async () => {
    const added = await gql(`mutation {
      addHuman(input: [{ name: "Han", totalCredits: 10 }]) { human { name } }
      addDroid(input: [{ name: "R2-D2", primaryFunction: "Astromech" }]) { droid { name } }
    }`);
    expect(added.errors).toBeUndefined();
    const result = await gql(`
      query Characters { queryCharacter(order: { asc: name }) { __typename name ...HumanParts ... on Droid { primaryFunction } } }
      fragment HumanParts on Human { totalCredits }
    `);
    expect(result.data.queryCharacter).toEqual([
      { __typename: 'Human', name: 'Han', totalCredits: 10 },
      { __typename: 'Droid', name: 'R2-D2', primaryFunction: 'Astromech' },
    ]);
  });

  it('several root queries run independently: one failing leaves the others intact', async () => {
    const result = await gql(`{
      good: queryProduct(filter: { name: { allofterms: "rust" } }) { name }
      bad: getProduct(productID: "not-a-uid") { name }
    }`);
    expect(result.data).toEqual({ good: [{ name: 'Rust Book' }], bad: null });
    expect(result.errors).toEqual([
      { message: 'ID argument (not-a-uid) of getProduct was not able to be parsed', locations: [{ line: 3, column: 7 }], path: ['bad'] },
    ]);
  });

  it('mutations run serially; after a failure the rest are not executed and earlier ones stay', async () => {
    const result = await gql(`mutation {
      one: addCustomer(input: [{ username: "carol" }]) { numUids }
      two: addCustomer(input: [{ username: "carol" }]) { numUids }
      three: addCustomer(input: [{ username: "dave" }]) { numUids }
    }`);
    expect(result.data).toEqual({ one: { numUids: 1 }, two: null, three: null });
    expect(result.errors?.map((e) => [e.message, e.path])).toEqual([
      [
        "couldn't rewrite mutation addCustomer because failed to rewrite mutation payload because id carol already exists for field username inside type Customer",
        ['two'],
      ],
      ['Mutation three was not executed because of a previous error.', ['three']],
    ]);
    const check = await gql(`{ carol: getCustomer(username: "carol") { username } dave: getCustomer(username: "dave") { username } }`);
    expect(check.data).toEqual({ carol: { username: 'carol' }, dave: null });
  });

  it('selects the operation by name and reports Dgraph texts when it is missing or unknown', async () => {
    const doc = `query A { queryProduct(first: 1, order: { asc: name }) { name } } query B { queryCustomer(first: 1, order: { asc: username }) { username } }`;
    expect((await gql(doc, undefined, 'B')).data).toEqual({ queryCustomer: [{ username: 'alice' }] });
    expect((await gql(doc)).errors?.[0]?.message).toBe('Operation name must by supplied when query has more than 1 operation.');
    expect((await gql(doc, undefined, 'C')).errors?.[0]?.message).toBe("Supplied operation name C isn't present in the request.");
  });

  it('a large answer written straight from the store: exact UTF-8 text, Vary, gzip when asked', async () => {
    // Names JSON must escape, Latin-1 and astral characters, long enough for a body over 1 KB.
    const names = ['Longname "quoted"', 'Longname back \\ slash', 'Longname café ünïcode', 'Longname emoji 😀 tab\t', 'Longname plain ascii'].map(
      (n) => `${n} ${'x'.repeat(300)}`,
    );
    const added = await gql('mutation ($input: [AddProductInput!]!) { addProduct(input: $input) { numUids } }', { input: names.map((name) => ({ name })) });
    expect(added.data?.addProduct.numUids).toBe(5);
    const query = { query: '{ queryProduct(filter: { name: { anyofterms: "longname" } }) { name } }' };
    const plain = await postGraphql(server.url, query);
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(header(plain, 'content-type')).toMatch(/^application\/json/);
    expect(header(plain, 'vary')).toBe('Accept-Encoding');
    expect(header(plain, 'content-encoding')).toBeUndefined();
    const got = (plain.json() as Response).data.queryProduct.map((p: { name: string }) => p.name);
    expect([...got].sort()).toEqual([...names].sort());
    const zipped = await postGraphql(server.url, query, { 'accept-encoding': 'gzip' });
    expect(header(zipped, 'content-encoding')).toBe('gzip');
    expect(gunzipSync(zipped.body).toString('utf8')).toBe(plain.text);
  });

  it('a failed mutation changes nothing (transaction rolled back)', async () => {
    const result = await gql(`mutation {
      addReview(input: [
        { about: { name: "Brand New Product" }, by: { username: "erin" }, rating: 3 },
        { about: { productID: "0xffffff" }, by: { username: "frank" }, rating: 1 }
      ]) { numUids }
    }`);
    expect(result.errors?.[0]?.message).toBe(
      `couldn't rewrite mutation addReview because failed to rewrite mutation payload because ID "0xffffff" isn't a Product`,
    );
    const after = await gql(`{
      erin: getCustomer(username: "erin") { username }
      products: queryProduct(filter: { name: { allofterms: "brand" } }) { name }
    }`);
    expect(after.data).toEqual({ erin: null, products: [] });
  });
});
