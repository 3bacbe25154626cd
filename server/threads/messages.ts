// What the writer thread and its replica threads say to each other (server/threads/README.md).

import type { AclOptions, EngineResponse, SnapshotIdentity } from '../../engine/index.js';
import type { ServerConfig } from '../config.js';
import type { MetricsJson } from '../metrics.js';

/** A replica thread's start: the writer's configuration (its port comes with `go`), the shared LSN cell, the ACL secret. */
export interface ReplicaThreadData {
  readonly config: ServerConfig;
  /**
   * Shared memory the writer alone stores into: [0] the LSN of its last published record, [1] 1 while
   * it is draining. Read by every request, so a client that got an answer finds both on every thread.
   */
  readonly shared: BigInt64Array;
  readonly acl: AclOptions | undefined;
  readonly index: number;
  /** Started before the writer opened the data directory: load its snapshot at once, the log after `go`. */
  readonly early: boolean;
}

/** The calls a replica sends its writer (each answered by a `ToReplica` `answer` with the same id). */
export type WriterCall =
  | { readonly t: 'execute'; readonly id: number; readonly request: string }
  | { readonly t: 'admin'; readonly id: number; readonly request: string }
  | { readonly t: 'schema'; readonly id: number; readonly sdl: string }
  | { readonly t: 'snapshot'; readonly id: number }
  /** /metrics on a replica thread: the writer answers for the process (every thread's figures merged). */
  | { readonly t: 'metrics'; readonly id: number };

export type ToWriter =
  | WriterCall
  /** Serving, at `lsn`; `preloaded`: the LSN of the snapshot it loaded before its writer opened. */
  | { readonly t: 'ready'; readonly lsn: number; readonly preloaded?: number }
  | { readonly t: 'shutdown' }
  | { readonly t: 'metrics-json'; readonly id: number; readonly value: MetricsJson };

export type ToReplica =
  /** The writer opened the data directory (and listens on `port`): the replica reads the log and serves. */
  | { readonly t: 'go'; readonly port: number; readonly base: SnapshotIdentity }
  | { readonly t: 'frames'; readonly frames: Uint8Array }
  | { readonly t: 'answer'; readonly id: number; readonly value: unknown }
  | { readonly t: 'failed'; readonly id: number; readonly message: string }
  | { readonly t: 'log-level'; readonly level: string }
  /** The writer gathers every thread's own /metrics figures (answered by a `metrics-json`). */
  | { readonly t: 'metrics-json'; readonly id: number }
  | { readonly t: 'stop'; readonly timeoutMs: number };

/** An engine answer as plain data (a direct-writer answer is a class with a lazy body). */
export function plainResponse(response: EngineResponse): EngineResponse {
  const { kind, body, touchedUids, cacheMaxAge } = response;
  return { kind, body, ...(touchedUids === undefined ? {} : { touchedUids }), ...(cacheMaxAge === undefined ? {} : { cacheMaxAge }) };
}

/**
 * The messages to one thread, sent as one array per turn of the event loop: the answers of a group
 * commit's forwarded writes wake the other thread once, not once each (each postMessage is a wake-up,
 * and on a busy machine a context switch). What a read may wait for (records, the log level) goes now.
 */
export class Outbox<T> {
  #queue: T[] = [];

  constructor(private readonly port: { postMessage(value: unknown): void }) {}

  send(message: T): void {
    if (this.#queue.length === 0) setImmediate(this.#flush);
    this.#queue.push(message);
  }

  /**
   * Sends `message` (after those queued) now: for state a reply about to leave must find on every thread
   * (a log level set through /admin is read back on another connection right after its answer).
   */
  sendNow(message: T): void {
    this.#queue.push(message);
    this.#flush();
  }

  readonly #flush = (): void => {
    if (this.#queue.length === 0) return;
    const batch = this.#queue;
    this.#queue = [];
    this.port.postMessage(batch);
  };
}
