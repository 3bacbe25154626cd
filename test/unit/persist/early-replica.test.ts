// A replica thread started while its writer still opens the data directory (server/threads/): it loads the
// newest snapshot at once, waits for the snapshot the writer restored from (`seedBase`), then reads the log
// after it — so records the writer appended meanwhile are read too; another snapshot than the writer's is
// refused (`SeedBaseMismatch`: the thread starts over on what the writer restored).

import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SeedBaseMismatch, type Engine, type SnapshotIdentity } from '../../../engine/index.js';
import { addPeople, allPeople, gql, openEngine, schema, tempDir } from './engine-helpers.js';

const open: Engine[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const engine of open.splice(0)) await engine.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function engineAt(dataDir: string, extra: Parameters<typeof openEngine>[1] = {}): Promise<Engine> {
  const { engine } = await openEngine(dataDir, extra);
  open.push(engine);
  return engine;
}

/** A writer's directory: schema and 5 people, a clean stop (which snapshots), a restart (its restore base), 3 more people in the log. */
async function restartedWriter(): Promise<{ dir: string; writer: Engine }> {
  const dir = tempDir();
  dirs.push(dir);
  const first = await engineAt(dir);
  expect((await first.updateSchema(schema)).ok).toBe(true);
  await addPeople(first, ['a', 'b', 'c', 'd', 'e']);
  await first.close();
  open.splice(open.indexOf(first), 1);
  const writer = await engineAt(dir);
  expect(writer.restoredFrom?.lsn).toBe(writer.lsn);
  await addPeople(writer, ['f', 'g', 'h']);
  expect(writer.lsn).toBeGreaterThan(writer.restoredFrom?.lsn as number);
  return { dir, writer };
}

describe('a replica started before its writer opened the directory', () => {
  it('loads the snapshot, then (once the writer says which it restored from) the log after it, records appended meanwhile included', async () => {
    const { dir, writer } = await restartedWriter();
    let release: (base: SnapshotIdentity) => void = () => undefined;
    const base = new Promise<SnapshotIdentity>((resolve) => (release = resolve));
    let asked = false;
    const opening = engineAt('', { seedFrom: dir, seedBase: () => ((asked = true), base) });
    await expect.poll(() => asked).toBe(true);
    // Written after the replica loaded the snapshot and before it reads the log.
    await addPeople(writer, ['i']);
    release(writer.restoredFrom);
    const replica = await opening;
    expect([replica.lsn, replica.digest()]).toEqual([writer.lsn, writer.digest()]);
    expect((await allPeople(replica)).map((p) => p.name)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
  });

  it('refuses when the writer restored from another snapshot than the one it loaded', async () => {
    const { dir, writer } = await restartedWriter();
    const loadedLsn = writer.restoredFrom?.lsn;
    // A newer snapshot appears before the replica lists the directory; the writer restored from the older one.
    expect((await writer.snapshot()).ok).toBe(true);
    const newest = writer.lsn;
    const opening = engineAt('', { seedFrom: dir, seedBase: () => Promise.resolve({ lsn: loadedLsn as number, bodyCrc: writer.restoredFrom?.bodyCrc as number }) });
    await expect(opening).rejects.toThrow(SeedBaseMismatch);
    await expect(opening).rejects.toThrow(`loaded the snapshot at LSN ${newest}, the writer restored from the one at LSN ${loadedLsn}`);
    // A writer started with no snapshot at all, against a directory that has one.
    await expect(engineAt('', { seedFrom: dir, seedBase: () => Promise.resolve(null) })).rejects.toThrow(`loaded the snapshot at LSN ${newest}, the writer restored from the one at LSN none`);
    // Same LSN, another body (a directory seeded again): refused too.
    await expect(engineAt('', { seedFrom: dir, seedBase: () => Promise.resolve({ lsn: newest, bodyCrc: 12345 }) })).rejects.toThrow(SeedBaseMismatch);
    expect((await gql(writer, '{ aggregatePerson { count } }')).data).toEqual({ aggregatePerson: { count: 8 } });
  });
});
