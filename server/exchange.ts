// One request/response pair: remembers whether the client went away, writes the answer exactly once
// (corked), and tells the server when it is settled so shutdown can wait for in-flight requests.

import type { EdgeHeaderName, IncomingRequest, ResponseSink } from './http-types.js';
import { statusText } from './http-types.js';
import { requestIdFor } from './request-id.js';

/**
 * A response's headers as one pre-encoded block: the first name, and its value followed by the other
 * `\r\nName: value` lines. uWS writes a header's name and value verbatim, so the whole block goes
 * out in one native call instead of one per header, each of which costs a call and a backing-store
 * lookup per argument. Built once per headers object (replies reuse a few merged objects).
 */
export interface HeaderBlock {
  readonly name: Uint8Array;
  readonly value: Uint8Array;
}

/** A header that changes with every answer, so is not worth caching as part of a block. */
export interface ExtraHeader {
  readonly name: Uint8Array;
  readonly value: string;
}

const headerBlocks = new WeakMap<Readonly<Record<string, string>>, HeaderBlock | null>();
/** Printable ASCII and tab only: anything else could end the line once written as bytes (Latin-1 keeps the low byte). */
const unsafeHeaderText = /[^\t\x20-\x7e]/;

/** The block for `headers`; null for none. Refuses CR/LF (or what encodes to them) anywhere: they would start a header of their own. */
export function headerBlock(headers: Readonly<Record<string, string>>): HeaderBlock | null {
  let block = headerBlocks.get(headers);
  if (block !== undefined) return block;
  const entries = Object.entries(headers);
  for (const [name, value] of entries) {
    if (unsafeHeaderText.test(name) || unsafeHeaderText.test(value)) throw new Error(`header ${JSON.stringify(name)} contains a line break or a character that is not printable ASCII`);
  }
  const [first, ...rest] = entries;
  block =
    first === undefined
      ? null
      : {
          name: Buffer.from(first[0], 'latin1'),
          value: Buffer.from([first[1], ...rest.map(([name, value]) => `${name}: ${value}`)].join('\r\n'), 'latin1'),
        };
  headerBlocks.set(headers, block);
  return block;
}

const requestIdHeader = Buffer.from('X-Request-Id', 'latin1');

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
  /** Inside a uWS callback (the request handler, a body chunk): uWS has corked the socket itself. */
  #inCallback = false;
  #abortListeners: (() => void)[] | undefined;
  /** The GraphQL operation type, as request-figures.ts `operations` numbers it (0: none), for /metrics. */
  operation = 0;
  /** The GraphQL operation's name, when the client named one (for the request line). */
  operationName: string | null | undefined = undefined;
  /** The answer carries GraphQL errors (for /metrics' outcome). */
  graphqlErrors = false;
  /** The answer is an internal error (its request line is always written). */
  failed = false;
  /** The client's X-Request-Id when safe, else a generated one: on the answer, its log lines and an internal error's text. */
  readonly requestId: string;

  constructor(
    readonly request: IncomingRequest,
    readonly sink: ResponseSink,
    private readonly onSettled: () => void,
  ) {
    this.requestId = requestIdFor(request.headers['x-request-id']);
    sink.onAborted(() => {
      this.#aborted = true;
      for (const listener of this.#abortListeners ?? []) listener();
      this.#settle();
    });
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  get open(): boolean {
    return !this.#aborted && !this.#settled;
  }

  header(name: EdgeHeaderName): string | undefined {
    return this.request.headers[name];
  }

  onAbort(listener: () => void): void {
    // A literal of one: `[].push` would allocate room for 17 (one body reader is the usual listener).
    if (this.#abortListeners === undefined) this.#abortListeners = [listener];
    else this.#abortListeners.push(listener);
  }

  /** Runs `handler` as part of a uWS callback (the request, a body chunk): what it writes synchronously needs no cork of its own. */
  insideHandler(handler: () => void): void {
    this.#inCallback = true;
    try {
      handler();
    } finally {
      this.#inCallback = false;
    }
  }

  /** Body chunks; an answer written from inside the callback goes out with the socket still corked by uWS. */
  onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): void {
    // insideHandler inlined: no closure per chunk.
    this.sink.onData((chunk, isLast) => {
      this.#inCallback = true;
      try {
        handler(chunk, isLast);
      } finally {
        this.#inCallback = false;
      }
    });
  }

  /**
   * Writes status, headers and body in one corked batch; does nothing if the client is gone. `extra` is
   * one per-answer header (its value printable ASCII, e.g. a number) written beside the cached block.
   */
  write(status: number, headers: Readonly<Record<string, string>>, body: string | Uint8Array, closeConnection = false, extra?: ExtraHeader): void {
    if (!this.open) return;
    const block = headerBlock(headers);
    if (this.#inCallback) this.#writeNow(status, block, body, closeConnection, extra);
    else this.sink.cork(() => this.#writeNow(status, block, body, closeConnection, extra));
    this.#settle();
  }

  /**
   * Streams a 200 answer of `size` bytes read piece by piece (`read(offset)`), with backpressure: the next
   * piece is read once the socket took the last one. Stops when the client goes away.
   */
  async stream(headers: Readonly<Record<string, string>>, size: number, read: (offset: number) => Promise<Uint8Array>): Promise<void> {
    const block = headerBlock(headers);
    for (let offset = 0; this.open && (offset < size || offset === 0); ) {
      let piece: Uint8Array;
      try {
        piece = size === 0 ? new Uint8Array(0) : await read(offset);
      } catch (error) {
        // Part of the answer is out: no other answer can follow, the connection is cut instead.
        if (offset > 0) {
          this.#settle();
          this.sink.close();
        }
        throw error;
      }
      if (!this.open) return;
      let taken = false;
      let done = false;
      const base = this.sink.getWriteOffset();
      this.sink.cork(() => {
        if (offset === 0) {
          if (block !== null) this.sink.writeHeader(block.name, block.value);
          this.sink.writeHeader(requestIdHeader, this.requestId);
        }
        [taken, done] = this.sink.tryEnd(piece, size);
      });
      if (!taken) done = await this.#drained(piece, base, size);
      offset += piece.length;
      if (done || size === 0) break;
    }
    this.#settle();
  }

  /** Waits until uWS took the rest of `piece` (written from `base` on); true when the answer is complete. */
  #drained(piece: Uint8Array, base: number, size: number): Promise<boolean> {
    return new Promise((resolve) => {
      this.onAbort(() => resolve(false));
      this.sink.onWritable((offset) => {
        const [taken, done] = this.sink.tryEnd(piece.subarray(offset - base), size);
        if (taken) resolve(done);
        return taken;
      });
    });
  }

  #writeNow(status: number, block: HeaderBlock | null, body: string | Uint8Array, closeConnection: boolean, extra: ExtraHeader | undefined): void {
    // uWS answers 200 OK unless told otherwise.
    if (status !== 200) this.sink.writeStatus(statusLine(status));
    if (block !== null) this.sink.writeHeader(block.name, block.value);
    if (extra !== undefined) this.sink.writeHeader(extra.name, extra.value);
    this.sink.writeHeader(requestIdHeader, this.requestId);
    this.sink.end(body, closeConnection);
  }

  #settle(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.onSettled();
  }
}
