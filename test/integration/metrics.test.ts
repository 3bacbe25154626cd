// GET /metrics: Prometheus text (prom-client), cache lookups counted per cache and result, and the
// admin key rules (open without a key, like /health; the key is needed once one is set).

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, send } from './helpers/http.js';
import { parsePrometheusText } from './helpers/prometheus-text.js';
import { startServer, startWithSchema, type ServerProcess } from './helpers/server-process.js';

const schema = 'type Item { id: ID! code: String! @id name: String @search(by: [term]) score: Int @search }';
let server: ServerProcess;
let keyed: ServerProcess;

beforeAll(async () => {
  // Cache lookups are counted exactly: one thread, one set of caches (each thread keeps its own: README, Threads).
  [server, keyed] = await Promise.all([startWithSchema(schema, { args: ['--threads', '1'] }), startServer({ args: ['--admin-key', 'k3y'] })]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), keyed?.stop()]);
});

type Lookups = Record<string, { hit: number; miss: number }>;

async function lookups(url: string): Promise<Lookups> {
  const answer = await send(`${url}/metrics`);
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  expect(answer.text).toContain('# TYPE graphdb_cache_lookups_total counter');
  const found: Lookups = {};
  for (const [, cache, result, value] of answer.text.matchAll(/^graphdb_cache_lookups_total\{cache="(\w+)",result="(hit|miss)"\} (\d+)$/gm)) {
    const entry = (found[cache as string] ??= { hit: 0, miss: 0 });
    entry[result as 'hit' | 'miss'] = Number(value);
  }
  return found;
}

function delta(after: Lookups, before: Lookups): Lookups {
  return Object.fromEntries(Object.entries(after).map(([name, v]) => [name, { hit: v.hit - (before[name]?.hit ?? 0), miss: v.miss - (before[name]?.miss ?? 0) }]));
}

describe('GET /metrics', () => {
  it('counts document, plan and argument cache lookups exactly', async () => {
    const added = await postGraphql(server.url, { query: 'mutation { addItem(input: [{ code: "a", name: "red apple", score: 3 }, { code: "b", name: "green apple", score: 5 }]) { numUids } }' });
    expect(added.json()).toMatchObject({ data: { addItem: { numUids: 2 } } });
    const before = await lookups(server.url);
    expect(Object.keys(before).sort()).toEqual(['admission', 'arguments', 'document', 'document_shape', 'order_prefix', 'plan']);
    const query = 'query ($t: String!) { queryItem(filter: { name: { allofterms: $t } }, order: { desc: score }, first: 1) { code } }';
    expect((await postGraphql(server.url, { query, variables: { t: 'apple' } })).json()).toEqual({ data: { queryItem: [{ code: 'b' }] }, extensions: expect.anything() });
    expect((await postGraphql(server.url, { query, variables: { t: 'red' } })).json()).toEqual({ data: { queryItem: [{ code: 'a' }] }, extensions: expect.anything() });
    const change = delta(await lookups(server.url), before);
    expect(change['document']).toEqual({ hit: 1, miss: 1 });
    expect(change['plan']).toEqual({ hit: 1, miss: 1 });
    // Arguments are coerced once per request and read again from the memo within it.
    expect(change['arguments']?.miss).toBe(2);
  });

  it('counts /admin and persisted-query requests under their real operation type', async () => {
    const counts = async (): Promise<Record<string, number>> => {
      const family = parsePrometheusText((await send(`${server.url}/metrics`)).text).get('graphdb_requests_total');
      return Object.fromEntries((family?.samples ?? []).map((sample) => [`${sample.labels['route']} ${sample.labels['operation']} ${sample.labels['outcome']}`, sample.value]));
    };
    const before = await counts();
    expect((await postGraphql(server.url, { query: '{ health { status } }' }, {}, '/admin')).status).toBe(200);
    expect((await postGraphql(server.url, { query: 'mutation { config(input: {logLevel: "info"}) { response { code } } }' }, {}, '/admin')).json()).toEqual({
      data: { config: { response: { code: 'Success' } } },
    });
    const query = '{ queryItem(first: 0) { code } }';
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const persisted = { extensions: { persistedQuery: { version: 1, sha256Hash } } };
    // The first sends the text (registered, durably: an asynchronous answer), the second only the hash.
    expect((await postGraphql(server.url, { query, ...persisted })).json()).toMatchObject({ data: { queryItem: [] } });
    expect((await postGraphql(server.url, persisted)).json()).toMatchObject({ data: { queryItem: [] } });
    const after = await counts();
    const change = Object.fromEntries(Object.entries(after).map(([key, value]) => [key, value - (before[key] ?? 0)]).filter(([key, value]) => value !== 0 && !String(key).startsWith('/metrics')));
    expect(change).toEqual({ '/admin query ok': 1, '/admin mutation ok': 1, '/graphql query ok': 2 });
  });

  it('answers only GET, and needs the admin key once one is set', async () => {
    const posted = await send(`${server.url}/metrics`, { method: 'POST', body: '{}' });
    expect(posted.status).toBe(400);
    expect(posted.json()).toEqual({ errors: [{ message: 'Invalid method', extensions: { code: 'ErrorInvalidMethod' } }] });
    const refused = await send(`${keyed.url}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('X-Auth-Token');
    const opened = await send(`${keyed.url}/metrics`, { headers: { 'x-auth-token': 'k3y' } });
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('graphdb_cache_lookups_total{cache="document",result="miss"}');
  });
});
