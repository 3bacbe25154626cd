// One request/response pair: remembers whether the client went away, writes the answer exactly once
// (corked), and tells the server when it is settled so shutdown can wait for in-flight requests.

import type { IncomingRequest, ResponseSink } from './http-types.js';
import { statusText } from './http-types.js';

export class Exchange {
  #aborted = false;
  #settled = false;
  readonly #abortListeners: (() => void)[] = [];

  constructor(
    readonly request: IncomingRequest,
    readonly sink: ResponseSink,
    private readonly onSettled: () => void,
  ) {
    sink.onAborted(() => {
      this.#aborted = true;
      for (const listener of this.#abortListeners) listener();
      this.#settle();
    });
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  get open(): boolean {
    return !this.#aborted && !this.#settled;
  }

  header(name: string): string | undefined {
    return this.request.headers[name];
  }

  onAbort(listener: () => void): void {
    this.#abortListeners.push(listener);
  }

  /** Writes status, headers and body in one corked batch; does nothing if the client is gone. */
  write(status: number, headers: Readonly<Record<string, string>>, body: string | Uint8Array, closeConnection = false): void {
    if (!this.open) return;
    this.sink.cork(() => {
      this.sink.writeStatus(`${status} ${statusText[status] ?? ''}`.trimEnd());
      for (const [key, value] of Object.entries(headers)) this.sink.writeHeader(key, value);
      this.sink.end(body, closeConnection);
    });
    this.#settle();
  }

  #settle(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.onSettled();
  }
}
