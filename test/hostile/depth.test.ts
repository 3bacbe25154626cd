// --max-query-depth on the resolved selection: fragments expanded, inline fragments adding no depth,
// measured without recursion; brackets nested past what the parser can take get their own error.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from '../integration/helpers/http.js';
import type { ServerProcess } from '../integration/helpers/server-process.js';
import { expectCalm, expectRssNear, startHostile, throughReviews } from './helpers/hostile-server.js';
import { rssOf, underWatch } from './helpers/watchdog.js';

/** `{ queryProduct { ...F0 } }` where each of `n` fragments adds `reviews { about { … } }` (two levels). */
function fieldChain(n: number): string {
  let text = '{ queryProduct { ...F0 } }\n';
  for (let i = 0; i < n; i++) text += `fragment F${i} on Product { reviews { about { ...F${i + 1} } } }\n`;
  return `${text}fragment F${n} on Product { name }\n`;
}

const tooDeep = { errors: [{ message: 'The query exceeds the maximum depth of 200.' }] };
const tooNested = { errors: [{ message: 'The query exceeds the maximum nesting of 1000.' }] };
/** graphql-js's token cap (`--max-query-tokens`, 10,000 by default), "that" sic. */
const tokenCap = 'Syntax Error: Document contains more that 10000 tokens. Parsing aborted.';
function tooManyTokens(line: number, column: number): unknown {
  return { errors: [{ message: tokenCap, locations: [{ line, column }] }] };
}

/**
 * Sends a document past the token cap once, unwatched: V8 compiles the parser's paths and the syntax-error
 * wording on first use (30-100 ms once, ~5 ms after), a one-time cost and not a stall an attacker can repeat.
 */
async function firstUse(query: string): Promise<void> {
  expect((await postGraphql(server.url, { query })).json()).toMatchObject({ errors: [{ message: tokenCap }] });
}

let server: ServerProcess;
let baseline: number;

beforeAll(async () => {
  server = await startHostile();
  baseline = rssOf(server.child.pid ?? 0);
}, 30_000);
afterAll(() => server.stop());

describe('depth of the resolved selection', () => {
  it('a chain of 1,000 fragments (14,000 tokens) is refused by the token cap before any other work', async () => {
    await firstUse(fieldChain(1000));
    const { result, report } = await underWatch(server.url, () => postGraphql(server.url, { query: fieldChain(1000) }));
    expect(result.json()).toEqual(tooManyTokens(715, 54));
    expectCalm(report);
  });

  it('a chain of 300 fragments within the token cap is refused by depth', async () => {
    const { result, report } = await underWatch(server.url, () => postGraphql(server.url, { query: fieldChain(300) }));
    expect(result.json()).toEqual(tooDeep);
    expectCalm(report);
  });

  it('a chain of 4,000 fragment spreads is refused by the token cap, not a stack overflow', async () => {
    let query = '{ queryProduct { ...F0 } }\n';
    for (let i = 0; i < 4000; i++) query += `fragment F${i} on Product { ...F${i + 1} }\n`;
    query += 'fragment F4000 on Product { name }\n';
    await firstUse(query);
    const { result, report } = await underWatch(server.url, () => postGraphql(server.url, { query }));
    expect(result.json()).toEqual(tooManyTokens(1251, 10));
    expectCalm(report);
    await expectRssNear(server, baseline);
  });

  it('depth 200 through fragments is answered, 201 is refused', async () => {
    // queryProduct (1) + 2 levels per fragment + name: 1 + 2 * 99 + 1 = 200.
    expect((await postGraphql(server.url, { query: fieldChain(99) })).json()).toEqual({ data: { queryProduct: [throughReviews(99)] }, extensions: { touched_uids: 199 } });
    const deeper = fieldChain(99).replace('fragment F99 on Product { name }', 'fragment F99 on Product { reviews { comment } }');
    expect((await postGraphql(server.url, { query: deeper })).json()).toEqual(tooDeep);
  });

  it('inline fragments add no depth', async () => {
    const query = `{ queryProduct { ${'... on Product { '.repeat(400)}name${' }'.repeat(400)} } }`;
    expect((await postGraphql(server.url, { query })).json()).toEqual({ data: { queryProduct: [{ name: 'x' }] }, extensions: { touched_uids: 1 } });
  });

  it('brackets nested past 1000 levels are refused before parsing', async () => {
    const query = `{ queryProduct(filter: { name: { in: ${'['.repeat(5000)}"x"${']'.repeat(5000)} } }) { name } }`;
    const { result, report } = await underWatch(server.url, () => postGraphql(server.url, { query }));
    expect(result.json()).toEqual(tooNested);
    expectCalm(report);
  });
});
