// Shared pieces of the crash tests: a data dir that outlives server processes, a schema, and clients.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postGraphql, send } from '../integration/helpers/http.js';
import type { FaultRule } from '../../engine/testing.js';
import { faultsEntry, startServer, type ServerProcess, type StartOptions } from '../integration/helpers/server-process.js';

export const itemSchema = `
type Item {
  key: String! @id @search(by: [hash])
  n: Int @search
  label: String @search(by: [term])
  parts: [String]
  next: Item
}
`;

export function crashDir(): string {
  return mkdtempSync(join(tmpdir(), 'crash-'));
}

/** A `newDir()` for one test file: each data dir it makes is removed after the test that made it. */
export function dirsRemovedAfterEach(): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = crashDir();
    dirs.push(dir);
    return dir;
  };
}

/** The file names of a data dir, sorted. */
export const names = (dir: string): string[] => readdirSync(dir).sort();
/** `prefix0` … `prefix<n-1>`. */
export const keysFrom = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

export function startOn(dataDir: string, args: readonly string[] = [], env: StartOptions['env'] = {}): Promise<ServerProcess> {
  return startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...args], env });
}

/** The test-only entry with these file I/O faults injected (engine/persist/faulty-file-io.ts). */
export function startWithFaults(dataDir: string, args: readonly string[], faults: readonly FaultRule[]): Promise<ServerProcess> {
  return startServer({
    rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...args],
    env: { SERVICE_IO_FAULTS: JSON.stringify(faults) },
    entry: faultsEntry,
  });
}

export async function uploadSchema(server: ServerProcess, sdl = itemSchema): Promise<void> {
  const answer = await send(`${server.url}/admin/schema`, { method: 'POST', body: sdl });
  if (answer.status !== 200 || !answer.text.includes('Success')) throw new Error(`schema upload failed: ${answer.text}`);
}

/** The fields every item must carry, derived from its key (so a restored item can be checked whole). */
export function itemInput(key: string): { key: string; n: number; label: string; parts: string[] } {
  let h = 0;
  for (const ch of key) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return { key, n: h, label: `label of ${key}`, parts: [`${key}/1`, `${key}/2`] };
}

export async function addItems(url: string, keys: readonly string[]): Promise<boolean> {
  const answer = await postGraphql(url, {
    query: 'mutation ($input: [AddItemInput!]!) { addItem(input: $input) { numUids } }',
    variables: { input: keys.map(itemInput) },
  });
  const body = answer.json() as any;
  return answer.status === 200 && body.errors === undefined && body.data?.addItem?.numUids === keys.length;
}

export async function allItems(url: string): Promise<any[]> {
  const answer = await postGraphql(url, { query: '{ queryItem(first: 1000000) { key n label parts } }' });
  const body = answer.json() as any;
  if (body.errors !== undefined) throw new Error(JSON.stringify(body.errors));
  return body.data.queryItem as any[];
}

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
