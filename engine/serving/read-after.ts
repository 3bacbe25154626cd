// `X-Service-Read-After: <lsn>`: a read that must see a write another node acknowledged (its answer's
// `extensions.lsn`) waits until this engine applied that log record, for a bounded time.
// `X-Service-Consistency: linearizable`: in cluster mode, the read first waits until this engine applied
// the shared log up to its last record, asked of the log (SharedLog.sync); one node alone is always there.

import { serializeResponse } from '../exec/serialize-response.js';
import { wireError } from '../errors/wire-error.js';
import type { EngineResponse } from '../api.js';

export const readAfterHeader = 'x-service-read-after';
export const consistencyHeader = 'x-service-consistency';

/**
 * Both headers of a request: undefined, go on now; a response, refused; a promise, resolves undefined
 * once the read may go on, or with the error response.
 */
export function readGate(
  headers: Readonly<Record<string, string>>,
  readAfter: ReadAfter,
  sync: (() => Promise<void>) | undefined,
): EngineResponse | Promise<EngineResponse | undefined> | undefined {
  const after = headers[readAfterHeader];
  const consistency = headers[consistencyHeader];
  const waitLsn = after === undefined ? undefined : readAfter.gate(after);
  if (consistency === undefined || (waitLsn !== undefined && !(waitLsn instanceof Promise))) return waitLsn;
  if (consistency.trim().toLowerCase() !== 'linearizable') {
    return readRefusal(`X-Service-Consistency must be linearizable (reads are local otherwise), got ${JSON.stringify(consistency.slice(0, 64))}`);
  }
  const synced = sync?.().then(
    () => undefined,
    (error: unknown) => readRefusal(`X-Service-Consistency: linearizable: ${error instanceof Error ? error.message : String(error)}`),
  );
  if (synced === undefined) return waitLsn;
  return waitLsn === undefined ? synced : Promise.all([waitLsn, synced]).then(([a, b]) => a ?? b);
}


export class ReadAfter {
  readonly #waiters = new Set<{ readonly lsn: number; readonly resolve: () => void }>();

  constructor(
    private readonly applied: () => number,
    readonly timeoutMs: number,
  ) {}

  /** Told after every commit and replicated batch. */
  advanced(): void {
    if (this.#waiters.size === 0) return;
    const lsn = this.applied();
    for (const waiter of this.#waiters) if (waiter.lsn <= lsn) waiter.resolve();
  }

  /**
   * undefined: go on now. A response: the header is not an LSN. A promise: resolves undefined once the
   * LSN is applied, or with the error response after the timeout.
   */
  gate(value: string): EngineResponse | Promise<EngineResponse | undefined> | undefined {
    if (!/^\d{1,15}$/.test(value.trim())) {
      return readRefusal(`X-Service-Read-After must be a log sequence number (a non-negative integer, as in a mutation answer's extensions.lsn), got ${JSON.stringify(value.slice(0, 64))}`);
    }
    const lsn = Number(value.trim());
    if (this.applied() >= lsn) return undefined;
    return this.until(lsn).then((reached) =>
      reached ? undefined : readRefusal(`X-Service-Read-After: log sequence number ${lsn} was not applied on this node within ${this.timeoutMs} ms (applied: ${this.applied()})`),
    );
  }

  /** Resolves true once `lsn` is applied (at once if it is), false after `timeoutMs` (a replica thread's catch-up too). */
  until(lsn: number, timeoutMs = this.timeoutMs): Promise<boolean> {
    if (this.applied() >= lsn) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        lsn,
        resolve: () => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        resolve(false);
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }
}

/** A read that waited in vain (a header's LSN, a replica thread behind its writer): a request error. */
export function readRefusal(message: string): EngineResponse {
  return { kind: 'request-error', body: serializeResponse({ errors: [wireError(message)] }) };
}
