// The README's way of running the service, as a user does: `npm start` serves quickly when nothing
// changed, and SIGTERM to the npm process stops the server gracefully with its snapshot written.
// `npm run export -- --help` prints help.

import { spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { afterAll, afterEach, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { makeTempDir, projectRoot } from './helpers/server-process.js';
import { findLog } from './helpers/log-records.js';

const dataDir = makeTempDir('service-npm-start-');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Run {
  readonly url: Promise<string>;
  readonly exit: Promise<number | null>;
  output(): string;
  signal(name: NodeJS.Signals): void;
  /** Kills npm and everything it started (its own process group), whatever state they are in. */
  killAll(): void;
}

const runs: Run[] = [];
afterEach(() => {
  for (const run of runs.splice(0)) run.killAll();
});

function npm(args: readonly string[]): Run {
  // Detached: npm leads a process group, so a failing test can kill the server it started too.
  const child = spawn('npm', args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let text = '';
  let found: (url: string) => void = () => undefined;
  const url = new Promise<string>((resolve) => (found = resolve));
  const read = (chunk: Buffer): void => {
    text += chunk.toString('utf8');
    const started = findLog(text, /^listening on http:\/\/\S+$/);
    if (started !== undefined) found(started.msg.slice('listening on '.length));
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const killAll = (): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  };
  const run: Run = { url, exit, output: () => text, signal: (name) => child.kill(name), killAll };
  runs.push(run);
  return run;
}

it('npm start with nothing to rebuild serves within 5 s; SIGTERM to npm stops it with a snapshot written', async () => {
  const started = performance.now();
  const run = npm(['start', '--', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir]);
  const url = await Promise.race([run.url, run.exit.then((code) => Promise.reject(new Error(`npm start exited ${code}:\n${run.output()}`)))]);
  expect(performance.now() - started).toBeLessThan(5_000);
  expect(await uploadSchema(url, 'type Note { id: ID! text: String }')).toEqual(uploadSucceeded);
  const added = await postGraphql(url, { query: 'mutation { addNote(input: [{ text: "kept" }]) { numUids } }' });
  expect(added.json()).toMatchObject({ data: { addNote: { numUids: 1 } } });

  run.signal('SIGTERM');
  expect(await run.exit).toBe(0);
  expect(findLog(run.output(), 'shutting down', { reason: 'SIGTERM' })).toBeDefined();
  expect(findLog(run.output(), 'snapshot written', { lsn: 2 })).toBeDefined();
  expect(findLog(run.output(), 'stopped', { level: 'info' })).toBeDefined();
  expect(readdirSync(dataDir).filter((name) => name.startsWith('snap-'))).toEqual(['snap-00000000000000000002.msgpack']);
  // Nothing listens any more: the server was not orphaned.
  await expect(postGraphql(url, { query: '{ __typename }' })).rejects.toThrow(/ECONNREFUSED/);
}, 60_000);

it('npm run export -- --help prints the help and exits 0', async () => {
  const run = npm(['run', '--silent', 'export', '--', '--help']);
  expect(await run.exit).toBe(0);
  expect(run.output()).toMatch(/^usage: npm run export -- <file\.ndjson> \[--data-dir <dir>\] \[--recover\]\n/);
  expect(run.output()).toMatch(/--data-dir <dir> {2}the data directory \(default: snapshots\)/);
}, 60_000);

it('npm run import with an unknown option exits 2 with the usage line', async () => {
  const run = npm(['run', '--silent', 'import', '--', 'data.ndjson', '--bogus']);
  expect(await run.exit).toBe(2);
  expect(run.output()).toMatch(/^error: Unknown option '--bogus'\..*\nusage: npm run import -- <file\.ndjson>/s);
}, 60_000);
