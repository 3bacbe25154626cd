// Deeply nested input: JSON in request bodies (filter and add-input variables, unused variables, the
// reviver path for float-written integers) and in @custom replies is refused past 1000 levels with a
// clear error before anything recursive walks it; 1000 levels are still served.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, uploadSchema, uploadSucceeded, jsonHeaders } from '../integration/helpers/http.js';
import type { ServerProcess } from '../integration/helpers/server-process.js';
import { expectCalm, expectRssNear, hostileSchema, startHostile } from './helpers/hostile-server.js';
import { rssOf, underWatch } from './helpers/watchdog.js';

const tooDeepBody = { errors: [{ message: 'Not a valid GraphQL request body: exceeded max depth of 1000' }] };
const filterQuery = JSON.stringify('query($f: ProductFilter) { queryProduct(filter: $f) { name } }');
const addQuery = JSON.stringify('mutation($i: [AddProductInput!]!) { addProduct(input: $i) { numUids } }');

/** `levels` nested `and` lists around `name: {eq: "x"}` (two JSON levels each). */
const andFilter = (levels: number): string => `${'{"and":['.repeat(levels)}{"name":{"eq":"x"}}${']}'.repeat(levels)}`;
const notFilter = (levels: number): string => `${'{"not":'.repeat(levels)}{"name":{"eq":"nope"}}${'}'.repeat(levels)}`;
/** A product whose review is about a product whose review…, `levels` times (three JSON levels each). */
const addInput = (levels: number): string => `[${'{"name":"p","reviews":[{"comment":"c","about":'.repeat(levels)}{"name":"z"}${'}]}'.repeat(levels)}]`;

let server: ServerProcess;
let upstream: Server;
let baseline: number;

beforeAll(async () => {
  upstream = createServer((_request, response) => response.end(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const port = (upstream.address() as AddressInfo).port;
  server = await startHostile();
  const schema = `${hostileSchema}\ntype Query { deep: [String] @custom(http: { url: "http://127.0.0.1:${port}/deep", method: GET }) }`;
  expect(await uploadSchema(server.url, schema)).toEqual(uploadSucceeded);
  baseline = rssOf(server.child.pid ?? 0);
}, 30_000);
afterAll(async () => {
  await server.stop();
  await new Promise((resolve) => upstream.close(resolve));
});

function post(body: string) {
  return send(`${server.url}/graphql`, { method: 'POST', headers: jsonHeaders, body });
}

describe('nested JSON input', () => {
  it.each([
    ['a filter variable nested 3,000 levels', `{"query":${filterQuery},"variables":{"f":${andFilter(3000)}}}`],
    ['a not-chain filter nested 3,000 levels', `{"query":${filterQuery},"variables":{"f":${notFilter(3000)}}}`],
    ['an add input nested 2,000 levels', `{"query":${addQuery},"variables":{"i":${addInput(2000)}}}`],
    ['an unused variable nested 100,000 levels', `{"query":"{ __typename }","variables":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`],
    ['a float-written integer nested 3,000 levels (reviver path)', `{"query":"{ __typename }","variables":{"x":${'['.repeat(3000)}1.0${']'.repeat(3000)}}}`],
  ])('%s is refused with 400', async (_name, body) => {
    const { result, report } = await underWatch(server.url, () => post(body));
    expect(result.status).toBe(400);
    expect(result.json()).toEqual(tooDeepBody);
    expectCalm(report);
  });

  it('nesting within the bound is served (filters, add input)', async () => {
    // 499 `and` levels (998 JSON levels, plus the body and variables objects) match product "x".
    expect((await post(`{"query":${filterQuery},"variables":{"f":${andFilter(498)}}}`)).json()).toEqual({ data: { queryProduct: [{ name: 'x' }] }, extensions: { touched_uids: 1 } });
    expect((await post(`{"query":${filterQuery},"variables":{"f":${notFilter(995)}}}`)).json()).toEqual({ data: { queryProduct: [{ name: 'x' }] }, extensions: { touched_uids: 1 } });
    const added = (await post(`{"query":${addQuery},"variables":{"i":${addInput(332)}}}`)).json() as { errors?: unknown; data?: { addProduct?: { numUids?: number } } };
    expect(added.errors).toBeUndefined();
    // Two nodes, the outer product and its review: as in Dgraph (deleteInverseObject), a review's `about`
    // inside its product's `reviews` (@hasInverse) is that product, so the nested object under it is dropped.
    expect(added.data?.addProduct?.numUids).toBe(2);
  });

  it('an upstream reply of 1M nested [ fails its field with Go decoder wording', async () => {
    const { result, report } = await underWatch(server.url, () => post('{"query":"{ deep }"}'));
    expect(result.json()).toEqual({
      data: { deep: [] },
      errors: [
        {
          message: 'Evaluation of custom field failed because json unmarshalling result of external request failed (with error: exceeded max depth) for field: deep within type: Query.',
          locations: [{ line: 1, column: 3 }],
          path: ['deep'],
        },
      ],
    });
    expectCalm(report);
    await expectRssNear(server, baseline);
  });
});
