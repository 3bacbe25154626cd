// The cost estimate of an operation whose page sizes are written in the document depends only on the
// store's statistics, so it is kept until the store changes (executor.ts `admit`). These prove the
// kept answer is never stale: a write makes the same document be estimated again, and page sizes
// taken from variables are estimated on every request.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from './helpers/http.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

const maxQueryCost = 1_000;
const schema = 'type Node { id: ID! name: String! @search(by: [hash]) links: [Node] }';
let server: ServerProcess;

beforeAll(async () => {
  server = await startWithSchema(schema, { args: ['--max-query-cost', String(maxQueryCost)] });
});
afterAll(async () => {
  await server?.stop();
});

async function ask(query: string, variables: Record<string, unknown> = {}): Promise<unknown> {
  const answer = await postGraphql(server.url, { query, variables });
  expect(answer.status).toBe(200);
  const body = answer.json() as { extensions?: unknown };
  delete body.extensions;
  return body;
}

/** Adds `count` nodes named from `from`, each linked to every node named in `linkTo` (and to itself none). */
async function addNodes(from: number, count: number): Promise<string[]> {
  const input = Array.from({ length: count }, (_, i) => ({ name: `n${from + i}` }));
  const added = (await ask('mutation ($input: [AddNodeInput!]!) { addNode(input: $input) { node { id } } }', { input })) as {
    data: { addNode: { node: { id: string }[] } };
  };
  return added.data.addNode.node.map((n) => n.id);
}

async function linkAll(ids: readonly string[]): Promise<void> {
  const links = ids.map((id) => ({ id }));
  expect(await ask('mutation ($ids: [ID!], $links: [NodeRef]) { updateNode(input: { filter: { id: $ids }, set: { links: $links } }) { numUids } }', { ids, links })).toEqual({
    data: { updateNode: { numUids: ids.length } },
  });
}

const refused = (cost: number, column: number) => ({
  errors: [{ message: `The query's estimated cost of ${cost} nodes exceeds the maximum of ${maxQueryCost} (--max-query-cost).`, locations: [{ line: 1, column }] }],
});

describe('query cost admission: a kept estimate is never stale', () => {
  const fixed = '{ queryNode { name links(first: 1000) { name } } }';

  it('estimates the same document again after a write', async () => {
    const first = await addNodes(0, 10);
    // 10 nodes without links: 10.
    expect(((await ask(fixed)) as { data: { queryNode: unknown[] } }).data.queryNode).toHaveLength(10);
    await linkAll(first);
    // 10 + 10 × 10 = 110: still admitted, answered in full.
    const linked = (await ask(fixed)) as { data: { queryNode: { links: unknown[] }[] } };
    expect(linked.data.queryNode.map((n) => n.links.length)).toEqual(Array.from({ length: 10 }, () => 10));
    const all = [...first, ...(await addNodes(10, 40))];
    await linkAll(all);
    // 50 + 50 × 50 = 2,550: the same text is refused now.
    expect(await ask(fixed)).toEqual(refused(2_550, 3));
  });

  it('estimates page sizes taken from variables on every request', async () => {
    const byVariable = 'query ($n: Int) { queryNode(first: $n) { name links(first: 1000) { name } } }';
    // 1 + 1 × 50 = 51: admitted.
    expect(((await ask(byVariable, { n: 1 })) as { data: { queryNode: unknown[] } }).data.queryNode).toHaveLength(1);
    // 50 + 50 × 50: refused, though the document was admitted a moment ago with no write in between.
    expect(await ask(byVariable, { n: 50 })).toEqual(refused(2_550, 19));
    expect(((await ask(byVariable, { n: 2 })) as { data: { queryNode: unknown[] } }).data.queryNode).toHaveLength(2);
  });
});
