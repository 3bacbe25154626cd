// Cluster mode at open (engine/persist/shared-tail.ts), against an in-memory shared log: the local log is
// checked from the snapshot's shared-log position on; records the shared log does not hold (the node
// died between its append and the proposal) are cut off the log files, across the files restarts left,
// before the restore; a snapshot holding records the shared log lacks refuses to start.

import { readdirSync, rmSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFileIo, RestoreError, type LocalTail, type SharedLog } from '../../../engine/index.js';
import { faultyFileIo } from '../../../engine/testing.js';
import { frameRecord, KIND_SCHEMA } from '../../../engine/persist/log-format.js';
import { readSnapshotFile } from '../../../engine/persist/snapshot-file.js';
import { addPeople, allPeople, openEngine, schema, tempDir } from './engine-helpers.js';

/** A shared log in memory: message n (from 1) is `messages[n - 1]`; every proposal is taken. */
class MemoryLog implements SharedLog {
  messages: Buffer[] = [];
  position = 0;
  /** The positions `agree` was asked to read from. */
  readonly readFrom: number[] = [];

  async agree(tail: LocalTail): Promise<void> {
    this.readFrom.push(tail.position);
    this.position = tail.position;
    for (let seq = tail.position + 1; seq <= this.messages.length; seq++) {
      if (!tail.offer(this.messages[seq - 1] as Buffer)) return;
      this.position = seq;
    }
  }

  async propose(frames: Buffer): Promise<'appended'> {
    this.messages.push(Buffer.from(frames));
    this.position = this.messages.length;
    return 'appended';
  }

  async caughtUp(): Promise<void> {}
  async sync(): Promise<void> {}
  async close(): Promise<void> {}

  /** Each `snapshotWritten` call: the position told, and the snapshot files there were then. */
  readonly written: { position: number; snapshots: string[] }[] = [];
  dir: string | undefined;
  snapshotWritten(position: number): void {
    if (this.dir !== undefined) this.written.push({ position, snapshots: readdirSync(this.dir).filter((name) => /^snap-\d+\.msgpack$/.test(name)) });
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const names = async (engine: Parameters<typeof allPeople>[0]): Promise<string[]> => (await allPeople(engine)).map((person) => person.name);

describe('the local log checked against the shared log at open', () => {
  it('records the shared log never took are cut off across the log files of several starts; the rest is restored', async () => {
    const dir = tempDir();
    dirs.push(dir);
    // Every snapshot fails: each start leaves a log file of its own and no snapshot (the failed one at close, an empty one).
    const io = faultyFileIo(nodeFileIo, [{ op: 'rename', path: 'snap-', times: 0 }]);
    const shared = new MemoryLog();
    let { engine } = await openEngine(dir, { sharedLog: shared }, io);
    await engine.updateSchema(schema);
    await addPeople(engine, ['ann']);
    await addPeople(engine, ['bob']);
    await engine.close();
    ({ engine } = await openEngine(dir, { sharedLog: shared }, io));
    await addPeople(engine, ['cy']);
    await addPeople(engine, ['dee']);
    await engine.close();
    ({ engine } = await openEngine(dir, { sharedLog: shared }, io));
    await addPeople(engine, ['eve']);
    await engine.close();
    expect(readdirSync(dir).filter((name) => name.startsWith('wal-')).map((name) => Number(name.slice(4, -4)))).toEqual([1, 4, 6, 7]);

    // The shared log took LSNs 1-4; another node's record holds LSN 5 there (dee's and eve's were never taken).
    shared.messages = shared.messages.slice(0, 4);
    shared.messages.push(frameRecord({ kind: KIND_SCHEMA, lsn: 5, sdl: schema }));
    const reopened = await openEngine(dir, { sharedLog: shared });
    expect(reopened.notes.warnings.filter((line) => line.includes('never took'))).toEqual([
      'cut off records of the local log that the shared log never took (a crash between the local append and the proposal: never acknowledged to anyone) {"lsns":"5-6","dropped":2}',
    ]);
    expect(shared.position).toBe(4);
    expect(reopened.engine.lsn).toBe(4);
    expect(await names(reopened.engine)).toEqual(['ann', 'bob', 'cy']);
    // What the apply loop does after the check: the shared log's record at LSN 5 goes in.
    expect((await reopened.engine.replicate(shared.messages[4] as Buffer)).ok).toBe(true);
    shared.position = 5;
    expect(reopened.engine.lsn).toBe(5);
    // wal-6 and wal-7 are gone, wal-4 ends after LSN 4; the log goes on in wal-5.
    expect(readdirSync(dir).filter((name) => name.startsWith('wal-')).map((name) => Number(name.slice(4, -4)))).toEqual([1, 4, 5]);
    await reopened.engine.close();

    // Now they agree: nothing is cut, and the snapshot written at close holds the position.
    const again = await openEngine(dir, { sharedLog: shared });
    expect(again.notes.warnings).toEqual([]);
    expect(shared.readFrom).toEqual([0, 0, 0, 0, 5]);
    expect(again.engine.lsn).toBe(5);
    expect(await names(again.engine)).toEqual(['ann', 'bob', 'cy']);
    await again.engine.close();
  });

  it('a snapshot records the shared-log position it holds; one holding records the shared log lacks refuses to start', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const shared = new MemoryLog();
    const { engine } = await openEngine(dir, { sharedLog: shared });
    await engine.updateSchema(schema);
    await addPeople(engine, ['ann']);
    expect(await engine.snapshot()).toMatchObject({ ok: true, lsn: 2 });
    await addPeople(engine, ['bob']);
    await engine.close();
    expect(readSnapshotFile(nodeFileIo, dir, 2).header.sharedLogPosition).toBe(2);
    expect(readSnapshotFile(nodeFileIo, dir, 3).header.sharedLogPosition).toBe(3);

    // A single node's snapshot (no position) on an empty shared log: it holds what the shared log does not.
    const alone = tempDir();
    dirs.push(alone);
    const single = await openEngine(alone);
    await single.engine.updateSchema(schema);
    await addPeople(single.engine, ['ann']);
    await single.engine.close();
    expect(readSnapshotFile(nodeFileIo, alone, 2).header.sharedLogPosition).toBeUndefined();
    await expect(openEngine(alone, { sharedLog: new MemoryLog() })).rejects.toThrow(
      new RestoreError(
        `the snapshot at LSN 2 in ${alone} holds records the shared log does not have (it agrees up to LSN 0): this data directory did not follow this shared log. Refusing to start; start this node on an empty data directory to join it.`,
      ),
    );
  });

  it('more records than one group of writes missing from the shared log is another log\'s history: refused, nothing cut', async () => {
    const dir = tempDir();
    dirs.push(dir);
    // No snapshot (they all fail): the log alone is checked, from the shared log's first message.
    const io = faultyFileIo(nodeFileIo, [{ op: 'rename', path: 'snap-', times: 0 }]);
    const { engine } = await openEngine(dir, { fsync: 'no', sharedLog: new MemoryLog() }, io);
    await engine.updateSchema(schema);
    // Requests read in one turn form groups; every mutation is a record of its own.
    await Promise.all(Array.from({ length: 520 }, (_, i) => addPeople(engine, [`p${i}`])));
    expect(engine.lsn).toBe(521);
    await engine.close();
    const files = (): string[] => readdirSync(dir).sort().map((name) => `${name} ${statSync(`${dir}/${name}`).size}`);
    const before = files();
    await expect(openEngine(dir, { sharedLog: new MemoryLog() })).rejects.toThrow(
      new RestoreError(
        `the log in ${dir} holds 521 records (LSNs 1-521) the shared log does not have: more than one group of writes (at most 512), so not a crash before a proposal; this data directory did not follow this shared log. Refusing to start; start this node on an empty data directory to join it.`,
      ),
    );
    expect(files()).toEqual(before);
  });

  it('the shared log is told each snapshot once it is renamed in, with the position it holds; a failed one is not told', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const shared = new MemoryLog();
    shared.dir = dir;
    const io = faultyFileIo(nodeFileIo, [{ op: 'rename', path: 'snap-', nth: 2 }]);
    const { engine } = await openEngine(dir, { sharedLog: shared }, io);
    await engine.updateSchema(schema);
    await addPeople(engine, ['ann']);
    expect(await engine.snapshot()).toMatchObject({ ok: true, lsn: 2 });
    expect(shared.written).toEqual([{ position: 2, snapshots: ['snap-00000000000000000002.msgpack'] }]);
    await addPeople(engine, ['bob']);
    expect((await engine.snapshot()).ok).toBe(false);
    expect(shared.written).toHaveLength(1);
    await engine.close();
    expect(shared.written.map((call) => call.position)).toEqual([2, 3]);
  });
});
