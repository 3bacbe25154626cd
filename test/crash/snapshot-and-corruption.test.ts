// Kill during a snapshot write (the previous snapshot plus the log restore everything; the leftover
// temporary file is never loaded), the admin snapshot endpoint, and damaged files met by the real server:
// refusal naming the file and offset (exit 1), or --recover with the loss logged.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { send } from '../integration/helpers/http.js';
import { runToExit } from '../integration/helpers/server-process.js';
import { addItems, allItems, dirsRemovedAfterEach, keysFrom, names, startOn, startWithFaults, uploadSchema } from './crash-helpers.js';

const newDir = dirsRemovedAfterEach();

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('snapshots', () => {
  it('SIGKILL during a snapshot write: the previous snapshot plus the log restore everything', async () => {
    const dir = newDir();
    const first = await startOn(dir, ['--fsync', 'always']);
    await uploadSchema(first);
    expect(await addItems(first.url, keysFrom('a', 50))).toBe(true);
    expect((await send(`${first.url}/admin/snapshot`, { method: 'POST' })).status).toBe(200);
    await first.stop(); // graceful: also snapshots (nothing new) and exits 0
    expect((await first.exited).code).toBe(0);

    // The next snapshot hangs in the fsync of its temporary file.
    const second = await startWithFaults(dir, ['--fsync', 'always'], [{ op: 'fsync', path: '.tmp', hang: true }]);
    expect(await addItems(second.url, keysFrom('b', 50))).toBe(true);
    void send(`${second.url}/admin/snapshot`, { method: 'POST' }).catch(() => undefined);
    await waitFor(() => names(dir).some((n) => n.endsWith('.tmp')));
    expect(await addItems(second.url, keysFrom('c', 20))).toBe(true); // writes go on meanwhile
    second.child.kill('SIGKILL');
    await second.exited;
    const tmp = names(dir).find((n) => n.endsWith('.tmp')) as string;
    writeFileSync(join(dir, tmp), readFileSync(join(dir, tmp)).subarray(0, 100)); // and half-written

    const third = await startOn(dir);
    try {
      const keys = (await allItems(third.url)).map((i) => i.key).sort();
      expect(keys).toEqual([...keysFrom('a', 50), ...keysFrom('b', 50), ...keysFrom('c', 20)].sort());
      expect(third.output()).toMatch(/leftover temporary file/);
      expect(existsSync(join(dir, tmp))).toBe(false);
    } finally {
      await third.stop();
    }
  });

  it('removing the log files a snapshot made obsolete never holds the other clients (a large log takes ~0.6 s per GB to free): a hung removal leaves reads and writes going', async () => {
    const dir = newDir();
    const server = await startWithFaults(dir, ['--fsync', 'always'], [{ op: 'unlink', path: 'wal-', hang: true }]);
    try {
      await uploadSchema(server);
      expect(await addItems(server.url, keysFrom('a', 20))).toBe(true);
      void send(`${server.url}/admin/snapshot`, { method: 'POST' }).catch(() => undefined); // waits for the removal: never answers
      await waitFor(() => names(dir).filter((n) => n.startsWith('snap-') && n.endsWith('.msgpack')).length === 1);
      expect(await addItems(server.url, keysFrom('b', 5))).toBe(true);
      expect((await allItems(server.url)).map((i) => i.key).sort()).toEqual([...keysFrom('a', 20), ...keysFrom('b', 5)].sort());
    } finally {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  });

  it('POST /admin/snapshot follows the admin key rules and cuts the log', async () => {
    const dir = newDir();
    const server = await startOn(dir, ['--admin-key', 'sekret', '--client-key', 'c']);
    try {
      const denied = await send(`${server.url}/admin/snapshot`, { method: 'POST' });
      expect(denied.status).toBe(401);
      const schema = await send(`${server.url}/admin/schema`, { method: 'POST', body: 'type T { id: ID! x: String }', headers: { 'x-auth-token': 'sekret' } });
      expect(schema.status).toBe(200);
      const ok = await send(`${server.url}/admin/snapshot`, { method: 'POST', headers: { 'x-auth-token': 'sekret' } });
      expect(ok.status).toBe(200);
      expect(ok.json()).toMatchObject({ data: { code: 'Success', lsn: 1 } });
      expect(names(dir)).toEqual(['snap-00000000000000000001.msgpack', 'wal-00000000000000000002.log']);
      // GET answers the file just written, as it is on disk; other methods are refused.
      const file = await send(`${server.url}/admin/snapshot`, { headers: { 'x-auth-token': 'sekret' } });
      expect([file.status, file.headers['x-snapshot-lsn']]).toEqual([200, '1']);
      expect(file.body.equals(readFileSync(join(dir, 'snap-00000000000000000001.msgpack')))).toBe(true);
      expect((await send(`${server.url}/admin/snapshot`, { method: 'PUT', headers: { 'x-auth-token': 'sekret' } })).status).toBe(400);
    } finally {
      await server.stop();
    }
  });
});

describe('damaged data directories', () => {
  async function prepared(): Promise<string> {
    const dir = newDir();
    const server = await startOn(dir, ['--snapshot-keep', '3']);
    await uploadSchema(server);
    expect(await addItems(server.url, keysFrom('x', 10))).toBe(true);
    expect((await send(`${server.url}/admin/snapshot`, { method: 'POST' })).status).toBe(200);
    expect(await addItems(server.url, keysFrom('y', 10))).toBe(true);
    await server.stop(); // snapshot on shutdown: two snapshots, the log back to the older one
    return dir;
  }

  it('a flipped byte inside the newest snapshot: exit 1 naming file and offset; --recover falls back', async () => {
    const dir = await prepared();
    const snaps = names(dir).filter((n) => n.endsWith('.msgpack'));
    expect(snaps.length).toBe(2);
    const newest = join(dir, snaps[1] as string);
    const bytes = readFileSync(newest);
    bytes[bytes.length - 5] = (bytes[bytes.length - 5] as number) ^ 0x10;
    writeFileSync(newest, bytes);
    const refused = await runToExit({ rawArgs: ['--port', '0', '--data-dir', dir] });
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(new RegExp(`snapshot ${newest} is damaged at offset \\d+: body checksum mismatch`));
    const recovered = await startOn(dir, ['--recover']);
    try {
      expect((await allItems(recovered.url)).length).toBe(20);
      expect(recovered.output()).toMatch(/falling back/);
    } finally {
      await recovered.stop();
    }
  });

  it('a flipped byte in the middle of the log: exit 1 naming file and offset; --recover truncates and says what was lost', async () => {
    const dir = newDir();
    const server = await startOn(dir, ['--fsync', 'always']);
    await uploadSchema(server);
    for (let i = 0; i < 5; i++) expect(await addItems(server.url, [`k${i}`])).toBe(true);
    server.child.kill('SIGKILL');
    await server.exited;
    const log = join(dir, names(dir).find((n) => n.startsWith('wal-')) as string);
    const bytes = readFileSync(log);
    let offset = 16;
    for (let r = 0; r < 3; r++) offset += 8 + bytes.readUInt32LE(offset); // the 4th record: k2
    bytes[offset + 9] = (bytes[offset + 9] as number) ^ 0x01;
    writeFileSync(log, bytes);
    const refused = await runToExit({ rawArgs: ['--port', '0', '--data-dir', dir] });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`mutation log ${log} is damaged at offset ${offset}: checksum mismatch`);
    const recovered = await startOn(dir, ['--recover']);
    try {
      expect((await allItems(recovered.url)).map((i) => i.key).sort()).toEqual(['k0', 'k1']);
      expect(recovered.output()).toMatch(/LOST/);
    } finally {
      await recovered.stop();
    }
  });
});
