// GET /metrics after a workload: every listed metric present (strictly parsed text) and moved exactly as
// the workload implies: requests by route, operation and outcome; latency histograms; in-flight; node,
// edge and index figures; memory; log bytes, fsyncs, snapshot time, records since snapshot; custom calls,
// errors and timeouts against a local upstream.

import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, send } from './helpers/http.js';
import { parsePrometheusText, sampleValue, type Family } from './helpers/prometheus-text.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

let upstream: Server;
let server: ServerProcess;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    if (req.url === '/slow') return; // never answers: the call times out
    res.writeHead(200, { 'content-type': 'application/json' }).end('"HI"');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const port = (upstream.address() as { port: number }).port;
  const schema = `
type Person { name: String! @id }
type Item { code: String! @id name: String @search(by: [term]) owner: Person }
type Query {
  shout: String @custom(http: { url: "http://127.0.0.1:${port}/shout", method: GET })
  slow: String @custom(http: { url: "http://127.0.0.1:${port}/slow", method: GET })
}`;
  server = await startWithSchema(schema, { args: ['--fsync', 'always', '--custom-timeout-ms', '200'] });
});
afterAll(async () => {
  await server?.stop();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

async function scrape(): Promise<Map<string, Family>> {
  const answer = await send(`${server.url}/metrics`);
  expect(answer.status).toBe(200);
  return parsePrometheusText(answer.text);
}

const r = (route: string, operation: string, outcome: string): Record<string, string> => ({ route, operation, outcome });

/** A counter's value, 0 when the labelled sample is not there yet (prom-client leaves out what never moved). */
function count(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  try {
    return sampleValue(families, name, labels);
  } catch {
    return 0;
  }
}

describe('GET /metrics after a workload', () => {
  it('has every listed metric, moved exactly as the workload implies', async () => {
    const before = await scrape();
    const ok = async (query: string, expected: unknown): Promise<void> => {
      const answer = await postGraphql(server.url, { query });
      const body = answer.json() as Record<string, unknown>;
      delete body['extensions'];
      expect(body).toEqual(expected);
    };
    await ok('mutation { addItem(input: [{ code: "a", name: "red apple", owner: { name: "ann" } }]) { numUids } }', { data: { addItem: { numUids: 2 } } });
    await ok('mutation { addItem(input: [{ code: "b", name: "green apple" }]) { numUids } }', { data: { addItem: { numUids: 1 } } });
    await ok('{ queryItem(filter: { name: { allofterms: "apple" } }, order: { asc: code }) { code owner { name } } }', { data: { queryItem: [{ code: 'a', owner: { name: 'ann' } }, { code: 'b', owner: null }] } });
    await ok('{ shout }', { data: { shout: 'HI' } });
    const slow = (await postGraphql(server.url, { query: '{ slow }' })).json() as { errors: { message: string }[] };
    expect(slow.errors.map((e) => e.message)).toEqual([`Evaluation of custom field failed because external request returned an error: Get "http://127.0.0.1:${(upstream.address() as { port: number }).port}/slow": context deadline exceeded (Client.Timeout exceeded while awaiting headers) for field: slow within type: Query.`]);
    const unknownField = await postGraphql(server.url, { query: '{ nope }' });
    expect(unknownField.json()).toEqual({ errors: [{ message: 'Cannot query field "nope" on type "Query".', locations: [{ line: 1, column: 3 }] }] });
    const notFound = await send(`${server.url}/nowhere`);
    expect(notFound.status).toBe(404);
    expect((await send(`${server.url}/admin/snapshot`, { method: 'POST' })).status).toBe(200);
    // The download is streamed, and counted all the same.
    expect((await send(`${server.url}/admin/snapshot`)).status).toBe(200);
    await ok('mutation { addItem(input: [{ code: "c", name: "blue pear" }]) { numUids } }', { data: { addItem: { numUids: 1 } } });
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string> = {}): number => count(after, name, labels) - count(before, name, labels);
    expect(moved('graphdb_requests_total', r('/graphql', 'mutation', 'ok'))).toBe(3);
    expect(moved('graphdb_requests_total', r('/graphql', 'query', 'ok'))).toBe(2);
    expect(moved('graphdb_requests_total', r('/graphql', 'query', 'error'))).toBe(1); // the timed-out call
    expect(moved('graphdb_requests_total', r('/graphql', 'none', 'error'))).toBe(1);
    expect(moved('graphdb_requests_total', r('unknown', 'none', 'refused'))).toBe(1);
    expect(moved('graphdb_requests_total', r('/admin/snapshot', 'none', 'ok'))).toBe(2);
    // The first scrape is counted once it has been answered.
    expect(moved('graphdb_requests_total', r('/metrics', 'none', 'ok'))).toBe(1);
    expect(moved('graphdb_http_request_duration_seconds_count', { route: '/graphql' })).toBe(7);
    expect(moved('graphdb_http_request_duration_seconds_bucket', { route: '/graphql', le: '+Inf' })).toBe(7);
    expect(moved('graphdb_http_request_duration_seconds_sum', { route: '/graphql' })).toBeGreaterThan(0.2); // the timed-out call alone took 200 ms
    expect(moved('graphdb_engine_execution_seconds_count', { operation: 'query' })).toBe(3);
    expect(moved('graphdb_engine_execution_seconds_count', { operation: 'mutation' })).toBe(3);
    expect(moved('graphdb_engine_execution_seconds_count', { operation: 'none' })).toBe(1);
    expect(sampleValue(after, 'graphdb_requests_in_flight')).toBe(1); // the scrape itself

    expect(moved('graphdb_custom_calls_total')).toBe(2);
    expect(moved('graphdb_custom_call_errors_total')).toBe(1);
    expect(moved('graphdb_custom_call_timeouts_total')).toBe(1);
    expect(moved('graphdb_custom_call_duration_seconds_count')).toBe(2);
    expect(sampleValue(after, 'graphdb_custom_call_pool_queue')).toBe(0);
    expect(sampleValue(after, 'graphdb_custom_call_pool_utilization')).toBe(0);
    expect(sampleValue(after, 'graphdb_custom_call_pool_threads')).toBe(0); // one call per batch is sent inline

    expect(sampleValue(after, 'graphdb_nodes', { type: 'Item' })).toBe(3);
    expect(sampleValue(after, 'graphdb_nodes', { type: 'Person' })).toBe(1);
    expect(sampleValue(after, 'graphdb_edges', { predicate: 'Item.owner' })).toBe(1);
    // (token, node) pairs: red, apple | green, apple | blue, pear; one hash per code and per name.
    expect(after.get('graphdb_index_entries')?.samples.map((s) => [s.labels, s.value])).toEqual([
      [{ predicate: 'Person.name', kind: 'hash' }, 1],
      [{ predicate: 'Item.code', kind: 'hash' }, 3],
      [{ predicate: 'Item.name', kind: 'term' }, 6],
    ]);
    expect(sampleValue(after, 'graphdb_string_arena_bytes')).toBeGreaterThan(0);

    expect(moved('graphdb_log_bytes_total')).toBeGreaterThan(0);
    expect(moved('graphdb_log_fsync_seconds_count')).toBe(3); // --fsync always: one per mutation
    expect(sampleValue(after, 'graphdb_last_snapshot_timestamp_seconds')).toBeGreaterThan(sampleValue(before, 'graphdb_last_snapshot_timestamp_seconds'));
    expect(sampleValue(after, 'graphdb_last_snapshot_timestamp_seconds')).toBeLessThanOrEqual(Date.now() / 1000);
    expect(sampleValue(after, 'graphdb_last_snapshot_duration_seconds')).toBeGreaterThan(0);
    expect(sampleValue(after, 'graphdb_log_records_since_snapshot')).toBe(1);

    expect(sampleValue(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sampleValue(after, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    for (const name of ['graphdb_cache_lookups_total', 'graphdb_ws_connections', 'graphdb_subscriptions', 'graphdb_subscription_groups', 'graphdb_subscription_evaluations_total', 'graphdb_subscription_answers_total', 'graphdb_subscription_fanout_seconds', 'graphdb_ws_slow_clients_closed_total']) {
      expect(after.has(name), name).toBe(true);
    }
  });

});
