// `X-Service-Read-After: <lsn>`: a read that must see a write another node acknowledged (its answer's
// `extensions.lsn`) waits until this engine applied that log record, for a bounded time.

import { serializeResponse } from '../exec/serialize-response.js';
import { wireError } from '../errors/wire-error.js';
import type { EngineResponse } from '../api.js';

export const readAfterHeader = 'x-service-read-after';

export class ReadAfter {
  readonly #waiters = new Set<{ readonly lsn: number; readonly resolve: () => void }>();

  constructor(
    private readonly applied: () => number,
    private readonly timeoutMs: number,
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
      return refusal(`X-Service-Read-After must be a log sequence number (a non-negative integer, as in a mutation answer's extensions.lsn), got ${JSON.stringify(value.slice(0, 64))}`);
    }
    const lsn = Number(value.trim());
    if (this.applied() >= lsn) return undefined;
    return new Promise((resolve) => {
      const waiter = {
        lsn,
        resolve: () => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          resolve(undefined);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        resolve(refusal(`X-Service-Read-After: log sequence number ${lsn} was not applied on this node within ${this.timeoutMs} ms (applied: ${this.applied()})`));
      }, this.timeoutMs);
      this.#waiters.add(waiter);
    });
  }
}

function refusal(message: string): EngineResponse {
  return { kind: 'request-error', body: serializeResponse({ errors: [wireError(message)] }) };
}
