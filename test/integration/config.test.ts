// Configuration: flag > SERVICE_* env > default; bad usage exits 2; the transport guard.

import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { header, postGraphql, send } from './helpers/http.js';
import { makeTempDir, nativeTransport, runToExit, spawnServer, startServer, type ServerProcess } from './helpers/server-process.js';
import { findLog, findLogs } from './helpers/log-records.js';

const started: ServerProcess[] = [];
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function boot(options: Parameters<typeof startServer>[0]): Promise<ServerProcess> {
  const server = await startServer(options);
  started.push(server);
  return server;
}

function tempDir(): string {
  const dir = makeTempDir('service-config-');
  dirs.push(dir);
  return dir;
}

/** The fields of the debug `configuration` line. */
function configuration(output: string): Record<string, string> {
  const { level: _level, time: _time, pid: _pid, msg: _msg, ...fields } = findLog(output, 'configuration', { level: 'debug' }) ?? { level: '', msg: '' };
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)]));
}

describe('precedence: flag > env > default', () => {
  it('defaults (no flags, no env except port/host): data dir ./snapshots under cwd, limits, log level', async () => {
    const cwd = tempDir();
    const server = await boot({ rawArgs: ['--log-level', 'debug'], env: { SERVICE_PORT: '0', SERVICE_HOST: '127.0.0.1' }, cwd });
    expect(server.transport).toBe(nativeTransport);
    expect(findLog(server.output(), /^listening on /)?.['data-dir']).toBe(join(cwd, 'snapshots'));
    expect(configuration(server.output())).toMatchObject({
      maxBodyBytes: '8388608',
      maxQueryTokens: '10000',
      maxQueryDepth: '200',
      anonymous: 'true',
      allowJsFallback: 'false',
      debug: 'false',
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('env applies when no flag is given', async () => {
    const fromEnv = tempDir();
    const server = await boot({
      rawArgs: ['--port', '0', '--host', '127.0.0.1'],
      env: { SERVICE_DATA_DIR: fromEnv, SERVICE_MAX_BODY_BYTES: '1000', SERVICE_LOG_LEVEL: 'debug', SERVICE_MAX_QUERY_DEPTH: '7' },
    });
    expect(server.transport).toBe(nativeTransport);
    expect(findLog(server.output(), /^listening on /)?.['data-dir']).toBe(fromEnv);
    expect(configuration(server.output())).toMatchObject({ maxBodyBytes: '1000', maxQueryDepth: '7' });
    const tooBig = await send(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(1001) });
    expect(tooBig.status).toBe(413);
  });

  it('flags win over env', async () => {
    const fromFlag = tempDir();
    const fromEnv = tempDir();
    const server = await boot({
      rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', fromFlag, '--max-body-bytes', '2000', '--log-level', 'debug', '--no-debug'],
      env: { SERVICE_DATA_DIR: fromEnv, SERVICE_MAX_BODY_BYTES: '1000', SERVICE_LOG_LEVEL: 'error', SERVICE_DEBUG: 'true', SERVICE_PORT: '1' },
    });
    expect(findLog(server.output(), /^listening on /)?.['data-dir']).toBe(fromFlag);
    expect(configuration(server.output())).toMatchObject({ maxBodyBytes: '2000', debug: 'false' });
    const fits = await send(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(1500) });
    expect(fits.status).toBe(400); // read (not 413), then refused as JSON
  });

  it('an admin key from the env turns anonymous access off unless --anonymous', async () => {
    const keyed = await boot({ env: { SERVICE_ADMIN_KEY: 'k1' } });
    expect((await postGraphql(keyed.url, { query: '{ __typename }' })).status).toBe(401);
    const open = await boot({ args: ['--anonymous'], env: { SERVICE_ADMIN_KEY: 'k1' } });
    expect((await postGraphql(open.url, { query: '{ __typename }' })).status).toBe(200);
  });

  it('the start-up line is one info line with URL, data dir and transport', async () => {
    const server = await boot({});
    const records = findLogs(server.output(), /^listening on /);
    expect(records).toHaveLength(1);
    const { time, pid, msg, ...fields } = records[0] ?? { level: '', msg: '' };
    expect(msg).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect([typeof time, pid]).toEqual(['number', server.child.pid]);
    expect(fields).toEqual({ level: 'info', 'data-dir': server.dataDir, transport: 'uWebSockets.js-native', threads: availableParallelism() });
  });
});

describe('log format', () => {
  it('--log-format pretty writes readable lines (no JSON) even into a pipe; SERVICE_LOG_FORMAT=json writes records', async () => {
    const pretty = spawnServer({ args: ['--log-format', 'pretty'] });
    try {
      await vi.waitFor(() => expect(pretty.output()).toContain('listening on'), { timeout: 15_000 });
      const line = pretty.output().split('\n').find((l) => l.includes('listening on')) ?? '';
      expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: listening on http:\/\/127\.0\.0\.1:\d+ \{"data-dir":"[^"]+","transport":"uWebSockets\.js-native","threads":\d+\}$/);
      expect(pretty.output()).not.toMatch(/^\{/m);
    } finally {
      pretty.child.kill('SIGTERM');
      await pretty.exited;
    }
    const json = await boot({ env: { SERVICE_LOG_FORMAT: 'json' } });
    expect(findLog(json.output(), /^listening on /)?.['transport']).toBe('uWebSockets.js-native');
  });
});

describe('bad usage exits 2 with a clear message', () => {
  const cases: [string, readonly string[], Record<string, string>][] = [
    ['unknown flag', ['--bogus'], {}],
    ['positional argument', ['extra'], {}],
    ['port not a number', ['--port', 'eighty'], {}],
    ['port out of range', ['--port', '70000'], {}],
    ['port from env out of range', [], { SERVICE_PORT: '-1' }],
    ['bad log level', ['--log-level', 'loud'], {}],
    ['bad log level from env', [], { SERVICE_LOG_LEVEL: 'verbose' }],
    ['max-body-bytes zero', ['--max-body-bytes', '0'], {}],
    ['max-query-depth not an integer', ['--max-query-depth', '1.5'], {}],
    ['missing flag value', ['--port'], {}],
    ['boolean env not a boolean', [], { SERVICE_ANONYMOUS: 'maybe' }],
    ['lambda url not a URL', ['--lambda-url', 'not a url'], {}],
    ['lambda url not http', ['--lambda-url', 'ftp://example.com/x'], {}],
    ['no anonymous and no key', ['--no-anonymous'], {}],
    ['value given to a boolean flag', ['--debug=yes'], {}],
  ];
  for (const [name, args, env] of cases) {
    it(name, async () => {
      const result = await runToExit({ rawArgs: args, env });
      expect(result.code, result.output).toBe(2);
      expect(result.output).toMatch(/^error: .+\nRun with --help for the list of options\.\n$/);
    });
  }

  it('an unknown --log-format names the choices', async () => {
    const result = await runToExit({ rawArgs: ['--log-format', 'xml'] });
    expect(result).toEqual({ code: 2, signal: null, output: 'error: --log-format must be one of json, pretty, got "xml"\nRun with --help for the list of options.\n' });
  });

  it('--help prints usage and exits 0', async () => {
    const result = await runToExit({ rawArgs: ['--help'] });
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/^Usage: /);
    for (const flag of ['--port', '--host', '--data-dir', '--admin-key', '--client-key', '--[no-]anonymous', '--max-body-bytes', '--max-query-tokens', '--max-query-depth', '--log-level', '--lambda-url', '--[no-]allow-js-fallback', '--[no-]debug']) {
      expect(result.output).toContain(flag);
    }
  });
});

describe('transport guard', () => {
  it('refuses to start on the uWebSockets.js JS shim (UWS_USE_FALLBACK=1)', async () => {
    const result = await runToExit({ env: { UWS_USE_FALLBACK: '1' } });
    expect(result.code).toBe(1); // a start-up failure (README: bad flags exit 2, a failed start 1)
    expect(result.output).toMatch(/native uWebSockets\.js binary did not load/);
    expect(result.output).toContain('--allow-js-fallback');
    expect(result.output).not.toContain('listening on');
  });

  it('starts on the shim with --allow-js-fallback, says so, and serves', async () => {
    const server = await boot({ args: ['--allow-js-fallback'], env: { UWS_USE_FALLBACK: '1' } });
    expect(server.transport).toBe('uWebSockets.js-js-fallback');
    expect(findLog(server.output(), 'running on the JS fallback of uWebSockets.js: performance will be degraded', { level: 'warn' })).toBeDefined();
    const answer = await postGraphql(server.url, { query: '{ __typename }' });
    expect(answer.json()).toEqual({ data: { __typename: 'Query' } });
    // The shim sets the headers of a pre-encoded header block one by one.
    expect(header(answer, 'content-type')).toBe('application/json');
    expect(header(answer, 'access-control-allow-origin')).toBe('*');
    expect(header(answer, 'access-control-allow-credentials')).toBe('true');
    const refused = await send(`${server.url}/graphql`, { method: 'PUT', body: '{}' });
    expect(refused.status).toBe(405);
    expect(header(refused, 'allow')).toBe('GET, POST, OPTIONS');
  });

  it('the normal start is on the native transport', async () => {
    const server = await boot({});
    expect(server.transport).toBe(nativeTransport);
  });
});
