// Data files hold the schema (and its secrets) and every value: the data directory is created 0700 and
// every file in it 0600 — logs, snapshots, their `.tmp`, `.corrupt` copies — and so are export files.
// Checked on disk, against the real server process and the export CLI, under the usual umask 022.

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { send } from '../integration/helpers/http.js';
import { projectRoot } from '../integration/helpers/server-process.js';
import { addItems, crashDir, startOn, startWithFaults, uploadSchema } from './crash-helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const modes = (dir: string) => Object.fromEntries(readdirSync(dir).sort().map((name) => [name, mode(join(dir, name))]));

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('file modes', () => {
  it('data dir 0700; log, snapshot, .tmp, .corrupt and export files 0600', async () => {
    const root = crashDir();
    dirs.push(root);
    const dir = join(root, 'data', 'nested'); // created by the server
    // The snapshot hangs in the fsync of its temporary file, so the .tmp can be looked at.
    const server = await startWithFaults(dir, ['--fsync', 'always'], [{ op: 'fsync', path: '.tmp', hang: true, nth: 2 }]);
    await uploadSchema(server);
    for (let i = 0; i < 4; i++) expect(await addItems(server.url, [`k${i}`])).toBe(true);
    expect((await send(`${server.url}/admin/snapshot`, { method: 'POST' })).status).toBe(200);
    for (let i = 4; i < 7; i++) expect(await addItems(server.url, [`k${i}`])).toBe(true);
    void send(`${server.url}/admin/snapshot`, { method: 'POST' }).catch(() => undefined);
    await waitFor(() => readdirSync(dir).some((n) => n.endsWith('.tmp')));
    expect(mode(dir)).toBe('700');
    expect(mode(join(root, 'data'))).toBe('700');
    expect(Object.values(modes(dir))).toEqual(['600', '600', '600', '600']); // snap, snap.tmp, two logs
    server.child.kill('SIGKILL');
    await server.exited;

    // A flipped byte in the first record after the snapshot, met with --recover: the .corrupt copy is 0600 too.
    const log = join(dir, readdirSync(dir).find((n) => n.startsWith('wal-')) as string);
    const bytes = readFileSync(log);
    bytes[16 + 12] = (bytes[16 + 12] as number) ^ 0x01;
    writeFileSync(log, bytes);
    const recovered = await startOn(dir, ['--recover']);
    await recovered.stop();
    expect(readdirSync(dir).filter((n) => n.endsWith('.corrupt')).length).toBe(2); // the copy and the later file
    for (const name of readdirSync(dir)) expect([name, mode(join(dir, name))]).toEqual([name, '600']);

    const file = join(root, 'out.ndjson');
    const out = spawnSync(process.execPath, [join(projectRoot, 'dist/server/cli/export.js'), file, '--data-dir', dir], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    expect(mode(file)).toBe('600');
  });
});
