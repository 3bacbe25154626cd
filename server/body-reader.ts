// Reads a request body from the transport: capped (413 as soon as the cap is passed, nothing buffered
// beyond it), optionally gzip-decoded with the same cap on the decoded size.

import type { Exchange } from './exchange.js';
import { BoundedGunzip } from './gunzip-bounded.js';
import { refusals } from './responses.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Gets the body (or the refusal that stopped it) once it has arrived. */
export type BodyCallback = (error: unknown, text: string) => void;

/**
 * Calls `done` with the body as text (UTF-8, decoded once; 400 if it is not UTF-8) or with the refusal.
 * An identity body is handed on from inside uWS's data callback, with no promise in between, so the
 * answer can be written while the socket is still corked.
 */
export function readBody(exchange: Exchange, maxBytes: number, done: BodyCallback): void {
  let encoding: 'identity' | 'gzip';
  try {
    encoding = contentEncoding(exchange, maxBytes);
  } catch (error) {
    done(error, '');
    return;
  }
  if (encoding === 'identity') readRaw(exchange, maxBytes, done);
  else
    readGzip(exchange, maxBytes)
      .then(decodeUtf8)
      .then(
        (text) => done(undefined, text),
        (error: unknown) => done(error, ''),
      );
}

/** `readBody` as a promise, for the routes that wait on the body anyway. */
export function readBodyText(exchange: Exchange, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => readBody(exchange, maxBytes, (error, text) => (error === undefined ? resolve(text) : reject(error as Error))));
}

/** Takes uWS's ArrayBuffer as it is: a Uint8Array view of it would cost ~40 ns more per request. */
function decodeUtf8(body: ArrayBuffer | Uint8Array): string {
  try {
    return utf8.decode(body);
  } catch {
    throw refusals.notValidBody('the body is not valid UTF-8');
  }
}

/** 413 for a declared length over the cap, 415 for an encoding other than identity or gzip. */
function contentEncoding(exchange: Exchange, maxBytes: number): 'identity' | 'gzip' {
  const declared = exchange.header('content-length');
  // The number first: the pattern is only tested for a length over the cap (NaN compares false).
  if (declared !== undefined && Number(declared) > maxBytes && /^\d+$/.test(declared)) {
    throw refusals.tooLarge(maxBytes);
  }
  const header = exchange.header('content-encoding');
  if (header === undefined) return 'identity';
  const encoding = header.trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return 'identity';
  if (encoding === 'gzip' || encoding === 'x-gzip') return 'gzip';
  throw refusals.unsupportedEncoding(encoding);
}

/**
 * The body decoded. One that comes in one chunk (most do) is decoded straight from uWS's chunk, which
 * is valid only during the callback: no copy, no concatenation.
 */
function readRaw(exchange: Exchange, maxBytes: number, done: BodyCallback): void {
  let chunks: Buffer[] | undefined;
  let size = 0;
  let finished = false;
  const finish = (error: unknown, text: string): void => {
    finished = true;
    chunks = undefined;
    done(error, text);
  };
  exchange.onAbort(() => {
    if (!finished) finish(refusals.couldNotRead('the client closed the connection'), '');
  });
  exchange.onData((chunk, isLast) => {
    if (finished) return;
    size += chunk.byteLength;
    if (size > maxBytes) {
      finish(refusals.tooLarge(maxBytes), '');
      return;
    }
    let body: ArrayBuffer | Uint8Array;
    if (isLast && chunks === undefined) {
      body = chunk;
    } else {
      if (chunk.byteLength > 0) (chunks ??= []).push(copy(chunk));
      if (!isLast) return;
      body = chunks === undefined ? new Uint8Array(0) : Buffer.concat(chunks, size);
    }
    let text: string;
    try {
      text = decodeUtf8(body);
    } catch (error) {
      finish(error, '');
      return;
    }
    finish(undefined, text);
  });
}

function readGzip(exchange: Exchange, maxBytes: number): Promise<Buffer> {
  const gunzip = new BoundedGunzip(maxBytes);
  let size = 0;
  let paused = false;
  exchange.onAbort(() => gunzip.fail(refusals.couldNotRead('the client closed the connection')));
  gunzip.onDrain(() => {
    if (paused && exchange.open) {
      paused = false;
      exchange.sink.resume();
    }
  });
  exchange.onData((chunk, isLast) => {
    size += chunk.byteLength;
    if (size > maxBytes) {
      gunzip.fail(refusals.tooLarge(maxBytes));
      return;
    }
    if (chunk.byteLength > 0 && !gunzip.write(copy(chunk)) && !isLast && !paused && exchange.open) {
      paused = true;
      exchange.sink.pause();
    }
    if (isLast) gunzip.end();
  });
  return gunzip.result.catch((error: unknown) => {
    if (paused && exchange.open) exchange.sink.resume();
    paused = false;
    throw error;
  });
}

/** uWS chunks are only valid during the callback: copy them out. */
function copy(chunk: ArrayBuffer): Buffer {
  return Buffer.from(new Uint8Array(chunk));
}
