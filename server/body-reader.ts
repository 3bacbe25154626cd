// Reads a request body from the transport: capped (413 as soon as the cap is passed, nothing buffered
// beyond it), optionally gzip-decoded with the same cap on the decoded size.

import type { Exchange } from './exchange.js';
import { BoundedGunzip } from './gunzip-bounded.js';
import { HttpError, httpMessages } from './http-error.js';

export function readBody(exchange: Exchange, maxBytes: number): Promise<Buffer> {
  const declared = exchange.header('content-length');
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
    return Promise.reject(new HttpError(413, httpMessages.tooLarge(maxBytes)));
  }
  const encoding = (exchange.header('content-encoding') ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return readRaw(exchange, maxBytes);
  if (encoding === 'gzip' || encoding === 'x-gzip') return readGzip(exchange, maxBytes);
  return Promise.reject(new HttpError(415, httpMessages.unsupportedEncoding(encoding)));
}

function readRaw(exchange: Exchange, maxBytes: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    exchange.onAbort(() => {
      done = true;
      reject(new HttpError(400, httpMessages.couldNotRead('the client closed the connection')));
    });
    exchange.sink.onData((chunk, isLast) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        done = true;
        chunks.length = 0;
        reject(new HttpError(413, httpMessages.tooLarge(maxBytes)));
        return;
      }
      if (chunk.byteLength > 0) chunks.push(copy(chunk));
      if (isLast) {
        done = true;
        resolve(Buffer.concat(chunks, size));
      }
    });
  });
}

function readGzip(exchange: Exchange, maxBytes: number): Promise<Buffer> {
  const gunzip = new BoundedGunzip(maxBytes);
  let size = 0;
  let paused = false;
  exchange.onAbort(() => gunzip.fail(new HttpError(400, httpMessages.couldNotRead('the client closed the connection'))));
  gunzip.onDrain(() => {
    if (paused && exchange.open) {
      paused = false;
      exchange.sink.resume();
    }
  });
  exchange.sink.onData((chunk, isLast) => {
    size += chunk.byteLength;
    if (size > maxBytes) {
      gunzip.fail(new HttpError(413, httpMessages.tooLarge(maxBytes)));
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
