// Fragment expansion: fragments that each spread the next one twice used to expand 2^n times
// (a 1.1 KB document blocked every client for 9 s). Fields are collected once per selection set, the
// sub-selections of same-named fields are merged, and the resolved selection is capped.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from '../integration/helpers/http.js';
import type { ServerProcess } from '../integration/helpers/server-process.js';
import { expectCalm, expectRssNear, startHostile, throughReviews } from './helpers/hostile-server.js';
import { rssOf, underWatch } from './helpers/watchdog.js';

/** `{ queryProduct { ...F0 } }` with F0..F(n-1) each holding `body(next)`, and F(n) = `{ name }`. */
function fragmentChain(n: number, body: (next: string) => string): string {
  let text = '{ queryProduct { ...F0 } }\n';
  for (let i = 0; i < n; i++) text += `fragment F${i} on Product { ${body(`F${i + 1}`)} }\n`;
  return `${text}fragment F${n} on Product { name }\n`;
}

let server: ServerProcess;
let baseline: number;

beforeAll(async () => {
  server = await startHostile();
  baseline = rssOf(server.child.pid ?? 0);
}, 30_000);
afterAll(() => server.stop());

describe('fragment expansion', () => {
  it('fragments spreading the next one twice are collected once per selection set', async () => {
    const query = fragmentChain(32, (next) => `...${next} ...${next}`);
    expect(query.length).toBeLessThan(1700);
    const { result, report } = await underWatch(server.url, () => postGraphql(server.url, { query }));
    expect(result.text).toBe('{"data":{"queryProduct":[{"name":"x"}]},"extensions":{"touched_uids":1}}');
    expectCalm(report);
    await expectRssNear(server, baseline);
  });

  it('same-named fields merge their sub-selections instead of doubling them per level', async () => {
    const query = fragmentChain(24, (next) => `reviews { about { ...${next} } } reviews { about { ...${next} } }`);
    const { result, report } = await underWatch(server.url, () => postGraphql(server.url, { query }));
    expect(result.json()).toEqual({ data: { queryProduct: [throughReviews(24)] }, extensions: { touched_uids: 49 } });
    expectCalm(report);
    await expectRssNear(server, baseline);
  });

  it('aliases that double the selection per level stop at the field-selection cap', async () => {
    const query = fragmentChain(24, (next) => `a: reviews { about { ...${next} } } b: reviews { about { ...${next} } }`);
    const { result, report } = await underWatch(server.url, () => postGraphql(server.url, { query }));
    expect(result.status).toBe(200);
    expect(result.json()).toEqual({ errors: [{ message: 'The query exceeds the maximum of 20000 field selections.' }] });
    expectCalm(report);
    await expectRssNear(server, baseline);
  });

  it('a selection just under the cap is answered', async () => {
    // 2^13 leaves of `name` plus the a/b/about levels above them stay under 20000 selections.
    const query = fragmentChain(6, (next) => `a: reviews { about { ...${next} } } b: reviews { about { ...${next} } }`);
    const answer = await postGraphql(server.url, { query });
    const data = answer.json() as { data?: { queryProduct: unknown[] } };
    expect(data.data?.queryProduct).toHaveLength(1);
  });

  it('a ring of 1,000 fragments is refused with the cycle named, without graphql-js walking it', async () => {
    let query = '{ queryProduct { ...F0 } }\n';
    for (let i = 0; i < 1000; i++) query += `fragment F${i} on Product { name ...F${(i + 1) % 1000} }\n`;
    const via = Array.from({ length: 999 }, (_, i) => `F${i + 1}`).join(', ');
    const { result, report } = await underWatch(server.url, () => postGraphql(server.url, { query }));
    // One location, as gqlparser gives it: the name in the spread that closes the ring (F999's `...F0`).
    const locations = [{ line: 1001, column: 'fragment F999 on Product { name ...'.length + 1 }];
    expect(result.json()).toEqual({ errors: [{ message: `Cannot spread fragment "F0" within itself via ${via}.`, locations }] });
    expectCalm(report);
  });

  it('a chain of 1,000 spreads is answered, 1,001 is refused as too nested', async () => {
    const chain = (n: number): string => fragmentChain(n, (next) => `...${next}`);
    expect((await postGraphql(server.url, { query: chain(1000) })).text).toBe('{"data":{"queryProduct":[{"name":"x"}]},"extensions":{"touched_uids":1}}');
    const { result, report } = await underWatch(server.url, () => postGraphql(server.url, { query: chain(1001) }));
    expect(result.json()).toEqual({ errors: [{ message: 'The query exceeds the maximum nesting of 1000.' }] });
    expectCalm(report);
  });

  it('a fragment spreading itself under @include is refused at once (found by the fuzz: 41 s blocked)', async () => {
    // Each self spread added its @include again to the inherited conditions, so every entry looked new
    // and the growing condition list was printed on every one: quadratic work up to the selection cap.
    const query = 'query ($b: Boolean!) { queryReview { ...G } }\nfragment G on Review { comment name: comment ...G @include(if: $b) }';
    const { result, report } = await underWatch(server.url, () => postGraphql(server.url, { query, variables: { b: true } }));
    expect(result.json()).toEqual({ errors: [{ message: 'Cannot spread fragment "G" within itself.', locations: [{ line: 2, column: 49 }] }] });
    expect(report.worstMs).toBeLessThan(1000);
  });
});
