// The request line (one info record per request, sampled by --log-requests) and the slow-request line
// (--slow-ms), read from the real server's JSON log.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { postGraphql, uploadSchema } from './helpers/http.js';
import { findLogs, type LogRecord } from './helpers/log-records.js';
import { runToExit, startWithSchema, type ServerProcess } from './helpers/server-process.js';

const schema = 'type Item { code: String! @id name: String }';
const servers: ServerProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

async function boot(args: readonly string[]): Promise<ServerProcess> {
  const server = await startWithSchema(schema, { args });
  servers.push(server);
  return server;
}

/** The request records for /graphql, once `count` of them are written (the destination is async). */
async function graphqlLines(server: ServerProcess, count: number): Promise<LogRecord[]> {
  await vi.waitFor(() => expect(findLogs(server.output(), 'request', { path: '/graphql' }).length).toBeGreaterThanOrEqual(count));
  await new Promise((resolve) => setTimeout(resolve, 100));
  return findLogs(server.output(), 'request', { path: '/graphql' });
}

describe('request line', () => {
  it('--log-requests all: one info record per request: method, path, operation name, status, duration, bytes, request id; never the variables', async () => {
    const server = await boot(['--log-requests', 'all']);
    const answer = await postGraphql(server.url, { query: 'query Find($code: String!) { getItem(code: $code) { name } }', operationName: 'Find', variables: { code: 'marker-7f3a' } });
    expect(answer.text).toBe('{"data":{"getItem":null}}');
    const [line, ...more] = await graphqlLines(server, 1);
    expect(more).toEqual([]);
    const { time, pid, ms, requestId, ...rest } = line ?? { level: '', msg: '' };
    expect(rest).toEqual({ level: 'info', method: 'POST', path: '/graphql', operation: 'Find', status: 200, bytes: answer.body.length, msg: 'request' });
    expect([typeof time, pid, typeof ms]).toEqual(['number', server.child.pid, 'number']);
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(requestId).toMatch(/^[0-9a-z]{6}-[0-9a-z]+$/);
    expect(server.output()).not.toContain('marker-7f3a');
    // An anonymous operation has no operation field; each request gets its own id.
    await postGraphql(server.url, { query: '{ queryItem { code } }' });
    const [first, second] = await graphqlLines(server, 2);
    expect(second).not.toHaveProperty('operation');
    expect(second?.['requestId']).not.toBe(first?.['requestId']);
  });

  it('--log-requests 3 writes one request in three; none writes none', async () => {
    const sampled = await boot(['--log-requests', '3', '--threads', '1']); // sampling counts per thread
    for (let i = 0; i < 7; i++) await postGraphql(sampled.url, { query: '{ queryItem { code } }' });
    expect(await graphqlLines(sampled, 2)).toHaveLength(2);
    const silent = await boot(['--log-requests', 'none']);
    for (let i = 0; i < 3; i++) await postGraphql(silent.url, { query: '{ queryItem { code } }' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(findLogs(silent.output(), 'request')).toEqual([]);
  });

  it('--slow-ms: a request at or over it is a warn record with path, operation name, duration and request id; none under it', async () => {
    const server = await boot(['--slow-ms', '1', '--log-requests', 'none']);
    // A schema upload parses, builds and persists: over a millisecond.
    await postGraphql(server.url, { query: 'query Slow { queryItem { code } }', operationName: 'Slow' }, { 'x-request-id': 'slow-1' });
    await vi.waitFor(() => expect(findLogs(server.output(), 'slow request', { path: '/admin/schema' })).toHaveLength(1));
    const { time: _time, pid: _pid, ms, requestId, ...rest } = findLogs(server.output(), 'slow request', { path: '/admin/schema' })[0] ?? { level: '', msg: '' };
    expect(rest).toEqual({ level: 'warn', path: '/admin/schema', msg: 'slow request' });
    expect(requestId).toMatch(/^[0-9a-z]{6}-[0-9a-z]+$/);
    expect(ms).toBeGreaterThanOrEqual(1);
    for (const slow of findLogs(server.output(), 'slow request', { path: '/graphql' })) expect([slow['operation'], Number(slow['ms']) >= 1, slow['requestId']]).toEqual(['Slow', true, 'slow-1']);
    const fast = await boot(['--slow-ms', '60000', '--log-requests', 'all']);
    await postGraphql(fast.url, { query: '{ queryItem { code } }' });
    await graphqlLines(fast, 1);
    expect(findLogs(fast.output(), 'slow request')).toEqual([]);
  });

  it('schema uploads are logged: success at info with the update counter, failure at warn with the error count only', async () => {
    const server = await boot(['--log-requests', 'none']);
    expect(await uploadSchema(server.url, 'type Broken { id: ID! other: Missing }')).toMatchObject({ errors: [{ extensions: { code: 'Error' } }] });
    await vi.waitFor(() => expect(findLogs(server.output(), 'schema update failed')).toHaveLength(1));
    const { time: _t, pid: _p, ...failed } = findLogs(server.output(), 'schema update failed')[0] ?? { level: '', msg: '' };
    expect(failed).toEqual({ level: 'warn', errors: 1, msg: 'schema update failed' });
    const { time: _t2, pid: _p2, ...updated } = findLogs(server.output(), 'schema updated')[0] ?? { level: '', msg: '' };
    expect(updated).toEqual({ level: 'info', counter: 1, by: 'anonymous', msg: 'schema updated' });
  });

  it('bad --log-requests and --slow-ms values are refused (exit 2)', async () => {
    expect((await runToExit({ rawArgs: ['--log-requests', 'some'] })).output).toBe(
      'error: --log-requests must be all, none or a whole number N (one request in N), got "some"\nRun with --help for the list of options.\n',
    );
    expect((await runToExit({ rawArgs: ['--slow-ms', 'soon'] })).output).toBe('error: --slow-ms must be an integer, got "soon"\nRun with --help for the list of options.\n');
  });
});
