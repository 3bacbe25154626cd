// One request/response pair: remembers whether the client went away, writes the answer exactly once
// (corked), and tells the server when it is settled so shutdown can wait for in-flight requests.

import type { IncomingRequest, ResponseSink } from './http-types.js';
import { statusText } from './http-types.js';

/**
 * Header names and values as UTF-8 bytes, encoded once: the same few strings (CORS, content types)
 * go out with every response, and handing uWS bytes spares a string conversion per header.
 */
const encodedStrings = new Map<string, Uint8Array>();
const maxEncodedStrings = 512;

function encoded(text: string): Uint8Array | string {
  const cached = encodedStrings.get(text);
  if (cached !== undefined) return cached;
  if (encodedStrings.size >= maxEncodedStrings) return text;
  const bytes = Buffer.from(text, 'latin1');
  encodedStrings.set(text, bytes);
  return bytes;
}

const statusLines = new Map<number, Uint8Array>();

function statusLine(status: number): Uint8Array {
  let line = statusLines.get(status);
  if (line === undefined) {
    line = Buffer.from(`${status} ${statusText[status] ?? ''}`.trimEnd(), 'latin1');
    statusLines.set(status, line);
  }
  return line;
}

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
      this.sink.writeStatus(statusLine(status));
      for (const key in headers) this.sink.writeHeader(encoded(key), encoded(headers[key] as string));
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
