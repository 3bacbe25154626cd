// Spawns the real, already built server (`node dist/server/main.js`) as a child process, waits for its
// start-up line and parses the URL and transport from it. The test command builds first; this builds nothing.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { uploadSchema, uploadSucceeded } from './http.js';
import { findLog, findLogs } from './log-records.js';

export const projectRoot = resolve(import.meta.dirname, '../../..');
/** `SERVICE_TEST_ENTRY` points the tests at another build of the entry point. */
export const serverEntry = process.env['SERVICE_TEST_ENTRY'] ?? join(projectRoot, 'dist/server/main.js');
/** The test-only entry that injects the file I/O faults of SERVICE_IO_FAULTS (server/testing/main-with-faults.ts). */
export const faultsEntry = join(projectRoot, 'dist/server/testing/main-with-faults.js');
export const nativeTransport = 'uWebSockets.js-native';

export interface StartOptions {
  /** Extra flags after `--port 0 --host 127.0.0.1 --data-dir <tmp>`. */
  readonly args?: readonly string[];
  /** Environment overrides; `undefined` removes a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Replace the default flags entirely. */
  readonly rawArgs?: readonly string[];
  readonly cwd?: string;
  readonly timeoutMs?: number;
  /** Another built entry point than `serverEntry` (e.g. `faultsEntry`). */
  readonly entry?: string;
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  readonly url: string;
  readonly transport: string;
  readonly dataDir: string;
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
  /** Everything printed so far (stdout + stderr). */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; removes the temporary data dir. */
  stop(graceMs?: number): Promise<Exit>;
}

const startMessage = /^listening on http:\/\/\S+$/;

/**
 * The start-up line's URL and transport, once it is there and every replica thread it announces serves
 * (`--threads`: they join in the background; a test's first figures, e.g. memory, must see them all).
 */
function startLine(output: string): [string, string] | undefined {
  const record = findLog(output, startMessage);
  if (record === undefined) return undefined;
  const replicas = Number(record['threads'] ?? 1) - 1;
  if (replicas > 0 && findLogs(output, 'replica thread serving').length < replicas) return undefined;
  return [record.msg.slice('listening on '.length), String(record['transport'])];
}

export function makeTempDir(prefix = 'service-it-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function spawnServer(options: StartOptions = {}): { child: ChildProcess; dataDir: string; output: () => string; exited: Promise<Exit> } {
  const dataDir = makeTempDir();
  const args = options.rawArgs ?? ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...(options.args ?? [])];
  const env: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('SERVICE_') && key !== 'SERVICE_TEST_ENTRY') delete env[key];
  delete env['UWS_USE_FALLBACK'];
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const child = spawn(process.execPath, [options.entry ?? serverEntry, ...args], { cwd: options.cwd ?? projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const exited = new Promise<Exit>((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));
  return { child, dataDir, output: () => text, exited };
}

/** Starts the server and resolves once it logged its start-up line. */
export async function startServer(options: StartOptions = {}): Promise<ServerProcess> {
  const { child, dataDir, output, exited } = spawnServer(options);
  const timeoutMs = options.timeoutMs ?? 20_000;
  const match = await new Promise<[string, string]>((resolveStart, reject) => {
    const timer = setTimeout(() => fail(new Error(`server did not start within ${timeoutMs} ms:\n${output()}`)), timeoutMs);
    const check = (): void => {
      const found = startLine(output());
      if (found !== undefined) finish(found);
    };
    const onExit = (code: number | null): void => fail(new Error(`server exited with ${code} before starting:\n${output()}`));
    const finish = (found: [string, string]): void => {
      cleanup();
      resolveStart(found);
    };
    const fail = (error: Error): void => {
      cleanup();
      child.kill('SIGKILL');
      reject(error);
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', onExit);
    check();
  });
  const [url, transport] = match;
  return {
    url,
    transport,
    dataDir,
    child,
    exited,
    output,
    async stop(graceMs = 5_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited.finally(() => clearTimeout(timer));
      }
      rmSync(dataDir, { recursive: true, force: true });
      return exited;
    },
  };
}

/** Runs the server expecting it to exit by itself (bad flags, --help, refused start). */
export async function runToExit(options: StartOptions = {}, timeoutMs = 15_000): Promise<Exit & { readonly output: string }> {
  const { child, dataDir, output, exited } = spawnServer(options);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exit = await exited.finally(() => clearTimeout(timer));
  rmSync(dataDir, { recursive: true, force: true });
  return { ...exit, output: output() };
}

/** Starts the server and deploys `schema`, which must upload cleanly. */
export async function startWithSchema(schema: string, options: StartOptions = {}): Promise<ServerProcess> {
  const server = await startServer(options);
  expect(await uploadSchema(server.url, schema)).toEqual(uploadSucceeded);
  return server;
}
