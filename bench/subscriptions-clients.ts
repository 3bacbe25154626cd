// The subscribers of bench/subscriptions.ts, in a worker thread: `{open, documents, kind}` opens that
// many sockets (graphql-transport-ws), each with `perSocket` subscriptions to one of `documents`
// documents on `kind`, and answers once every first answer arrived; `{close: true}` closes them and
// answers with what each subscription received (arrival time since the epoch, the first item's `n`)
// and how busy this thread was since the sockets opened (its event loop utilization: near 1, the
// clients themselves delay what they timestamp).

import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, perSocket } = workerData as { url: string; perSocket: number };
/** Per socket: each message's arrival time and bytes, read at close (so parsing them does not delay the next arrival's timestamp). */
let sockets: { socket: WebSocket; arrived: { at: number; data: Buffer }[] }[] = [];
let since = performance.eventLoopUtilization();

function documentOf(kind: string, group: number): string {
  return kind === 'Item'
    ? `subscription { queryItem(filter: { group: { eq: "g${group}" } }, first: 1) { n } }`
    : `subscription { queryOther(filter: { label: { eq: "l${group}" } }) { label } }`;
}

async function open(count: number, documents: number, kind: string): Promise<void> {
  const ready: Promise<void>[] = [];
  for (let s = 0; s < count; s++) {
    // The server's UTF-8 is not what is measured: ws need not check it.
    const socket = new WebSocket(url, 'graphql-transport-ws', { perMessageDeflate: false, skipUTF8Validation: true });
    const arrived: { at: number; data: Buffer }[] = [];
    let firsts = 0;
    ready.push(
      new Promise((resolve, reject) => {
        socket.on('error', reject);
        socket.on('open', () => {
          socket.send(JSON.stringify({ type: 'connection_init' }));
          for (let k = 0; k < perSocket; k++) socket.send(JSON.stringify({ id: String(k), type: 'subscribe', payload: { query: documentOf(kind, (s + k) % documents) } }));
        });
        socket.on('message', (data: Buffer) => {
          arrived.push({ at: performance.timeOrigin + performance.now(), data });
          if (firsts < perSocket && isNext(data) && ++firsts === perSocket) resolve(); // each subscription's first answer
        });
      }),
    );
    sockets.push({ socket, arrived });
    if (s % 100 === 99) await Promise.all(ready.slice(-100));
  }
  await Promise.all(ready);
  since = performance.eventLoopUtilization();
}

const nextHead = Buffer.from('{"type":"next"');
const isNext = (data: Buffer): boolean => data.subarray(0, nextHead.length).equals(nextHead);

/** Per subscription id: the arrival time and the first item's `n` of each `next` message. */
function received(arrived: readonly { at: number; data: Buffer }[]): { at: number; n: unknown }[][] {
  const out: { at: number; n: unknown }[][] = Array.from({ length: perSocket }, () => []);
  for (const { at, data } of arrived) {
    const message = JSON.parse(data.toString()) as { type: string; id?: string; payload?: { data?: Record<string, { n?: unknown }[]> } };
    if (message.type !== 'next' || message.id === undefined) continue;
    out[Number(message.id)]?.push({ at, n: Object.values(message.payload?.data ?? {})[0]?.[0]?.n });
  }
  return out;
}

async function close(): Promise<{ received: { at: number; n: unknown }[][][]; busy: number }> {
  const busy = performance.eventLoopUtilization(since).utilization;
  const all = sockets;
  sockets = [];
  await Promise.all(all.map(({ socket }) => new Promise<void>((done) => (socket.once('close', () => done()), socket.close()))));
  return { received: all.map(({ arrived }) => received(arrived)), busy };
}

parentPort?.on('message', (command: { open?: number; documents?: number; kind?: string; close?: boolean }) => {
  const reply = (value: unknown): void => parentPort?.postMessage(value);
  if (command.open !== undefined) void open(command.open, command.documents ?? 1, command.kind ?? 'Item').then(() => reply(true));
  else if (command.close === true) void close().then(reply);
});
