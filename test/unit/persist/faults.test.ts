// Write and fsync failures (ENOSPC, EIO) through the fault-injecting FileIo: the mutation fails with a
// clear error and no acknowledgement, memory is unchanged, reads keep working, the next mutation
// succeeds once the fault clears, and a restart sees exactly the acknowledged writes.

import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotFileName } from '../../../engine/persist/data-dir.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nodeFileIo } from '../../../engine/index.js';
import { faultyFileIo, snapshotEncoderTesting, type FaultRule } from '../../../engine/testing.js';
import { addPeople, allPeople, gql, openEngine, schema, tempDir } from './engine-helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setup(fsync: 'always' | 'everysec' = 'always', readWaitMs?: number) {
  const dir = tempDir();
  dirs.push(dir);
  const io = faultyFileIo(nodeFileIo, []);
  const { engine, notes } = await openEngine(dir, { fsync, ...(readWaitMs === undefined ? {} : { readWaitMs }) }, io);
  expect((await engine.updateSchema(schema)).ok).toBe(true);
  expect((await addPeople(engine, ['ann'])).errors).toBeUndefined();
  return { dir, io, engine, notes };
}

const cases: [string, FaultRule][] = [
  ['ENOSPC on append', { op: 'write', path: 'wal-', code: 'ENOSPC' }],
  ['EIO on append', { op: 'write', path: 'wal-', code: 'EIO' }],
  ['EIO on fsync', { op: 'fsync', path: 'wal-', code: 'EIO' }],
  ['ENOSPC on fsync', { op: 'fsync', path: 'wal-', code: 'ENOSPC' }],
];

describe('log write faults', () => {
  for (const [name, rule] of cases) {
    it(`${name}: fails the mutation, leaves memory unchanged, recovers once cleared`, async () => {
      const { dir, io, engine } = await setup();
      const before = await allPeople(engine);
      io.rules.push(rule);
      const failed = await gql(engine, 'mutation { addPerson(input: [{ name: "bob" }]) { numUids } updatePerson(input: { filter: { name: { eq: "ann" } }, set: { age: 99 } }) { numUids } }');
      expect(failed.data).toEqual({ addPerson: null, updatePerson: null });
      expect(failed.errors[0].message).toMatch(new RegExp(`could not be made durable \\(${rule.code}`));
      expect(failed.errors.map((e: any) => e.path)).toEqual([['addPerson'], ['updatePerson']]);
      expect(await allPeople(engine)).toEqual(before); // reads keep working; nothing of it applied
      io.rules.length = 0;
      expect((await addPeople(engine, ['cid'])).data.addPerson.numUids).toBe(1);
      await engine.close();
      const reopened = await openEngine(dir);
      expect((await allPeople(reopened.engine)).map((p) => p.name)).toEqual(['ann', 'cid']);
      const [ann] = await allPeople(reopened.engine);
      expect(ann.age).toBe(0);
      await reopened.engine.close();
    });
  }

  it('a read while a write is made durable does not see it: the fsync then fails and the write never was', async () => {
    const { engine, io } = await setup();
    const before = await allPeople(engine);
    io.rules.push({ op: 'fsync', path: 'wal-', code: 'EIO', delayMs: 300 });
    const write = gql(engine, 'mutation { addPerson(input: [{ name: "bob" }]) { numUids } }');
    await vi.waitFor(() => expect(io.injected).toBe(1), { interval: 2 });
    expect(await allPeople(engine)).toEqual(before);
    const failed = await write;
    expect(failed.errors[0].message).toMatch(/could not be made durable \(EIO/);
    expect(await allPeople(engine)).toEqual(before);
    await engine.close();
  });

  it('a read waits at most readWaitMs for a write being made durable, then fails saying so (a hung disk holds no reader for good)', async () => {
    const { engine, io } = await setup('always', 200);
    const before = await allPeople(engine);
    io.rules.push({ op: 'fsync', path: 'wal-', code: 'EIO', delayMs: 1500 });
    const write = gql(engine, 'mutation { addPerson(input: [{ name: "bob" }]) { numUids } }');
    await vi.waitFor(() => expect(io.injected).toBe(1), { interval: 2 });
    const started = performance.now();
    const refused = await gql(engine, '{ queryPerson { name } q2: queryPerson { name } }');
    expect(performance.now() - started).toBeLessThan(1000);
    const message =
      "Dgraph query failed because a write has waited 0.2 s to be made durable (the mutation log's fsync or the cluster log's answer); the query does not read writes that may still be rolled back: try again";
    expect(refused).toEqual({
      data: { queryPerson: null, q2: null },
      errors: [
        { message, path: ['queryPerson'] },
        { message, path: ['q2'] },
      ],
    });
    expect((await write).errors[0].message).toMatch(/could not be made durable \(EIO/);
    expect(await allPeople(engine)).toEqual(before);
    await engine.close();
  });

  it('a refused schema upload changes nothing and is not replayed', async () => {
    const { dir, io, engine } = await setup();
    io.rules.push({ op: 'write', path: 'wal-', code: 'ENOSPC' });
    const result = await engine.updateSchema(`${schema}\ntype Extra { id: ID! }`);
    expect(result.ok).toBe(false);
    expect(engine.currentSchema()?.schema).toBe(schema);
    io.rules.length = 0;
    await engine.close();
    const reopened = await openEngine(dir);
    expect(reopened.engine.currentSchema()?.schema).toBe(schema);
    await reopened.engine.close();
  });

  it('a failed snapshot write keeps the log, so nothing is lost', async () => {
    const { dir, io, engine } = await setup();
    io.rules.push({ op: 'rename', path: 'snap-', code: 'EIO' });
    expect((await engine.snapshot()).ok).toBe(false);
    io.rules.push({ op: 'fsync', path: '.tmp', code: 'ENOSPC', times: 0 });
    await engine.close(); // its snapshot fails too
    const reopened = await openEngine(dir);
    expect((await allPeople(reopened.engine)).map((p) => p.name)).toEqual(['ann']);
    await reopened.engine.close();
  });
});

describe('the snapshot encoder thread dies', () => {
  afterEach(() => {
    snapshotEncoderTesting.started = undefined;
  });

  it('fails that snapshot with a clear error, leaves no file, keeps the log; the next snapshot and a restart have everything', async () => {
    const { dir, engine, notes } = await setup();
    let killed = 0;
    snapshotEncoderTesting.started = (worker) => {
      killed++;
      void worker.terminate();
    };
    const failed = await engine.snapshot();
    expect(failed.ok).toBe(false);
    expect(failed.ok === false && failed.message).toMatch(/^snapshot failed: the snapshot encoder thread stopped \(exit code \d+\) before the snapshot was written$/);
    expect(killed).toBe(1);
    expect(readdirSync(dir).filter((name) => name.startsWith('snap-'))).toEqual([]);
    expect((await addPeople(engine, ['bob'])).errors).toBeUndefined(); // writes go on
    await engine.close(); // its snapshot dies too: the log alone has everything
    expect(killed).toBe(2);
    expect(notes.warnings.some((w) => w.startsWith('snapshot on shutdown failed; the log still holds everything') && w.includes('encoder thread stopped'))).toBe(true);
    snapshotEncoderTesting.started = undefined;
    const reopened = await openEngine(dir);
    expect((await allPeople(reopened.engine)).map((p) => p.name)).toEqual(['ann', 'bob']);
    const written = await reopened.engine.snapshot();
    expect(written.ok).toBe(true);
    await reopened.engine.close();
    const again = await openEngine(dir);
    expect(again.notes.infos.some((i) => i.includes('snapshot'))).toBe(true);
    expect((await allPeople(again.engine)).map((p) => p.name)).toEqual(['ann', 'bob']);
    await again.engine.close();
  });
});

describe('an I/O error in the snapshot encoder thread', () => {
  it('fails that snapshot with the error, keeps the log; a restart has everything', async () => {
    const { dir, engine, notes } = await setup();
    // The thread cannot create the .tmp where a directory stands.
    const tmp = join(dir, `${snapshotFileName(engine.lsn)}.tmp`);
    mkdirSync(tmp);
    const failed = await engine.snapshot();
    expect(failed).toEqual({ ok: false, message: `snapshot failed: EISDIR: illegal operation on a directory, open '${tmp}'` });
    expect(notes.warnings).toEqual([]);
    expect((await addPeople(engine, ['bob'])).errors).toBeUndefined();
    rmSync(tmp, { recursive: true });
    await engine.close();
    const reopened = await openEngine(dir);
    expect((await allPeople(reopened.engine)).map((p) => p.name)).toEqual(['ann', 'bob']);
    expect(readdirSync(dir).filter((name) => name.startsWith('snap-'))).toEqual([snapshotFileName(engine.lsn)]);
    await reopened.engine.close();
  });
});

describe('power loss (bytes never fsynced are dropped)', () => {
  it('fsync always: every acknowledged mutation survives', async () => {
    const { dir, io, engine } = await setup('always');
    const names = Array.from({ length: 40 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    const acks = await Promise.all(names.map((name) => addPeople(engine, [name])));
    for (const ack of acks) expect(ack.errors).toBeUndefined();
    io.powerLoss(); // no close: the process is gone
    const reopened = await openEngine(dir);
    expect((await allPeople(reopened.engine)).map((p) => p.name)).toEqual(['ann', ...names]);
    await reopened.engine.close();
  });
});
