// The product spec's first schema, driven through the engine facade (no HTTP): the quickest place
// to see exec/ answer the first slice. The same scenarios run over HTTP in test/integration.

import { beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/index.js';
import { firstSliceSchema } from '../../fixtures/first-slice.js';

let engine: Engine;

async function gql(query: string, variables?: Record<string, unknown>): Promise<{ data?: any; errors?: any[]; extensions?: any }> {
  const response = await engine.execute({ method: 'POST', query, variables, headers: {} });
  return JSON.parse(response.body);
}

beforeAll(async () => {
  engine = await Engine.open({ dataDir: '', maxQueryTokens: 50_000, maxQueryDepth: 200, debug: false });
  const result = await engine.updateSchema(firstSliceSchema);
  expect(result.ok, JSON.stringify(result)).toBe(true);
  const seeded = await gql(`mutation {
    addProduct(input: [{ name: "GraphQL Book" }, { name: "Rust Book" }]) { product { productID name } numUids }
  }`);
  expect(seeded.errors).toBeUndefined();
});

describe('first slice through the facade', () => {
  it('adds and gets a product by id', async () => {
    const added = await gql(`mutation { addProduct(input: [{ name: "Widget Pro" }]) { product { productID name } numUids } }`);
    expect(added.errors).toBeUndefined();
    expect(added.data.addProduct.numUids).toBe(1);
    expect(added.extensions.requestID).toMatch(/^[0-9a-f-]{36}$/);
    const id = added.data.addProduct.product[0].productID;
    const got = await gql(`query ($id: ID!) { getProduct(productID: $id) { productID name __typename } }`, { id });
    expect(got).toEqual({ data: { getProduct: { productID: id, name: 'Widget Pro', __typename: 'Product' } }, extensions: { touched_uids: 3 } });
  });

  it('links reviews by id and @id, with inverse edges visible from both sides', async () => {
    const products = await gql(`{ queryProduct(filter: { name: { allofterms: "graphql book" } }) { productID } }`);
    const productID = products.data.queryProduct[0].productID;
    const added = await gql(
      `mutation ($pid: ID!) {
        addReview(input: [
          { about: { productID: $pid }, by: { username: "alice" }, comment: "Running fast and well written", rating: 5, verified: true },
          { about: { productID: $pid }, by: { username: "bob" }, comment: "Too slow", rating: 2, verified: false },
          { about: { productID: $pid }, by: { username: "alice" }, comment: "Second read, still good", rating: 4, verified: true }
        ]) { numUids review { rating by { username } about { name } } }
      }`,
      { pid: productID },
    );
    expect(added.errors).toBeUndefined();
    expect(added.data.addReview.numUids).toBe(5); // 3 reviews + 2 customers
    const product = await gql(
      `query ($pid: ID!) { getProduct(productID: $pid) { name reviews(order: { desc: rating }, first: 2) { rating by { username } } } }`,
      { pid: productID },
    );
    expect(product.data.getProduct.reviews).toEqual([
      { rating: 5, by: { username: 'alice' } },
      { rating: 4, by: { username: 'alice' } },
    ]);
    const alice = await gql(`{ getCustomer(username: "alice") { username reviews(order: { asc: rating }) { rating about { name } } } }`);
    expect(alice.data.getCustomer).toEqual({
      username: 'alice',
      reviews: [
        { rating: 4, about: { name: 'GraphQL Book' } },
        { rating: 5, about: { name: 'GraphQL Book' } },
      ],
    });
  });

  it('filters with eq, ge, alloftext, regexp and a boolean', async () => {
    const byRating = await gql(`{ queryReview(filter: { rating: { ge: 4 } }, order: { asc: rating }) { rating } }`);
    expect(byRating.data.queryReview).toEqual([{ rating: 4 }, { rating: 5 }]);
    const text = await gql(`{ queryReview(filter: { comment: { alloftext: "run" } }) { comment } }`);
    expect(text.data.queryReview).toEqual([{ comment: 'Running fast and well written' }]);
    const regexp = await gql(`{ queryCustomer(filter: { username: { regexp: "/^ALI/i" } }) { username } }`);
    expect(regexp.data.queryCustomer).toEqual([{ username: 'alice' }]);
    // Like Dgraph's GraphQL filter, a regexp without a trigram to look up is answered from the values.
    const wide = await gql(`{ queryCustomer(filter: { username: { regexp: "/^a/" } }) { username } }`);
    expect(wide.errors).toBeUndefined();
    expect(wide.data.queryCustomer).toEqual([{ username: 'alice' }]);
    const verified = await gql(`{ queryReview(filter: { verified: false }) { comment } }`);
    expect(verified.data.queryReview).toEqual([{ comment: 'Too slow' }]);
    const eq = await gql(`{ queryCustomer(filter: { username: { eq: "bob" } }) { username } }`);
    expect(eq.data.queryCustomer).toEqual([{ username: 'bob' }]);
  });

  it('queries interfaces with fragments and inline fragments', async () => {
    const added = await gql(`mutation {
      addHuman(input: [{ name: "Han", totalCredits: 10 }]) { numUids }
      addDroid(input: [{ name: "R2-D2", primaryFunction: "Astromech" }]) { numUids }
    }`);
    expect(added.errors).toBeUndefined();
    const result = await gql(`
      query { queryCharacter(order: { asc: name }) { __typename name ...HumanParts ... on Droid { primaryFunction } } }
      fragment HumanParts on Human { totalCredits }
    `);
    expect(result.data.queryCharacter).toEqual([
      { __typename: 'Human', name: 'Han', totalCredits: 10 },
      { __typename: 'Droid', name: 'R2-D2', primaryFunction: 'Astromech' },
    ]);
    const exact = await gql(`{ queryCharacter(filter: { name: { eq: "Han" } }) { name } }`);
    expect(exact.data.queryCharacter).toEqual([{ name: 'Han' }]);
  });

  it('refuses a duplicate @id and stops later mutations of the operation', async () => {
    const result = await gql(`mutation {
      first: addCustomer(input: [{ username: "carol" }]) { numUids }
      second: addCustomer(input: [{ username: "carol" }]) { numUids }
      third: addCustomer(input: [{ username: "dave" }]) { numUids }
    }`);
    expect(result.data).toEqual({ first: { numUids: 1 }, second: null, third: null });
    expect(result.errors?.map((e) => e.message)).toEqual([
      "couldn't rewrite mutation addCustomer because failed to rewrite mutation payload because id carol already exists for field username inside type Customer",
      'Mutation third was not executed because of a previous error.',
    ]);
    const dave = await gql(`{ getCustomer(username: "dave") { username } }`);
    expect(dave.data.getCustomer).toBeNull();
  });
});
