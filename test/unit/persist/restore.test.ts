// Restore paths in-process: snapshot vs log replay give the same state (values of every kind round-trip
// exactly), schema changes survive, torn tails are dropped with a warning, damage refuses to start
// unless `recover`, leftover temporary files are never loaded.

import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addPeople, allPeople, gql, openEngine, schema, tempDir } from './engine-helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Seeds a data dir; `crash` abandons the engine instead of closing it (no shutdown snapshot). */
async function seeded(snapshot: boolean, crash = false): Promise<{ dir: string; people: any[] }> {
  const dir = tempDir();
  dirs.push(dir);
  const { engine } = await openEngine(dir, { snapshotEveryMutations: 0 });
  expect((await engine.updateSchema(schema)).ok).toBe(true);
  await addPeople(engine, ['ann', 'bob', 'cid']);
  await gql(engine, 'mutation { updatePerson(input: { filter: { name: { eq: "bob" } }, set: { friends: [{ name: "ann" }], big: "-9223372036854775808" } }) { numUids } }');
  await gql(engine, 'mutation { deletePerson(filter: { name: { eq: "cid" } }) { numUids } }');
  if (snapshot) expect((await engine.snapshot()).ok).toBe(true);
  await addPeople(engine, ['dan']);
  const people = await allPeople(engine);
  if (!crash) await engine.close();
  return { dir, people };
}

const files = (dir: string) => readdirSync(dir).sort();
const logs = (dir: string) => files(dir).filter((f) => f.startsWith('wal-'));
const snaps = (dir: string) => files(dir).filter((f) => f.startsWith('snap-') && f.endsWith('.msgpack'));

describe('restore', () => {
  it('log replay and snapshot load give the same state, values exact', async () => {
    const fromLog = await seeded(false, true);
    const fromSnap = await seeded(true);
    for (const { dir, people } of [fromLog, fromSnap]) {
      const { engine } = await openEngine(dir);
      expect(await allPeople(engine)).toEqual(people);
      await engine.close();
    }
    expect(fromLog.people.find((p) => p.name === 'bob')).toMatchObject({ friends: [{ name: 'ann' }] });
    const raw = await openEngine(fromSnap.dir);
    const answer = await raw.engine.execute({ method: 'POST', query: '{ getPerson(name: "bob") { big score vec home { longitude latitude } } }', headers: {} });
    expect(answer.body).toContain('"big":-9223372036854775808');
    expect(answer.body).toContain('"home":{"longitude":1.5,"latitude":-2.25}');
    await raw.engine.close();
  });

  it('schema changes survive restarts (the upload is logged)', async () => {
    const { dir } = await seeded(true);
    const first = await openEngine(dir);
    const next = `${schema}\ntype Pet { id: ID! nick: String @search(by: [exact]) }`;
    expect((await first.engine.updateSchema(next)).ok).toBe(true);
    await gql(first.engine, 'mutation { addPet(input: [{ nick: "rex" }]) { numUids } }');
    first.engine.close(); // not awaited: the log alone must carry the schema
    const second = await openEngine(dir);
    expect(second.engine.currentSchema()?.schema).toBe(next);
    expect((await gql(second.engine, '{ queryPet(filter: { nick: { eq: "rex" } }) { nick } }')).data).toEqual({ queryPet: [{ nick: 'rex' }] });
    await second.engine.close();
  });

  it('removes a newest log file left without its header by a crash during its creation', async () => {
    const { dir, people } = await seeded(false, true);
    const newest = logs(dir).at(-1) as string;
    const next = `wal-${String(Number(/\d+/.exec(newest)?.[0]) + 1000).padStart(20, '0')}.log`;
    writeFileSync(join(dir, next), Buffer.alloc(0)); // created, killed before its header was written
    const { engine, notes } = await openEngine(dir);
    expect(await allPeople(engine)).toEqual(people);
    expect(notes.warnings.join('\n')).toMatch(/header was cut short/);
    await engine.close();
  });

  it('drops a torn last record with a warning', async () => {
    const { dir, people } = await seeded(false, true);
    const log = join(dir, logs(dir).at(-1) as string);
    appendFileSync(log, Buffer.from([40, 0, 0, 0, 1, 2, 3])); // a length promising more than there is
    const { engine, notes } = await openEngine(dir);
    expect(await allPeople(engine)).toEqual(people);
    expect(notes.warnings.join('\n')).toMatch(/torn last record.*offset/);
    await engine.close();
  });

  it('a flipped byte in the middle of the log refuses to start, --recover truncates there', async () => {
    const { dir } = await seeded(false, true);
    const log = join(dir, logs(dir)[0] as string);
    const bytes = readFileSync(log);
    let third = 16;
    for (let r = 0; r < 2; r++) third += 8 + bytes.readUInt32LE(third);
    bytes[third + 12] = (bytes[third + 12] as number) ^ 0xff;
    writeFileSync(log, bytes);
    await expect(openEngine(dir)).rejects.toThrow(new RegExp(`mutation log ${log} is damaged at offset ${third}: checksum mismatch.*--recover`));
    const { engine, notes } = await openEngine(dir, { recover: true });
    expect(notes.warnings.join('\n')).toMatch(/LOST/);
    expect((await allPeople(engine)).map((p) => p.name)).toEqual(['ann', 'bob', 'cid']); // records 1-2 kept
    await engine.close();
  });

  for (const [name, damage, pattern] of [
    ['truncated', (b: Buffer) => b.subarray(0, b.length - 10), /truncated: 10 bytes of the body are missing/],
    ['flipped byte', (b: Buffer) => Buffer.from(b.map((x, i) => (i === b.length - 20 ? x ^ 1 : x))), /body checksum mismatch/],
    ['trailing garbage', (b: Buffer) => Buffer.concat([b, Buffer.from('garbage')]), /7 bytes of trailing garbage/],
  ] as const) {
    it(`a ${name} snapshot refuses to start; --recover falls back to the previous one plus the log`, async () => {
      const { dir, people } = await seeded(true);
      const again = await openEngine(dir);
      await addPeople(again.engine, ['eve']);
      expect((await again.engine.snapshot()).ok).toBe(true);
      const expected = await allPeople(again.engine);
      await again.engine.close();
      expect(people.length + 1).toBe(expected.length);
      const newest = join(dir, snaps(dir).at(-1) as string);
      writeFileSync(newest, damage(readFileSync(newest)));
      await expect(openEngine(dir)).rejects.toThrow(pattern);
      await expect(openEngine(dir)).rejects.toThrow(new RegExp(`snapshot ${newest} is damaged at offset \\d+`));
      const { engine, notes } = await openEngine(dir, { recover: true });
      expect(notes.warnings.join('\n')).toMatch(/falling back/);
      expect(await allPeople(engine)).toEqual(expected);
      await engine.close();
    });
  }

  it('never loads a leftover temporary snapshot', async () => {
    const { dir, people } = await seeded(true);
    writeFileSync(join(dir, 'snap-00000000000000000999.msgpack.tmp'), 'half a snapshot');
    const { engine, notes } = await openEngine(dir);
    expect(await allPeople(engine)).toEqual(people);
    expect(notes.warnings.join('\n')).toMatch(/leftover temporary file/);
    expect(files(dir).some((f) => f.endsWith('.tmp'))).toBe(false);
    await engine.close();
  });

  it('refuses to start empty when the log before the first file is gone', async () => {
    const { dir } = await seeded(true);
    for (const snap of snaps(dir)) rmSync(join(dir, snap));
    await expect(openEngine(dir)).rejects.toThrow(/Refusing to start empty|--recover/);
  });
});
