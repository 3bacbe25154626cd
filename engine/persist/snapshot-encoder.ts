// A captured snapshot encoded and written (`.tmp`, fsynced) by a worker thread (snapshot-worker.ts): the
// encoding's CPU and garbage, and the file's bytes, stay out of the event loop and its heap (at 1M nodes
// the encode is 10+ s of CPU; its garbage, and 360 MB of parts handed back, made major GCs of the
// engine's heap that stalled reads for seconds). What crosses: typed arrays transferred (the capture's
// copies), string arenas shared (SharedArrayBuffer blocks, never written again), plain-array columns
// streamed a chunk of slots per message in ≤ 5 ms slices (vectors and points as flat typed arrays,
// anything else cloned). The caller renames the `.tmp` into place (through its FileIo).

import { Worker } from 'node:worker_threads';
import { CapturedStrings, CapturedValues, type CaptureSink, type StoreSnapshot, type StoredValue } from '../store/graph-store.js';
import { CapturedEdges } from '../store/captured-edges.js';
import type { IndexKindName } from '../indexes/index-kind.js';
import type { AclState } from '../acl/acl-state.js';
import { writeSnapshotTmp, type SnapshotContent } from './snapshot-file.js';
import type { FileIo } from './file-io.js';

/** A typed array in the `begin` message, or the number of one the capture sent already (`array` messages, counted from 0). */
export type Shipped<A> = A | { readonly sent: number };

/** A captured typed array (CaptureSink's). */
type Copy = Int32Array | Uint8Array | Uint16Array | Float64Array;

/** An index's stored postings as sent (their arrays the capture's copies). */
export interface SentPostings {
  readonly kind: IndexKindName;
  readonly madeBy: string;
  readonly text: Shipped<Uint8Array | Uint16Array>;
  readonly lengths: Shipped<Int32Array>;
  readonly counts: Shipped<Int32Array>;
  readonly ids: Shipped<Int32Array>;
}

/** A scalar column as sent: its values inline, as arena parts, or streamed in `values` messages after `begin`. */
export interface SentColumn {
  readonly predicate: string;
  readonly indexKinds: readonly IndexKindName[];
  readonly repr: number;
  readonly flags: Shipped<Uint8Array>;
  readonly nums: Shipped<Float64Array>;
  /** Absent: a column read back from a file of format 1. */
  readonly postings?: readonly SentPostings[];
  readonly values:
    | { readonly kind: 'inline'; readonly ids: Int32Array; readonly values: readonly StoredValue[] }
    | { readonly kind: 'strings'; readonly blocks: readonly Uint8Array[]; readonly meta: Shipped<Int32Array> }
    | { readonly kind: 'streamed' };
}

/** An edge column as sent: a captured adjacency (walked into pairs there), or pairs. */
export type SentEdges =
  | { readonly predicate: string; readonly slot: Shipped<Int32Array>; readonly pool: Shipped<Int32Array>; readonly count: number }
  | { readonly predicate: string; readonly from: Int32Array; readonly to: Int32Array };

/** A chunk of a streamed column's values: ids ascending, values by the cheapest form that rebuilds them exactly. */
export type ValueChunk =
  | { readonly kind: 'f32'; readonly data: Float32Array; readonly lengths: Int32Array }
  | { readonly kind: 'points'; readonly data: Float64Array }
  | { readonly kind: 'any'; readonly values: readonly StoredValue[] };

export type ToEncoder =
  | { readonly t: 'array'; readonly array: Copy }
  | {
      readonly t: 'begin';
      readonly lsn: number;
      readonly schema: string | null;
      readonly persistedQueries: readonly (readonly [string, string])[];
      readonly acl: AclState | null;
      readonly createdAt: string;
      /** SnapshotContent.sharedLogPosition (cluster mode only). */
      readonly sharedLogPosition?: number;
      /** The data directory: the thread writes `<snapshot lsn>.tmp` there. */
      readonly dir: string;
      /** Hand the encoded parts back instead (the engine's FileIo injects faults: tests), written there. */
      readonly returnParts: boolean;
      readonly store: {
        readonly nextId: number;
        readonly alive: Shipped<Uint8Array>;
        readonly typeSets: readonly (readonly string[])[];
        readonly typeSetOf: Shipped<Int32Array>;
        readonly scalars: readonly SentColumn[];
        readonly edges: readonly SentEdges[];
      };
    }
  | { readonly t: 'values'; readonly column: number; readonly ids: Int32Array; readonly chunk: ValueChunk }
  | { readonly t: 'end' };

/** The `.tmp` is written and fsynced: its size; or (`returnParts`) the encoded parts. */
export type FromEncoder = { readonly t: 'done'; readonly bytes: number } | { readonly t: 'parts'; readonly parts: readonly Uint8Array[] };

/** Test hook (engine/testing.ts): told of every encoder thread started, e.g. to kill it. */
export const snapshotEncoderTesting: { started: ((worker: Worker) => void) | undefined } = { started: undefined };

/** Longest stretch of streaming between two turns of the event loop. */
const SLICE_MS = 5;
/** Slots of a plain-array column per `values` message. */
const CHUNK_SLOTS = 4096;

/** The thread's script; under vitest the sources are TypeScript, loaded through tsx (a dev dependency). */
function startWorker(): Worker {
  const url = new URL('./snapshot-worker.js', import.meta.url);
  if (!import.meta.url.endsWith('.ts')) return new Worker(url);
  const script = new URL('./snapshot-worker.ts', import.meta.url).href;
  // (A bare specifier in an evaluated script resolves from the working directory: the repository's, under vitest.)
  return new Worker(`import('tsx/esm/api').then((tsx) => tsx.register()).then(() => import(${JSON.stringify(script)}))`, { eval: true });
}

/**
 * One snapshot's encoder thread, started before the capture: `sink` is the capture's (exportSnapshot's),
 * each copy transferred as it is made; then `write` sends the rest, and the thread encodes `content` as
 * encodeSnapshot does and writes `<snapshot lsn>.tmp` in `dir` (fsynced). Rejects if the thread fails
 * (an I/O error: the .tmp is removed there) or stops first.
 */
export class SnapshotEncoder {
  readonly #worker = startWorker();
  #stopped = false;
  /** The copies sent by `sink`, by their buffer (still the same object once detached). */
  readonly #sent = new Map<ArrayBufferLike, number>();
  readonly #result: Promise<FromEncoder>;

  constructor() {
    const worker = this.#worker;
    this.#result = new Promise<FromEncoder>((resolve, reject) => {
      worker.once('error', (error) => {
        this.#stopped = true;
        reject(error);
      });
      worker.once('exit', (code) => {
        this.#stopped = true;
        reject(new Error(`the snapshot encoder thread stopped (exit code ${code}) before the snapshot was written`));
      });
      worker.once('message', (message: FromEncoder) => {
        resolve(message);
        void worker.terminate();
      });
    });
    this.#result.catch(() => undefined); // awaited by write; not unhandled before it
    snapshotEncoderTesting.started?.(worker);
  }

  readonly sink: CaptureSink = (copy) => {
    if (this.#stopped || !ownsBuffer(copy)) return;
    this.#sent.set(copy.buffer, this.#sent.size);
    this.#worker.postMessage({ t: 'array', array: copy } satisfies ToEncoder, [copy.buffer as ArrayBuffer]);
  };

  /**
   * `content` must not be used afterwards (its typed arrays are transferred); resolves with the .tmp's
   * size. With `io` (an injected FileIo, not node:fs: tests' faults) the .tmp is written through it here.
   */
  async write(content: SnapshotContent, createdAt: string, dir: string, io?: FileIo): Promise<number> {
    const { begin, transfer, streamed } = beginMessage(content, createdAt, dir, io !== undefined, this.#sent);
    this.#worker.postMessage(begin, transfer);
    let since = performance.now();
    for (const column of streamed) {
      for (let from = 0; from < column.values.slots && !this.#stopped; from += CHUNK_SLOTS) {
        const message = valuesMessage(column.index, column.values, from, Math.min(from + CHUNK_SLOTS, column.values.slots));
        if (message !== undefined) this.#worker.postMessage(message, transferOf(message));
        if (performance.now() - since >= SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          since = performance.now();
        }
      }
    }
    this.#worker.postMessage({ t: 'end' } satisfies ToEncoder);
    const result = await this.#result;
    if (result.t === 'done') return result.bytes;
    if (io === undefined) throw new Error('the snapshot encoder thread answered parts it was not asked for');
    return writeSnapshotTmp(io, dir, content.lsn, result.parts);
  }

  /** Ends the thread (the capture failed: no `write`). */
  stop(): void {
    void this.#worker.terminate();
  }
}

/** Only a typed array that is the whole of its own buffer (the capture's copies are) moves without a copy. */
function ownsBuffer(array: Copy): boolean {
  return array.buffer instanceof ArrayBuffer && array.byteOffset === 0 && array.byteLength === array.buffer.byteLength;
}

function beginMessage(content: SnapshotContent, createdAt: string, dir: string, returnParts: boolean, sent: ReadonlyMap<ArrayBufferLike, number>): { begin: ToEncoder; transfer: ArrayBuffer[]; streamed: { index: number; values: CapturedValues<StoredValue> }[] } {
  const store: StoreSnapshot = content.store;
  const transfer = new Set<ArrayBuffer>();
  const own = <T extends Copy>(array: T): Shipped<T> => {
    const already = sent.get(array.buffer);
    if (already !== undefined) return { sent: already };
    if (ownsBuffer(array)) transfer.add(array.buffer as ArrayBuffer);
    return array;
  };
  const streamed: { index: number; values: CapturedValues<StoredValue> }[] = [];
  const scalars = store.scalars.map((col, index): SentColumn => {
    const postings = col.postings?.map((p): SentPostings => ({ kind: p.kind, madeBy: p.madeBy, text: own(p.text), lengths: own(p.lengths), counts: own(p.counts), ids: own(p.ids) }));
    const base = { predicate: col.predicate, indexKinds: col.indexKinds, repr: col.repr, flags: own(col.flags), nums: own(col.nums), ...(postings === undefined ? {} : { postings }) };
    const { values } = col;
    if (values instanceof CapturedStrings) {
      const parts = values.parts();
      return { ...base, values: { kind: 'strings', blocks: parts.blocks, meta: own(parts.meta) } };
    }
    if (values instanceof CapturedValues) {
      streamed.push({ index, values });
      return { ...base, values: { kind: 'streamed' } };
    }
    return { ...base, values: { kind: 'inline', ids: col.ids, values } };
  });
  const edges = store.edges.map((col): SentEdges => {
    if (!(col instanceof CapturedEdges)) return col; // pairs read back from a file
    const parts = col.parts();
    return { predicate: parts.predicate, slot: own(parts.slot), pool: own(parts.pool), count: parts.count };
  });
  const begin: ToEncoder = {
    t: 'begin',
    lsn: content.lsn,
    schema: content.schema,
    persistedQueries: content.persistedQueries,
    acl: content.acl,
    createdAt,
    ...(content.sharedLogPosition === undefined ? {} : { sharedLogPosition: content.sharedLogPosition }),
    dir,
    returnParts,
    store: { nextId: store.nextId, alive: own(store.alive), typeSets: store.typeSets, typeSetOf: own(store.typeSetOf), scalars, edges },
  };
  return { begin, transfer: [...transfer], streamed };
}

function valuesMessage(column: number, values: CapturedValues<StoredValue>, from: number, to: number): ToEncoder | undefined {
  const ids: number[] = [];
  const chunk: StoredValue[] = [];
  for (let id = from; id < to; id++) {
    const value = values.at(id);
    if (value === undefined) continue;
    ids.push(id);
    chunk.push(value);
  }
  if (ids.length === 0) return undefined;
  return { t: 'values', column, ids: Int32Array.from(ids), chunk: packChunk(chunk) };
}

/** Vectors and points flat (no object per value to clone); anything else as it is. */
function packChunk(values: readonly StoredValue[]): ValueChunk {
  if (values.every((v) => v instanceof Float32Array)) {
    const lengths = new Int32Array(values.length);
    let total = 0;
    values.forEach((v, i) => (total += lengths[i] = (v as Float32Array).length));
    const data = new Float32Array(total);
    let at = 0;
    for (const v of values as readonly Float32Array[]) {
      data.set(v, at);
      at += v.length;
    }
    return { kind: 'f32', data, lengths };
  }
  if (values.every(isPoint)) {
    const data = new Float64Array(2 * values.length);
    values.forEach((v, i) => {
      const [x, y] = (v as unknown as { coordinates: [number, number] }).coordinates;
      data[2 * i] = x;
      data[2 * i + 1] = y;
    });
    return { kind: 'points', data };
  }
  return { kind: 'any', values };
}

/** A stored geo point exactly as `{ type: 'Point', coordinates: [x, y] }` (keys in that order: the bytes depend on it). */
function isPoint(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { type, coordinates } = value as { type?: unknown; coordinates?: unknown };
  if (type !== 'Point' || !Array.isArray(coordinates) || coordinates.length !== 2 || typeof coordinates[0] !== 'number' || typeof coordinates[1] !== 'number') return false;
  const keys = Object.keys(value);
  return keys.length === 2 && keys[0] === 'type' && keys[1] === 'coordinates';
}

function transferOf(message: ToEncoder): ArrayBuffer[] {
  if (message.t !== 'values') return [];
  const { chunk } = message;
  const buffers = [message.ids.buffer as ArrayBuffer];
  if (chunk.kind === 'f32') buffers.push(chunk.data.buffer as ArrayBuffer, chunk.lengths.buffer as ArrayBuffer);
  else if (chunk.kind === 'points') buffers.push(chunk.data.buffer as ArrayBuffer);
  return buffers;
}
