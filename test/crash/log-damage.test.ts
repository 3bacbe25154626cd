// Log damage that looks like a crash but is not: a flipped byte in the length of a record in the middle
// of the log, and a log that no longer reaches back to its snapshot. The real server must refuse to start
// (exit 1, naming file and offset) and leave the files alone; --recover keeps a `.corrupt` copy and says
// what was lost. A real torn tail (a kill mid-write) is still dropped.

import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { send } from '../integration/helpers/http.js';
import { runToExit } from '../integration/helpers/server-process.js';
import { addItems, allItems, dirsRemovedAfterEach, keysFrom, names, startOn, uploadSchema } from './crash-helpers.js';

const newDir = dirsRemovedAfterEach();
const pad = (n: number) => String(n).padStart(20, '0');

/** Offset of record `index` (0 = the first after the file header). */
function recordOffset(bytes: Buffer, index: number): number {
  let offset = 16;
  for (let r = 0; r < index; r++) offset += 8 + bytes.readUInt32LE(offset);
  return offset;
}

/** Schema + 50 one-item mutations (fsync always), then SIGKILL: 51 acknowledged records in one log file. */
async function killedAfter50(): Promise<{ dir: string; log: string }> {
  const dir = newDir();
  const server = await startOn(dir, ['--fsync', 'always', '--snapshot-every', '0', '--snapshot-interval', '0']);
  await uploadSchema(server);
  for (let i = 0; i < 50; i++) expect(await addItems(server.url, [`k${i}`])).toBe(true);
  server.child.kill('SIGKILL');
  await server.exited;
  return { dir, log: join(dir, names(dir).find((n) => n.startsWith('wal-')) as string) };
}

describe('a damaged record length in the middle of the log', () => {
  for (const [what, byte, mask] of [
    ['high byte flipped (the length runs past the end)', 3, 0x01],
    ['low byte flipped (the length ends inside the next record)', 0, 0x40],
  ] as const) {
    it(`${what}: exit 1 naming file and offset, file untouched; --recover keeps a copy and says what was lost`, async () => {
      const { dir, log } = await killedAfter50();
      const bytes = readFileSync(log);
      const offset = recordOffset(bytes, 3); // schema, k0, k1, then k2: 48 acknowledged records after it
      bytes[offset + byte] = (bytes[offset + byte] as number) ^ mask;
      writeFileSync(log, bytes);

      const refused = await runToExit({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir] });
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`mutation log ${log} is damaged at offset ${offset}: `);
      expect(refused.output).toContain('Refusing to start. Start with --recover');
      expect(readFileSync(log).equals(bytes)).toBe(true); // not truncated in place
      expect(names(dir).some((n) => n.endsWith('.corrupt'))).toBe(false);

      const recovered = await startOn(dir, ['--recover']);
      try {
        expect((await allItems(recovered.url)).map((i) => i.key).sort()).toEqual(['k0', 'k1']);
        expect(recovered.output()).toMatch(/--recover: truncated the log there\. LOST: \d+ bytes/);
        expect(readFileSync(`${log}.corrupt`).equals(bytes)).toBe(true);
      } finally {
        await recovered.stop();
      }
    });
  }

  it('a torn last record (the file ends inside it) is still dropped with a warning', async () => {
    const { dir, log } = await killedAfter50();
    const bytes = readFileSync(log);
    const last = recordOffset(bytes, 50);
    writeFileSync(log, bytes.subarray(0, last + 8 + 3)); // a write cut short inside the last record
    const server = await startOn(dir);
    try {
      expect((await allItems(server.url)).length).toBe(49);
      expect(server.output()).toMatch(/dropping a torn last record/);
    } finally {
      await server.stop();
    }
  });
});

describe('a log that does not reach back to its snapshot', () => {
  async function snapshotThenKilled(): Promise<{ dir: string; snapLsn: number }> {
    const dir = newDir();
    const server = await startOn(dir, ['--fsync', 'always', '--snapshot-every', '0', '--snapshot-interval', '0']);
    await uploadSchema(server);
    expect(await addItems(server.url, keysFrom('a', 5))).toBe(true);
    const snap = await send(`${server.url}/admin/snapshot`, { method: 'POST' });
    expect(snap.status).toBe(200);
    for (let i = 0; i < 5; i++) expect(await addItems(server.url, [`b${i}`])).toBe(true);
    server.child.kill('SIGKILL');
    await server.exited;
    return { dir, snapLsn: (snap.json() as { data: { lsn: number } }).data.lsn };
  }

  it('the log file after the snapshot is missing: exit 1 saying so; --recover starts from the snapshot and says so', async () => {
    const { dir, snapLsn } = await snapshotThenKilled();
    expect(names(dir)).toEqual([`snap-${pad(snapLsn)}.msgpack`, `wal-${pad(snapLsn + 1)}.log`]);
    const missing = join(dir, `wal-${pad(snapLsn + 1)}.log`);
    unlinkSync(missing);
    const refused = await runToExit({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir] });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(
      `mutation log ${missing} is missing: snapshot ${join(dir, `snap-${pad(snapLsn)}.msgpack`)} expects the log to go on from LSN ${snapLsn + 1} there. Refusing to start.`,
    );
    const recovered = await startOn(dir, ['--recover']);
    try {
      expect((await allItems(recovered.url)).map((i) => i.key).sort()).toEqual(keysFrom('a', 5));
      expect(recovered.output()).toMatch(/--recover: starting from the snapshot at LSN \d+; LOST: anything logged after it/);
    } finally {
      await recovered.stop();
    }
  });

  it('a gap between log files: exit 1 naming the missing LSNs; --recover stops the replay there', async () => {
    const { dir, snapLsn } = await snapshotThenKilled();
    const log = join(dir, `wal-${pad(snapLsn + 1)}.log`);
    const later = join(dir, `wal-${pad(snapLsn + 5)}.log`);
    // The log keeps LSNs snapLsn+1 and +2; a later (empty) file says the writer had reached snapLsn+5.
    const bytes = readFileSync(log);
    writeFileSync(log, bytes.subarray(0, recordOffset(bytes, 2)));
    const header = Buffer.from(bytes.subarray(0, 16));
    header.writeBigUInt64LE(BigInt(snapLsn + 5), 8);
    writeFileSync(later, header);
    const refused = await runToExit({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir] });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(
      `mutation log ${later} starts at LSN ${snapLsn + 5} but the log before it ends at LSN ${snapLsn + 2}: LSNs ${snapLsn + 3}-${snapLsn + 4} are missing. Refusing to start.`,
    );
    const recovered = await startOn(dir, ['--recover']);
    try {
      expect((await allItems(recovered.url)).map((i) => i.key).sort()).toEqual([...keysFrom('a', 5), 'b0', 'b1']);
      expect(recovered.output()).toMatch(/LOST/);
      expect(existsSync(`${later}.corrupt`)).toBe(true);
    } finally {
      await recovered.stop();
    }
  });
});
