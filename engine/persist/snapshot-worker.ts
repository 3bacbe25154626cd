// The snapshot encoder thread (started by snapshot-encoder.ts, one per snapshot): rebuilds the captured
// content from the messages, encodes it as encodeSnapshot does on the event loop (same bytes), writes
// and fsyncs the `.tmp` (nodeFileIo), and answers its size. A failure is thrown: the thread's 'error'
// event fails that snapshot.

import { parentPort } from 'node:worker_threads';
import { CapturedStrings, type IndexPostings, type ScalarColumnSnapshot, type StoredValue } from '../store/graph-store.js';
import { CapturedEdges } from '../store/captured-edges.js';
import { encodeSnapshot, writeSnapshotTmp } from './snapshot-file.js';
import { nodeFileIo } from './file-io.js';
import type { FromEncoder, SentColumn, Shipped, ToEncoder, ValueChunk } from './snapshot-encoder.js';

const port = parentPort;
if (port === null) throw new Error('snapshot-worker.ts runs as a worker thread');

let begin: Extract<ToEncoder, { t: 'begin' }> | undefined;
/** The capture's copies, in the order they were sent (`Shipped` numbers them). */
const arrays: (Int32Array | Uint8Array | Uint16Array | Float64Array)[] = [];
/** Streamed columns' ids and values, by column index. */
const streamed = new Map<number, { ids: Int32Array[]; values: StoredValue[] }>();

port.on('message', (message: ToEncoder) => {
  if (message.t === 'array') arrays.push(message.array);
  else if (message.t === 'begin') {
    begin = message;
    message.store.scalars.forEach((col, i) => {
      if (col.values.kind === 'streamed') streamed.set(i, { ids: [], values: [] });
    });
  } else if (message.t === 'values') {
    const column = streamed.get(message.column);
    if (column === undefined) throw new Error(`snapshot encoder: values for column ${message.column}, which is not streamed`);
    column.ids.push(message.ids);
    unpackChunk(message.chunk, column.values);
  } else {
    void encode().catch((error: unknown) =>
      setImmediate(() => {
        throw error;
      }),
    );
  }
});

async function encode(): Promise<void> {
  if (begin === undefined) throw new Error('snapshot encoder: end before begin');
  const { store } = begin;
  const scalars = store.scalars.map((col, i) => column(col, i));
  const edges = store.edges.map((col) => ('slot' in col ? new CapturedEdges({ predicate: col.predicate, slot: take(col.slot), pool: take(col.pool), count: col.count }) : col));
  const content = { lsn: begin.lsn, schema: begin.schema, persistedQueries: begin.persistedQueries, acl: begin.acl, ...(begin.sharedLogPosition === undefined ? {} : { sharedLogPosition: begin.sharedLogPosition }), store: { ...store, alive: take(store.alive), typeSetOf: take(store.typeSetOf), scalars, edges } };
  const parts = await encodeSnapshot(content, begin.createdAt);
  if (begin.returnParts) port?.postMessage({ t: 'parts', parts } satisfies FromEncoder);
  else port?.postMessage({ t: 'done', bytes: await writeSnapshotTmp(nodeFileIo, begin.dir, begin.lsn, parts) } satisfies FromEncoder);
}

/** A column in the field order exportSnapshot gives (the file's). */
function column(col: SentColumn, i: number): ScalarColumnSnapshot {
  const { predicate, indexKinds, repr } = col;
  const flags = take(col.flags);
  const nums = take(col.nums);
  const postings = col.postings?.map((p): IndexPostings => ({ kind: p.kind, madeBy: p.madeBy, text: take(p.text), lengths: take(p.lengths), counts: take(p.counts), ids: take(p.ids) }));
  const tail = postings === undefined ? {} : { postings };
  const sent = col.values;
  if (sent.kind === 'inline') return { predicate, indexKinds, repr, flags, nums, ids: sent.ids, values: sent.values, ...tail };
  if (sent.kind === 'strings') {
    const values = CapturedStrings.fromParts({ blocks: sent.blocks, meta: take(sent.meta) });
    return { predicate, indexKinds, repr, flags, nums, ids: values.ids, values, ...tail };
  }
  const { ids, values } = streamed.get(i) as { ids: Int32Array[]; values: StoredValue[] };
  return { predicate, indexKinds, repr, flags, nums, ids: concat(ids), values, ...tail };
}

/** A typed array of the message, or the one the capture sent as number `sent`. */
function take<A extends Int32Array | Uint8Array | Uint16Array | Float64Array>(shipped: Shipped<A>): A {
  if (ArrayBuffer.isView(shipped)) return shipped;
  const array = arrays[shipped.sent];
  if (array === undefined) throw new Error(`snapshot encoder: copy ${shipped.sent} was never sent`);
  return array as A;
}

function unpackChunk(chunk: ValueChunk, into: StoredValue[]): void {
  if (chunk.kind === 'any') {
    for (const value of chunk.values) into.push(value);
  } else if (chunk.kind === 'f32') {
    let at = 0;
    for (const n of chunk.lengths) {
      into.push(chunk.data.slice(at, at + n));
      at += n;
    }
  } else {
    for (let k = 0; k < chunk.data.length; k += 2) into.push({ type: 'Point', coordinates: [chunk.data[k] as number, chunk.data[k + 1] as number] } as unknown as StoredValue);
  }
}

function concat(pieces: readonly Int32Array[]): Int32Array {
  const out = new Int32Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
