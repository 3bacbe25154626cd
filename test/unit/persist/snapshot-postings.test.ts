// Snapshot format 2 stores the token indexes' postings and a restore loads them instead of tokenising the
// values again: a store loaded from a written file must answer every term / fulltext / ngram / regexp
// query as the same store rebuilt from its values (format 1's path), hold the same postings, and take
// later writes the same way (the loaded lists' forms, flexsearch's register).

import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GraphStore, type StoreSnapshot } from '../../../engine/store/graph-store.js';
import { encodeSnapshot, readSnapshotFile, readSnapshotHeader, snapshotHead, writeSnapshotFile } from '../../../engine/persist/snapshot-file.js';
import { decode, encode } from '../../../engine/persist/msgpack-codec.js';
import { checksum } from '../../../engine/persist/checksum.js';
import type { Engine } from '../../../engine/index.js';
import { nodeFileIo } from '../../../engine/persist/file-io.js';
import { TOKENS_MADE_BY, unpackPostings } from '../../../engine/indexes/postings/stored-postings.js';
import type { TokenIndex } from '../../../engine/indexes/token-index.js';
import type { TrigramIndex } from '../../../engine/indexes/trigram-index.js';
import type { NgramIndex } from '../../../engine/indexes/ngram-index.js';
import type { IndexKindName } from '../../../engine/indexes/index-kind.js';
import { gql, openEngine as openPlainEngine, tempDir } from './engine-helpers.js';

/** A data directory written by the build before format 2 (2d1d868): DOC_SCHEMA below, documents d1-d3, a snapshot at LSN 2. */
const V1_FIXTURE = new URL('../../fixtures/snapshot-v1/', import.meta.url).pathname;

/** These engines write their snapshots with stored postings (`--snapshot-postings`; off by default). */
const openEngine = (dir: string, extra: Parameters<typeof openPlainEngine>[1] = {}): ReturnType<typeof openPlainEngine> => openPlainEngine(dir, { snapshotPostings: true, ...extra });

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A seeded generator (mulberry32): the same data set every run, so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Latin-1, other BMP text, astral characters (a trigram splits their surrogate pairs), stop words, stems.
const WORDS = ['alpha', 'beta', 'Gamma', 'the', 'running', 'runs', 'café', 'naïve', 'Straße', 'İstanbul', '東京', 'ß', '😀', 'a😀b', 'x', '12', 'foo_bar', 'and'];
const COLUMNS: readonly (readonly [string, readonly IndexKindName[], boolean])[] = [
  ['title', ['term', 'fulltext'], false],
  ['summary', ['ngram'], false],
  ['code', ['trigram', 'term'], false],
  ['tags', ['term', 'trigram', 'fulltext', 'ngram'], true], // a list: one document per node
];

function text(next: () => number): string {
  const n = 1 + Math.floor(next() * 6);
  return Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]).join(next() < 0.2 ? '-' : ' ');
}

function value(next: () => number, list: boolean): string | string[] {
  return list ? Array.from({ length: 1 + Math.floor(next() * 3) }, () => text(next)) : text(next);
}

/** Nodes written, rewritten and deleted (so flexsearch holds gone ids and emptied arrays), indexes made first and after. */
function filled(seed: number, nodes: number): GraphStore {
  const next = random(seed);
  const store = new GraphStore();
  for (const [predicate, kinds] of COLUMNS) store.scalar(predicate).ensureIndex(kinds[0] as IndexKindName);
  const txn = store.begin();
  for (let i = 0; i < nodes; i++) {
    const id = store.createNode();
    store.addType(id, 'Doc');
    for (const [predicate, , list] of COLUMNS) if (next() < 0.85) store.scalar(predicate).set(id, value(next, list));
  }
  for (let i = 0; i < nodes / 3; i++) {
    const id = 1 + Math.floor(next() * nodes);
    if (!store.nodeExists(id)) continue;
    if (next() < 0.3) store.deleteNode(id);
    else for (const [predicate, , list] of COLUMNS) if (next() < 0.5) store.scalar(predicate).set(id, value(next, list));
      else if (next() < 0.2) store.scalar(predicate).delete(id);
  }
  txn.commit();
  for (const [predicate, kinds] of COLUMNS) for (const kind of kinds) store.scalar(predicate).ensureIndex(kind);
  return store;
}

async function roundTrip(store: GraphStore): Promise<StoreSnapshot> {
  const dir = tempDir();
  dirs.push(dir);
  const parts = await encodeSnapshot({ lsn: 7, schema: null, store: store.exportSnapshot(undefined, true), persistedQueries: [], acl: null }, new Date().toISOString());
  await writeSnapshotFile(nodeFileIo, dir, 7, parts);
  return readSnapshotFile(nodeFileIo, dir, 7).content.store;
}

function imported(snapshot: StoreSnapshot): GraphStore {
  const store = new GraphStore();
  store.importSnapshot(snapshot);
  return store;
}

/** Format 1's restore: the same file without postings, every index back-filled from the values. */
const withoutPostings = (snapshot: StoreSnapshot): StoreSnapshot => ({ ...snapshot, scalars: snapshot.scalars.map(({ postings: _, ...col }) => col) });

/** Token → ids, sorted by token (the map's order is not part of an index's answers). */
function postingsOf(store: GraphStore, predicate: string, kind: IndexKindName): [string, number[]][] {
  const index = store.scalar(predicate).index(kind) as TokenIndex<unknown>;
  const out: [string, number[]][] = [];
  unpackPostings(index.storedPostings(), (token, ids) => out.push([token, [...ids]]));
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Every query kind on every index, for query texts drawn like the values (and every word alone). */
function answers(store: GraphStore, seed: number): unknown[] {
  const next = random(seed);
  const queries = [...WORDS, ...Array.from({ length: 40 }, () => text(next))];
  const patterns = ['/alp/', '/a.*a/', '/😀/', '/^Ga/i', '/东|東京/', '/\\d\\d/', '/stra/i', '/ß/'];
  const out: unknown[] = [];
  for (const [predicate, kinds] of COLUMNS) {
    const column = store.scalar(predicate);
    for (const kind of kinds) {
      const index = column.index(kind) as TokenIndex<unknown>;
      out.push([predicate, kind, index.entryCount, index.tokenCount]);
      for (const q of queries) out.push([q, index.allOf(q), index.anyOf(q), index.estimateAllOf(q), index.members(q).map((m) => m.size)]);
      if (kind === 'ngram') for (const q of queries) out.push((index as NgramIndex).ngram(q));
      if (kind === 'trigram') for (const p of patterns) out.push((index as TrigramIndex).regexp(p.slice(1, p.lastIndexOf('/')), p.endsWith('/i') ? 'i' : ''));
    }
  }
  return out;
}

function rewrite(store: GraphStore, seed: number, nodes: number): void {
  const next = random(seed);
  const txn = store.begin();
  for (let i = 0; i < nodes / 2; i++) {
    const id = 1 + Math.floor(next() * nodes);
    if (!store.nodeExists(id)) continue;
    if (next() < 0.2) store.deleteNode(id);
    else for (const [predicate, , list] of COLUMNS) if (next() < 0.6) store.scalar(predicate).set(id, value(next, list));
  }
  for (let i = 0; i < 20; i++) store.scalar('tags').set(store.createNode(), value(next, true));
  txn.commit();
}

describe('snapshot format 2: stored token postings', () => {
  for (const seed of [1, 2, 3]) {
    it(`a store loaded from the file answers as one rebuilt from its values, before and after more writes (seed ${seed})`, async () => {
      const nodes = 400;
      const original = filled(seed, nodes);
      const file = await roundTrip(original);
      const kinds = file.scalars.map((c) => [c.predicate, (c.postings ?? []).map((p) => p.kind)]);
      expect(kinds).toEqual(COLUMNS.map(([p, k]) => [p, [...k]])); // every token index stored its postings
      const loaded = imported(file);
      const rebuilt = imported(withoutPostings(file));
      for (const [predicate, indexKinds] of COLUMNS) {
        for (const kind of indexKinds) {
          const expected = postingsOf(rebuilt, predicate, kind);
          expect(expected.length).toBeGreaterThan(0);
          expect(postingsOf(loaded, predicate, kind)).toEqual(expected);
          expect(postingsOf(original, predicate, kind)).toEqual(expected);
        }
      }
      expect(answers(loaded, seed)).toEqual(answers(rebuilt, seed));
      for (const store of [loaded, rebuilt]) rewrite(store, seed + 100, nodes);
      expect(answers(loaded, seed + 1)).toEqual(answers(rebuilt, seed + 1));
      // And once more through a file: what the loaded store holds after those writes is stored as well.
      expect(answers(imported(await roundTrip(loaded)), seed + 2)).toEqual(answers(rebuilt, seed + 2));
    });
  }

  it('the index is what the file says (loaded, not rebuilt: a changed posting shows)', async () => {
    const store = new GraphStore();
    const txn = store.begin();
    for (const title of ['alpha beta', 'beta', 'gamma']) store.scalar('title').set(store.createNode(), title);
    txn.commit();
    store.scalar('title').ensureIndex('term');
    const file = await roundTrip(store);
    const stored = file.scalars[0]?.postings?.[0];
    if (stored === undefined) throw new Error('no stored postings');
    const tokens: string[] = [];
    unpackPostings(stored, (token) => tokens.push(token));
    expect(tokens).toEqual(['alpha', 'beta', 'gamma']);
    stored.ids[0] = 3; // alpha → node 3 instead of node 1
    expect((imported(file).scalar('title').index('term') as TokenIndex<unknown>).allOf('alpha')).toEqual([3]);
    expect((imported(withoutPostings(file)).scalar('title').index('term') as TokenIndex<unknown>).allOf('alpha')).toEqual([1]);
  });

  it('postings made by other tokenizers (another build\'s, another Unicode version) are rebuilt from the values, not loaded', async () => {
    const store = new GraphStore();
    const txn = store.begin();
    for (const title of ['alpha beta', 'beta', 'gamma']) store.scalar('title').set(store.createNode(), title);
    txn.commit();
    store.scalar('title').ensureIndex('term');
    const file = await roundTrip(store);
    const stored = file.scalars[0]?.postings?.[0];
    if (stored === undefined) throw new Error('no stored postings');
    expect(stored.madeBy).toBe(TOKENS_MADE_BY);
    stored.ids[0] = 3; // alpha → node 3: shows only if loaded
    const other = { ...file, scalars: file.scalars.map((col) => ({ ...col, postings: (col.postings ?? []).map((p) => ({ ...p, madeBy: 'tokenizers 0, unicode 1.0' })) })) };
    expect((imported(other).scalar('title').index('term') as TokenIndex<unknown>).allOf('alpha')).toEqual([1]);
  });

  it('without --snapshot-postings a snapshot stores none, and restores as format 1 did (indexes rebuilt)', async () => {
    const store = new GraphStore();
    const txn = store.begin();
    for (const title of ['alpha beta', 'beta']) store.scalar('title').set(store.createNode(), title);
    txn.commit();
    store.scalar('title').ensureIndex('term');
    const parts = await encodeSnapshot({ lsn: 7, schema: null, store: store.exportSnapshot(), persistedQueries: [], acl: null }, new Date().toISOString());
    const dir = tempDir();
    dirs.push(dir);
    await writeSnapshotFile(nodeFileIo, dir, 7, parts);
    const file = readSnapshotFile(nodeFileIo, dir, 7).content.store;
    expect(file.scalars[0]?.postings).toEqual([]);
    expect((imported(file).scalar('title').index('term') as TokenIndex<unknown>).allOf('beta')).toEqual([1, 2]);
  });
});

// The engine's own path: snapshots encoded by the encoder thread, restores through Engine.open.
const DOC_SCHEMA = `type Doc {
  key: String! @id
  title: String @search(by: [term, fulltext])
  summary: String @search(by: [ngram])
  code: String @search(by: [trigram])
  tags: [String] @search(by: [term])
}`;

/** Per filter, the keys of the documents GraphQL answers (in order). */
async function keysOf(engine: Engine, filters: readonly unknown[]): Promise<[unknown, string[]][]> {
  const out: [unknown, string[]][] = [];
  for (const filter of filters) {
    const answer = await gql(engine, 'query ($f: DocFilter) { queryDoc(filter: $f, order: { asc: key }) { key } }', { f: filter });
    if (answer.errors !== undefined) throw new Error(JSON.stringify(answer.errors));
    out.push([filter, (answer.data.queryDoc as { key: string }[]).map((d) => d.key)]);
  }
  return out;
}

/** Every search filter kind, as GraphQL answers it (keys in order). */
async function searches(engine: Engine, seed: number): Promise<[unknown, string[]][]> {
  const next = random(seed);
  const filters = [
    ...['fox', 'brown fox', 'alpha', 'runs', 'café', 'İstanbul', ...Array.from({ length: 12 }, () => text(next))].flatMap((q) => [
      { title: { allofterms: q } },
      { title: { anyofterms: q } },
      { title: { alloftext: q } },
      { title: { anyoftext: q } },
      { tags: { anyofterms: q } },
      { summary: { ngram: q } },
    ]),
    ...['/alp/', '/a.*a/', '/😀/', '/^Ga/i', '/(fn|beta)/'].map((r) => ({ code: { regexp: r } })),
  ];
  return keysOf(engine, filters);
}

const version = (dir: string): number => {
  const snap = readdirSync(dir).filter((f) => /^snap-\d+\.msgpack$/.test(f)).sort().at(-1) as string;
  return readFileSync(join(dir, snap)).readUInt32LE(8);
};

describe('snapshot format 2 through the engine', () => {
  it('restored from a format 2 snapshot, every search answers as after a replay of the log', async () => {
    const next = random(9);
    const docs = Array.from({ length: 150 }, (_, i) => ({ key: `k${String(i).padStart(3, '0')}`, title: text(next), summary: text(next), code: text(next), tags: value(next, true) }));
    const [fromSnap, fromLog] = [tempDir(), tempDir()];
    dirs.push(fromSnap, fromLog);
    for (const dir of [fromSnap, fromLog]) {
      const { engine } = await openEngine(dir, { snapshotEveryMutations: 0 });
      expect((await engine.updateSchema(DOC_SCHEMA)).ok).toBe(true);
      expect((await gql(engine, 'mutation ($d: [AddDocInput!]!) { addDoc(input: $d) { numUids } }', { d: docs })).data).toEqual({ addDoc: { numUids: 150 } });
      await gql(engine, 'mutation { updateDoc(input: { filter: { key: { in: ["k001", "k002"] } }, set: { title: "alpha fox", code: "beta😀" } }) { numUids } }');
      await gql(engine, 'mutation { deleteDoc(filter: { key: { in: ["k003", "k004"] } }) { numUids } }');
      if (dir === fromSnap) {
        expect((await engine.snapshot()).ok).toBe(true);
        await engine.close();
      } else engine.close(); // not awaited: no shutdown snapshot, the log alone
    }
    expect(readdirSync(fromLog).some((f) => f.startsWith('snap-'))).toBe(false);
    expect(version(fromSnap)).toBe(2);
    const fromSnapshot = await openEngine(fromSnap);
    const replayed = await openEngine(fromLog);
    const expected = await searches(replayed.engine, 5);
    expect(expected.filter(([, keys]) => keys.length > 0).length).toBeGreaterThan(40);
    expect(await searches(fromSnapshot.engine, 5)).toEqual(expected);
    await Promise.all([fromSnapshot.engine.close(), replayed.engine.close()]);
  });

  it('a format 1 snapshot (written by the build before) still restores; the next one is format 2', async () => {
    const dir = tempDir();
    dirs.push(dir);
    cpSync(V1_FIXTURE, dir, { recursive: true });
    expect(version(dir)).toBe(1);
    const expected = [
      [{ title: { anyofterms: 'fox' } }, ['d1']],
      [{ title: { alloftext: 'run' } }, ['d1', 'd2']],
      [{ tags: { anyofterms: 'red' } }, ['d1', 'd3']],
      [{ summary: { ngram: 'brown fox' } }, ['d1', 'd2']],
      [{ code: { regexp: '/alpha/' } }, ['d1', 'd3']],
      [{ code: { regexp: '/😀/' } }, ['d2']],
    ];
    const answers = async (engine: Engine): Promise<unknown[]> => {
      const out: unknown[] = [];
      for (const [filter] of expected) out.push([filter, ((await gql(engine, 'query ($f: DocFilter) { queryDoc(filter: $f, order: { asc: key }) { key } }', { f: filter })).data.queryDoc as { key: string }[]).map((d) => d.key)]);
      return out;
    };
    const first = await openEngine(dir);
    expect(await answers(first.engine)).toEqual(expected);
    await gql(first.engine, 'mutation { addDoc(input: [{ key: "d4", title: "fox", code: "alpha" }]) { numUids } }');
    expect((await first.engine.snapshot()).ok).toBe(true);
    await first.engine.close();
    expect(version(dir)).toBe(2);
    const second = await openEngine(dir);
    const withD4 = expected.map(([filter, keys], i) => [filter, i === 0 || i === 4 ? [...(keys as string[]), 'd4'] : keys]); // title "fox", code "alpha"
    expect(await answers(second.engine)).toEqual(withD4);
    await second.engine.close();
  });

  it('damaged stored postings (checksums made good again) refuse to start; --recover falls back to the previous snapshot', async () => {
    const dir = tempDir();
    dirs.push(dir);
    cpSync(V1_FIXTURE, dir, { recursive: true });
    const { engine } = await openEngine(dir);
    await gql(engine, 'mutation { addDoc(input: [{ key: "d4", title: "fox", code: "alpha" }]) { numUids } }');
    expect((await engine.snapshot()).ok).toBe(true);
    await engine.close();
    const newest = join(dir, readdirSync(dir).filter((f) => /^snap-\d+\.msgpack$/.test(f)).sort().at(-1) as string);
    const bytes = readFileSync(newest);
    const { header, bodyOffset } = readSnapshotHeader(bytes, newest);
    const body = decode(bytes.subarray(bodyOffset)) as { store: StoreSnapshot };
    const title = body.store.scalars.find((c) => c.predicate === 'Doc.title');
    const term = title?.postings?.find((p) => p.kind === 'term');
    if (term === undefined) throw new Error('no stored term postings for Doc.title');
    term.counts[0] = (term.counts[0] as number) + 1; // one id more than there are
    const damaged = encode(body);
    writeFileSync(newest, Buffer.concat([snapshotHead({ ...header, bodyLength: damaged.length, bodyCrc: checksum(damaged) }), damaged]));
    await expect(openEngine(dir)).rejects.toThrow(new RegExp(`snapshot ${newest} is damaged at offset ${bodyOffset}: the term postings of Doc.title: `));
    const recovered = await openEngine(dir, { recover: true });
    expect(recovered.notes.warnings.join('\n')).toMatch(/falling back/);
    expect((await gql(recovered.engine, '{ queryDoc(filter: { title: { anyofterms: "fox" } }, order: { asc: key }) { key } }')).data).toEqual({ queryDoc: [{ key: 'd1' }, { key: 'd4' }] });
    await recovered.engine.close();
  });
});

describe('a schema change after a format 2 snapshot, replayed from the log', () => {
  // @search changed on every field after the snapshot: indexes added (back-filled over loaded postings'
  // columns), others no longer in the schema (kept by the store), values rewritten and nodes deleted after.
  const CHANGED = `type Doc {
  key: String! @id
  title: String @search(by: [fulltext])
  summary: String @search(by: [ngram, term])
  code: String @search(by: [trigram, fulltext])
  tags: [String] @search(by: [term, fulltext, trigram])
}`;

  async function changedSearches(engine: Engine, seed: number): Promise<[unknown, string[]][]> {
    const next = random(seed);
    const filters = [
      ...['fox', 'alpha beta', 'runs', 'café', 'İstanbul', '😀', ...Array.from({ length: 10 }, () => text(next))].flatMap((q) => [
        { title: { alloftext: q } },
        { title: { anyoftext: q } },
        { summary: { ngram: q } },
        { summary: { anyofterms: q } },
        { code: { anyoftext: q } },
        { tags: { anyofterms: q } },
        { tags: { alloftext: q } },
      ]),
      ...['/alp/', '/a.*a/', '/😀/', '/^Ga/i'].flatMap((r) => [{ code: { regexp: r } }, { tags: { regexp: r } }]),
    ];
    return keysOf(engine, filters);
  }

  const mutate = async (engine: Engine, query: string, variables?: Record<string, unknown>): Promise<void> => {
    const answer = await gql(engine, query, variables);
    if (answer.errors !== undefined) throw new Error(JSON.stringify(answer.errors));
  };

  it('restored from the snapshot plus the log, every search answers as after a replay of the whole log', async () => {
    const next = random(21);
    const docs = Array.from({ length: 120 }, (_, i) => ({ key: `k${String(i).padStart(3, '0')}`, title: text(next), summary: text(next), code: text(next), tags: value(next, true) }));
    const later = Array.from({ length: 30 }, (_, i) => ({ key: `n${String(i).padStart(3, '0')}`, title: text(next), summary: text(next), code: text(next), tags: value(next, true) }));
    const [fromSnap, fromLog] = [tempDir(), tempDir()];
    dirs.push(fromSnap, fromLog);
    for (const dir of [fromSnap, fromLog]) {
      const { engine } = await openEngine(dir, { snapshotEveryMutations: 0 });
      expect((await engine.updateSchema(DOC_SCHEMA)).ok).toBe(true);
      await mutate(engine, 'mutation ($d: [AddDocInput!]!) { addDoc(input: $d) { numUids } }', { d: docs });
      await mutate(engine, 'mutation { updateDoc(input: { filter: { key: { in: ["k001", "k002"] } }, set: { title: "alpha fox", tags: ["", "the and"] } }) { numUids } }');
      await mutate(engine, 'mutation { deleteDoc(filter: { key: { in: ["k003", "k004"] } }) { numUids } }');
      if (dir === fromSnap) expect((await engine.snapshot()).ok).toBe(true);
      expect((await engine.updateSchema(CHANGED)).ok).toBe(true);
      await mutate(engine, 'mutation ($d: [AddDocInput!]!) { addDoc(input: $d) { numUids } }', { d: later });
      await mutate(engine, 'mutation { updateDoc(input: { filter: { key: { in: ["k005", "k006", "k001"] } }, set: { title: "runs café", code: "a😀b alpha", tags: ["beta Gamma"] } }) { numUids } }');
      await mutate(engine, 'mutation { updateDoc(input: { filter: { key: { in: ["k007"] } }, remove: { title: null, summary: null } }) { numUids } }');
      await mutate(engine, 'mutation { deleteDoc(filter: { key: { in: ["k008", "k009", "n001"] } }) { numUids } }');
      engine.close(); // not awaited: no shutdown snapshot (fromSnap: the snapshot, then the schema change and writes in the log)
    }
    expect(readdirSync(fromSnap).filter((f) => f.startsWith('snap-')).length).toBe(1);
    expect(version(fromSnap)).toBe(2);
    const fromSnapshot = await openEngine(fromSnap);
    const replayed = await openEngine(fromLog);
    const expected = await changedSearches(replayed.engine, 22);
    expect(expected.filter(([, keys]) => keys.length > 0).length).toBeGreaterThan(30);
    expect(await changedSearches(fromSnapshot.engine, 22)).toEqual(expected);
    await Promise.all([fromSnapshot.engine.close(), replayed.engine.close()]);
  });
});

describe('damage in the stored postings of a format 2 file', () => {
  it('a flipped byte inside them or a cut-off end refuses as any damage (checksums); --recover falls back to the previous snapshot', async () => {
    const base = tempDir();
    dirs.push(base);
    cpSync(V1_FIXTURE, base, { recursive: true });
    const { engine } = await openEngine(base);
    await gql(engine, 'mutation { addDoc(input: [{ key: "d4", title: "fox", code: "alpha" }]) { numUids } }');
    expect((await engine.snapshot()).ok).toBe(true);
    await engine.close();
    const name = readdirSync(base).filter((f) => /^snap-\d+\.msgpack$/.test(f)).sort().at(-1) as string;
    const bytes = readFileSync(join(base, name));
    const { bodyOffset } = readSnapshotHeader(bytes, name);
    const body = decode(bytes.subarray(bodyOffset)) as { store: StoreSnapshot };
    const ngram = body.store.scalars.find((c) => c.predicate === 'Doc.summary')?.postings?.find((p) => p.kind === 'ngram');
    if (ngram === undefined) throw new Error('no stored ngram postings for Doc.summary');
    const at = bytes.indexOf(Buffer.from(ngram.text.buffer, ngram.text.byteOffset, ngram.text.byteLength), bodyOffset);
    expect(at).toBeGreaterThan(bodyOffset);
    const flipped = Buffer.from(bytes);
    const flip = at + (ngram.text.byteLength >> 1);
    flipped[flip] = (flipped[flip] as number) ^ 0x20; // one token's letter in another case
    for (const [damaged, reason] of [[flipped, /: body checksum mismatch/], [bytes.subarray(0, bytes.length - 7), /: truncated: 7 bytes of the body are missing/]] as const) {
      const dir = tempDir();
      dirs.push(dir);
      cpSync(base, dir, { recursive: true });
      writeFileSync(join(dir, name), damaged);
      await expect(openEngine(dir)).rejects.toThrow(reason);
      const recovered = await openEngine(dir, { recover: true });
      expect(recovered.notes.warnings.join('\n')).toMatch(/falling back/);
      expect((await gql(recovered.engine, '{ queryDoc(filter: { summary: { ngram: "brown fox" } }, order: { asc: key }) { key } }')).data).toEqual({ queryDoc: [{ key: 'd1' }, { key: 'd2' }] });
      expect((await gql(recovered.engine, '{ queryDoc(filter: { title: { anyofterms: "fox" } }, order: { asc: key }) { key } }')).data).toEqual({ queryDoc: [{ key: 'd1' }, { key: 'd4' }] });
      await recovered.engine.close();
    }
  });
});

describe('the capture of stored postings', () => {
  /** The array a PostingList keeps its ids in (private: whether a write copies it is the point here). */
  const mainOf = (store: GraphStore, token: string): unknown => {
    const index = store.scalar('title').index('term') as unknown as { store: { list(t: string): unknown } };
    return (index.store.list(token) as { main: unknown }).main;
  };

  it('leaves the live postings unshared: the first write after a snapshot copies no list', () => {
    const store = new GraphStore();
    store.scalar('title').ensureIndex('term');
    const write = (title: string): void => {
      const txn = store.begin();
      store.scalar('title').set(store.createNode(), title);
      txn.commit();
    };
    for (let i = 0; i < 200; i++) write(`common w${i}`); // "common": a PostingList of 200 ids
    const before = mainOf(store, 'common');
    store.exportSnapshot(undefined, true);
    write('common again');
    // A capture reads the lists at once (packed into typed arrays): marking each one handed out made the
    // next write to every list of every token index copy it whole (at 1M, ~30M ids after each snapshot).
    expect(mainOf(store, 'common')).toBe(before);
    expect((store.scalar('title').index('term') as TokenIndex<unknown>).allOf('common').length).toBe(201);
  });
});
