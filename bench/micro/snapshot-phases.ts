// Where a snapshot's and a restore's CPU goes, phase by phase, on one build's dist/:
//   snapshot: capture (GraphStore.exportSnapshot), encode (whole body, then each column alone), write;
//   restore: read the file, checksum + decode, import the values (each scalar column alone; edges),
//            build each index; then the engine's own restart (Engine.open to a first answered query).
// The data directory is made once (the generated data set through the facade, one snapshot) and kept, so
// several builds can be measured on the same file. With --profile <dir>, each side is also CPU-profiled
// (node:inspector, only that part) and its heaviest functions by self time are printed.
// A file of format 2 loads its token indexes from their stored postings ("load ... stored postings"),
// one of format 1 back-fills them; `--keep <new dir>` keeps the snapshot this build writes (with the
// directory's log copied beside it): the same data in this build's format, to measure its restore.
// Run: taskset -c 0 node --expose-gc --max-old-space-size=8000 dist/bench/micro/snapshot-phases.js <abs dist> --dir <dir> [--posts 1000000] [--profile <dir>] [--engine-only] [--keep <new dir>]

import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type * as FileIoModule from '../../engine/persist/file-io.js';
import type * as SnapshotFileModule from '../../engine/persist/snapshot-file.js';
import type * as ChecksumModule from '../../engine/persist/checksum.js';
import type * as DataDirModule from '../../engine/persist/data-dir.js';
import type * as GraphStoreModule from '../../engine/store/graph-store.js';
import type { ScalarColumnImpl } from '../../engine/store/scalar-column.js';
import type { StoreSnapshot } from '../../engine/store/graph-store.js';
import type { IndexKindName } from '../../engine/indexes/index-kind.js';
import { keptDataDir, openDurable } from './durable-fixture.js';
import { printSelfTimes } from './self-times.js';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dist = argv[0];
const dir = flag('--dir');
if (dist === undefined || dir === undefined) throw new Error('usage: snapshot-phases.js <dist> --dir <data dir> [--posts n] [--profile <dir>]');
const posts = Number(flag('--posts') ?? 1_000_000);
const profileDir = flag('--profile');
/** `--engine-only`: just the engine's restart, in a process that held nothing before (its memory alone). */
const engineOnly = argv.includes('--engine-only');
const keep = flag('--keep');
const from = (path: string): string => resolve(dist, path);
const { nodeFileIo } = (await import(from('engine/persist/file-io.js'))) as typeof FileIoModule;
const { readSnapshotFile, encodeSnapshot, writeSnapshotFile } = (await import(from('engine/persist/snapshot-file.js'))) as typeof SnapshotFileModule;
const { checksum } = (await import(from('engine/persist/checksum.js'))) as typeof ChecksumModule;
const { snapshotFileName } = (await import(from('engine/persist/data-dir.js'))) as typeof DataDirModule;
const { GraphStore } = (await import(from('engine/store/graph-store.js'))) as typeof GraphStoreModule;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const lsn = await keptDataDir(dist, dir, posts);

const rows: [string, number, number][] = [];
/** Times `fn` (wall and process CPU, GC threads included) as one row of the table. */
const phase = async <T>(name: string, fn: () => T | Promise<T>): Promise<T> => {
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  const result = await fn();
  const cpu = process.cpuUsage(cpu0);
  rows.push([name, performance.now() - t, (cpu.user + cpu.system) / 1000]);
  return result;
};

const session = new Session();
session.connect();
const profiled = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
  if (profileDir === undefined) return fn();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  const result = await fn();
  const { profile } = await session.post('Profiler.stop');
  mkdirSync(profileDir, { recursive: true });
  writeFileSync(join(profileDir, `${name}.cpuprofile`), JSON.stringify(profile));
  printSelfTimes(name, profile);
  return result;
};

// Restore, below the engine: the file's content into a fresh store, each part timed.
gc();
let store: GraphStoreModule.GraphStore | undefined;
/** The file's schema and edges (as pairs), kept in a `--keep` snapshot (the store timed here holds no edges). */
let schema: string | null = null;
let fileEdges: StoreSnapshot['edges'] = [];
if (!engineOnly) store = await profiled('restore', async () => {
  const bytes = await phase('restore: read the file', () => nodeFileIo.readFile(join(dir, snapshotFileName(lsn))));
  await phase(`restore: checksum (${(bytes.length / 1e6).toFixed(0)} MB)`, () => checksum(bytes));
  const read = await phase('restore: read + checksum + decode (readSnapshotFile)', () => readSnapshotFile(nodeFileIo, dir, lsn));
  const snap = read.content.store;
  schema = read.content.schema;
  fileEdges = snap.edges;
  const fresh = new GraphStore();
  await phase('restore: import node ids, types', () => fresh.importSnapshot({ ...snap, scalars: [], edges: [] }));
  for (const col of snap.scalars) {
    await phase(`restore: import ${col.predicate} (repr ${col.repr}, ${col.ids.length || col.flags.length} slots)`, () => (fresh.scalar(col.predicate) as ScalarColumnImpl).importSnapshot({ ...col, indexKinds: [] }));
  }
  await phase(`restore: import edges (${snap.edges.map((e) => `${e.predicate} ${e.from.length}`).join(', ')})`, () => new GraphStore().importSnapshot({ ...snap, scalars: [] }));
  for (const col of snap.scalars) {
    for (const kind of col.indexKinds) {
      // (`postings` is absent from older builds' column type: read as the files hold it.)
      const stored = (col as { postings?: readonly { kind: string }[] }).postings?.find((p) => p.kind === kind);
      const column = fresh.scalar(col.predicate) as unknown as { ensureIndex(kind: IndexKindName, stored?: unknown): unknown };
      await phase(`restore: ${stored === undefined ? 'index' : 'load stored postings of'} ${col.predicate} ${kind}`, () => column.ensureIndex(kind as IndexKindName, stored));
    }
  }
  return fresh;
});

// Snapshot, below the engine: the same store captured, encoded (whole, then each column alone), written.
gc();
if (store !== undefined) await profiled('snapshot', async () => {
  // With the token indexes' postings (`--snapshot-postings`): what this bench weighs against tokenising them again.
  const captured = await phase('snapshot: capture (exportSnapshot)', () => (store as GraphStoreModule.GraphStore).exportSnapshot(undefined, true));
  const content = { lsn, schema, store: captured, persistedQueries: [], acl: null };
  const parts = await phase('snapshot: encode, whole body', () => encodeSnapshot(content, new Date(0).toISOString()));
  const bare = { ...captured, scalars: [], edges: [] };
  await phase('snapshot: encode node ids, types', () => encodeSnapshot({ ...content, store: bare }, ''));
  for (const col of captured.scalars) await phase(`snapshot: encode ${col.predicate} (repr ${col.repr})`, () => encodeSnapshot({ ...content, store: { ...bare, scalars: [col] } }, ''));
  await phase('snapshot: encode edges', () => encodeSnapshot({ ...content, store: { ...bare, edges: captured.edges } }, ''));
  const out = mkdtempSync(join(tmpdir(), 'snapshot-phases-'));
  await phase(`snapshot: write (${(parts.reduce((n, p) => n + p.length, 0) / 1e6).toFixed(0)} MB, fsync)`, () => writeSnapshotFile(nodeFileIo, out, lsn, parts));
  rmSync(out, { recursive: true, force: true });
  if (keep !== undefined) {
    mkdirSync(keep, { recursive: true });
    await writeSnapshotFile(nodeFileIo, keep, lsn, await encodeSnapshot({ ...content, store: { ...captured, edges: fileEdges } }, new Date().toISOString()));
    for (const name of readdirSync(dir).filter((n) => n.startsWith('wal-'))) copyFileSync(join(dir, name), join(keep, name));
  }
});

// The engine's own restart: open (snapshot + log + schema deploy) to a first answered query.
store = undefined;
gc();
const rss0 = process.memoryUsage().rss;
const opened = await phase('engine: open to first answered query', async () => {
  const fixture = await openDurable(dist, dir, posts, false);
  await fixture.run('{ queryPost(first: 1) { slug score } }', {});
  return fixture;
});
gc();
const memory = process.memoryUsage();
await opened.engine.close();

console.log(`\n| phase (${posts} posts) | wall ms | CPU ms |\n|---|---|---|`);
for (const [name, wall, cpu] of rows) console.log(`| ${name} | ${wall.toFixed(0)} | ${cpu.toFixed(0)} |`);
console.log(`engine opened: RSS +${((memory.rss - rss0) / 1048576).toFixed(0)} MiB (RSS ${(memory.rss / 1048576).toFixed(0)} MiB, heap used ${(memory.heapUsed / 1048576).toFixed(0)} MiB, array buffers ${(memory.arrayBuffers / 1048576).toFixed(0)} MiB)`);
