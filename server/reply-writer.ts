// Writes a Reply: CORS headers, content type, and gzip when the client accepts it and it pays.

import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Exchange } from './exchange.js';
import type { Reply } from './http-types.js';
import { acceptsGzip } from './negotiate.js';

const gzipAsync = promisify(gzip);

/** Bodies smaller than this are sent as they are: gzip would cost more than it saves. */
export const gzipThreshold = 1024;

export const corsHeaders: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers':
    'X-Dgraph-AccessToken, X-Dgraph-AuthToken, Content-Type, Content-Length, Accept-Encoding, Cache-Control, X-CSRF-Token, X-Auth-Token, X-Requested-With',
  'Access-Control-Allow-Credentials': 'true',
};

/**
 * CORS + content type (+ Vary, + gzip), merged once per combination: most replies add nothing else.
 * Per content type (a few constant strings), four variants indexed by large | gzipped << 1.
 */
const mergedHeaders = new Map<string | undefined, (Readonly<Record<string, string>> | undefined)[]>();

function baseHeaders(contentType: string | undefined, large = false, gzipped = false): Readonly<Record<string, string>> {
  let variants = mergedHeaders.get(contentType);
  if (variants === undefined) mergedHeaders.set(contentType, (variants = []));
  const index = (large ? 1 : 0) | (gzipped ? 2 : 0);
  let headers = variants[index];
  if (headers === undefined) {
    headers = {
      ...corsHeaders,
      ...(contentType === undefined ? {} : { 'Content-Type': contentType }),
      ...(large ? { Vary: 'Accept-Encoding' } : {}),
      ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}),
    };
    variants[index] = headers;
  }
  return headers;
}

/** Writes the reply at once, or once gzipped: then the promise of that (most replies need no await). */
export function sendReply(exchange: Exchange, reply: Reply, closeConnection = false): Promise<void> | undefined {
  if (!exchange.open) return undefined;
  const large = longerThan(reply.body, gzipThreshold);
  const gzipped = large && acceptsGzip(exchange.header('accept-encoding'));
  const base = baseHeaders(reply.contentType, large, gzipped);
  const headers = reply.headers === undefined ? base : { ...base, ...reply.headers };
  if (!gzipped) {
    exchange.write(reply.status, headers, reply.body, closeConnection);
    return undefined;
  }
  return gzipAsync(reply.body).then((body) => exchange.write(reply.status, headers, body, closeConnection));
}

/** UTF-8 byte length > limit, without measuring short strings (a UTF-16 unit is 1-3 UTF-8 bytes). */
function longerThan(text: string | Uint8Array, limit: number): boolean {
  if (text.length > limit) return true;
  if (typeof text !== 'string') return false;
  if (text.length * 3 <= limit) return false;
  return Buffer.byteLength(text) > limit;
}
