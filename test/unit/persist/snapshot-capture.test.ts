// A snapshot is captured at once (a copy) and encoded later, in slices, while the store goes on changing:
// the file must hold the state of the capture point exactly, and the body must be the msgpack that one
// encode of the whole state gives.

import { readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GraphStore, type StoreSnapshot } from '../../../engine/store/graph-store.js';
import { encodeSnapshot, readSnapshotFile, writeSnapshotFile } from '../../../engine/persist/snapshot-file.js';
import { SnapshotEncoder } from '../../../engine/persist/snapshot-encoder.js';
import { snapshotFileName } from '../../../engine/persist/data-dir.js';
import { nodeFileIo } from '../../../engine/persist/file-io.js';
import { encode, markNegativeZero } from '../../../engine/persist/msgpack-codec.js';
import { tempDir } from './engine-helpers.js';
import { unpackPostings } from '../../../engine/indexes/postings/stored-postings.js';
import type { IndexKindName } from '../../../engine/indexes/index-kind.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Every value of the store, by predicate and id (what a restore must reproduce). */
function state(store: GraphStore): unknown {
  const snap = store.exportSnapshot();
  const scalars = snap.scalars.map((c) => {
    const values: [number, unknown][] = [];
    store.scalar(c.predicate).forEach((v, id) => values.push([id, v]));
    return { predicate: c.predicate, indexKinds: c.indexKinds, values, postings: c.indexKinds.map((kind) => storedPostings(store, c.predicate, kind)) };
  });
  const types = Array.from({ length: snap.nextId - 1 }, (_, i) => (store.nodeExists(i + 1) ? store.typesOf(i + 1) : []));
  const edges = snap.edges.map((e) => {
    const pairs: [number, number][] = [];
    store.edges(e.predicate).forEach((from, to) => pairs.push([from, to]));
    expect([...e.from].map((from, k) => [from, e.to[k]])).toEqual(pairs); // the export walks the slots directly
    return { predicate: e.predicate, pairs };
  });
  return { nextId: snap.nextId, alive: [...snap.alive], types, scalars, edges };
}

/** A token index's postings as token → ids, sorted by token (undefined for an index that stores none). */
function storedPostings(store: GraphStore, predicate: string, kind: IndexKindName): [string, number[]][] | undefined {
  const stored = store.scalar(predicate).index(kind)?.storedPostings?.();
  if (stored === undefined) return undefined;
  const out: [string, number[]][] = [];
  unpackPostings(stored, (token, ids) => out.push([token, [...ids]]));
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Longer than one encoding chunk, every kind of value: Latin-1, UTF-16 and empty strings, -0 in a mixed column, lists, numbers, booleans, edges. */
function filled(n: number): GraphStore {
  const store = new GraphStore();
  const txn = store.begin();
  for (let i = 1; i <= n; i++) {
    const id = store.createNode();
    store.addType(id, i % 2 === 0 ? 'A' : 'B');
    store.scalar('name').set(id, i % 7 === 0 ? `ünïcödé ✓ ${i}` : i % 11 === 0 ? '' : `name ${i}`);
    store.scalar('mixed').set(id, i % 3 === 0 ? -0 : i % 3 === 1 ? ['x', `${i}`] : i);
    store.scalar('num').set(id, i * 1.5);
    store.scalar('flag').set(id, i % 2 === 0);
    if (i > 1) store.edges('next').add(id - 1, id);
    if (i % 5 === 0) for (let j = 1; j <= i % 9; j++) store.edges('many').add(id, j); // blocks of several sizes
  }
  txn.commit();
  store.scalar('name').ensureIndex('hash');
  for (const kind of ['fulltext', 'trigram'] as const) store.scalar('name').ensureIndex(kind); // stored postings (format 2)
  return store;
}

/** Changes every column of `store`: the capture taken before must not see any of it. */
function changeEverything(store: GraphStore): void {
  const txn = store.begin();
  for (let id = 1; id <= 300; id++) {
    store.scalar('name').set(id, `changed ${id} ✗`);
    store.scalar('mixed').set(id, 42);
    store.scalar('num').set(id, -1);
    store.scalar('flag').set(id, true);
  }
  for (let id = 301; id <= 600; id++) store.deleteNode(id);
  for (let i = 0; i < 5_000; i++) store.scalar('name').set(store.createNode(), `new ${i} ${'x'.repeat(200)}`); // enough to compact the arena
  store.edges('next').add(1, 5);
  txn.commit();
}

/** The body as one `encode` of the whole state (as snapshots were written before slicing). */
function encodedAtOnce(snap: StoreSnapshot): Buffer {
  const scalars = snap.scalars.map((col) => {
    const values = Array.isArray(col.values) ? col.values : col.values.slice(0, col.values.length);
    // The fields in the order files have always had them (format 2: the token indexes' postings last).
    return { predicate: col.predicate, indexKinds: col.indexKinds, repr: col.repr, flags: col.flags, nums: col.nums, ids: col.ids, values: col.repr === 3 ? values.map(markNegativeZero) : values, postings: col.postings };
  });
  const edges = snap.edges.map((col) => ({ predicate: col.predicate, from: col.from, to: col.to }));
  return encode({ schema: 'type A { x: Int }', store: { ...snap, scalars, edges }, persistedQueries: [['abc', '{ x }']], acl: null });
}

describe('snapshot capture', () => {
  it('the file holds the capture point, whatever is written before it is encoded, its body is one encode of it, and it restores exactly', async () => {
    const store = filled(5_000);
    const expected = state(store);
    const captured = store.exportSnapshot();
    const atOnce = encodedAtOnce(store.exportSnapshot());
    changeEverything(store); // as the writes that go on between the capture and the encoding's slices
    const parts = await encodeSnapshot({ lsn: 7, schema: 'type A { x: Int }', store: captured, persistedQueries: [['abc', '{ x }']], acl: null }, '2026-01-01T00:00:00.000Z');
    expect(Buffer.concat(parts.slice(1))).toEqual(atOnce);

    const dir = tempDir();
    dirs.push(dir);
    await writeSnapshotFile(nodeFileIo, dir, 7, parts);
    const { header, content } = readSnapshotFile(nodeFileIo, dir, 7);
    expect(header.nodes).toBe(5_000);
    const restored = new GraphStore();
    restored.importSnapshot(content.store);
    expect(state(restored)).toEqual(expected);
    expect(content.persistedQueries).toEqual([['abc', '{ x }']]);
    expect(Object.is((restored.scalar('mixed').get(3) as number), -0)).toBe(true);
  });

  it('a column shorter than one encoding chunk marks -0 as a long one does: inside its list values too', async () => {
    const store = new GraphStore();
    const txn = store.begin();
    for (const value of [-0, [-0, 1], ['x', -0], 2]) store.scalar('mixed').set(store.createNode(), value);
    txn.commit();
    const captured = store.exportSnapshot();
    const parts = await encodeSnapshot({ lsn: 1, schema: 'type A { x: Int }', store: captured, persistedQueries: [['abc', '{ x }']], acl: null }, '2026-01-01T00:00:00.000Z');
    expect(Buffer.concat(parts.slice(1))).toEqual(encodedAtOnce(captured));
    const dir = tempDir();
    dirs.push(dir);
    await writeSnapshotFile(nodeFileIo, dir, 1, parts);
    const restored = new GraphStore();
    restored.importSnapshot(readSnapshotFile(nodeFileIo, dir, 1).content.store);
    const mixed = restored.scalar('mixed');
    expect([mixed.get(1), mixed.get(2), mixed.get(3)].map((v) => (Array.isArray(v) ? v.map((x) => Object.is(x, -0)) : Object.is(v, -0)))).toEqual([true, [true, false], [false, true]]);
  });

  it('a string column is the msgpack one encode gives whatever the text: ASCII with quotes and controls, Latin-1, UTF-16, every header size', async () => {
    const texts = ['', 'plain', 'say "hi"\\', 'tab\there\n', 'café', 'naïve ü', '✓ wide', 'pair 😀', 'x'.repeat(31), 'x'.repeat(32), 'y'.repeat(255), 'y'.repeat(256), 'z'.repeat(65_535), 'z'.repeat(65_536), 'é'.repeat(20), 'é'.repeat(200)];
    const store = new GraphStore();
    const txn = store.begin();
    for (let i = 0; i < 2_500; i++) store.scalar('text').set(store.createNode(), i < texts.length ? (texts[i] as string) : `${texts[i % 10] as string} ${i}`);
    txn.commit();
    const captured = store.exportSnapshot();
    const parts = await encodeSnapshot({ lsn: 1, schema: 'type A { x: Int }', store: captured, persistedQueries: [['abc', '{ x }']], acl: null }, '2026-01-01T00:00:00.000Z');
    const body = Buffer.concat(parts.slice(1));
    const atOnce = encodedAtOnce(captured);
    // The offset of the first differing byte (a diff of the whole buffers would be unreadable): none.
    expect(body.findIndex((byte, i) => byte !== atOnce[i])).toBe(-1);
    expect(body.length).toBe(atOnce.length);
    const dir = tempDir();
    dirs.push(dir);
    await writeSnapshotFile(nodeFileIo, dir, 1, parts);
    const restored = new GraphStore();
    restored.importSnapshot(readSnapshotFile(nodeFileIo, dir, 1).content.store);
    expect(state(restored)).toEqual(state(store));
  });

  it('the encoder thread gives the bytes the event loop gives: strings, numbers, vectors and points (sent flat), geo shapes, lists, -0, edges', async () => {
    const store = filled(9_000); // more than two chunks of slots per streamed column
    const txn = store.begin();
    for (let id = 1; id <= 9_000; id++) {
      if (id % 4 !== 0) store.scalar('vec').set(id, Float32Array.from([id, -0, 0.1 * id, id % 3]));
      if (id % 3 !== 0) store.scalar('home').set(id, { type: 'Point', coordinates: [id / 7, -id / 11] } as never);
      // One polygon among points: that chunk goes as values, the others flat.
      store.scalar('area').set(id, id === 5_000 ? ({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] } as never) : ({ type: 'Point', coordinates: [-1, id] } as never));
    }
    txn.commit();
    const content = (snapshot: StoreSnapshot) => ({ lsn: 3, schema: 'type A { x: Int }', store: snapshot, persistedQueries: [['abc', '{ x }']] as [string, string][], acl: null });
    const onLoop = Buffer.concat(await encodeSnapshot(content(store.exportSnapshot()), '2026-01-01T00:00:00.000Z'));
    const expected = state(store);
    const encoder = new SnapshotEncoder();
    const captured = content(store.exportSnapshot(encoder.sink));
    // The capture's copies went to the thread as they were made: nothing of them is left here.
    expect([captured.store.alive.length, captured.store.typeSetOf.length, captured.store.scalars.find((c) => c.predicate === 'num')?.nums.length]).toEqual([0, 0, 0]);
    const dir = tempDir();
    dirs.push(dir);
    const writing = encoder.write(captured, '2026-01-01T00:00:00.000Z', dir);
    changeEverything(store); // while the thread encodes (and the plain-array columns are still being sent)
    expect(await writing).toBe(onLoop.length);
    const inThread = readFileSync(join(dir, `${snapshotFileName(3)}.tmp`));
    expect(inThread.length).toBe(onLoop.length);
    expect(inThread.findIndex((byte, i) => byte !== onLoop[i])).toBe(-1);
    renameSync(join(dir, `${snapshotFileName(3)}.tmp`), join(dir, snapshotFileName(3)));
    const restored = new GraphStore();
    restored.importSnapshot(readSnapshotFile(nodeFileIo, dir, 3).content.store);
    expect(state(restored)).toEqual(expected);
    expect(restored.scalar('vec').get(8)).toBeUndefined();
    expect(restored.scalar('vec').get(9)).toEqual(Float32Array.from([9, -0, 0.9, 0]));
  });

  it('a captured snapshot loads as it was, after the store changed', () => {
    const store = filled(3_000);
    const expected = state(store);
    const captured = store.exportSnapshot();
    changeEverything(store);
    const restored = new GraphStore();
    restored.importSnapshot(captured);
    expect(state(restored)).toEqual(expected);
  });

  it('a restore tells each scalar column once it and its indexes are in (a start logs them), in file order', () => {
    const store = filled(500);
    store.scalar('name').ensureIndex('term');
    const told: [string, readonly string[], number | undefined][] = [];
    const restored = new GraphStore();
    restored.importSnapshot(store.exportSnapshot(), (predicate, kinds) => told.push([predicate, kinds, restored.scalar(predicate).index('term')?.entryCount]));
    expect(told).toEqual([
      ['name', ['hash', 'fulltext', 'trigram', 'term'], store.scalar('name').index('term')?.entryCount],
      ['mixed', [], undefined],
      ['num', [], undefined],
      ['flag', [], undefined],
    ]);
    expect(told[0]?.[2]).toBeGreaterThan(500);
  });
});
