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

/** CORS + content type, merged once per content type (the common reply has no other header). */
const plainHeaders = new Map<string | undefined, Readonly<Record<string, string>>>();

function baseHeaders(contentType: string | undefined): Readonly<Record<string, string>> {
  let headers = plainHeaders.get(contentType);
  if (headers === undefined) {
    headers = contentType === undefined ? corsHeaders : { ...corsHeaders, 'Content-Type': contentType };
    plainHeaders.set(contentType, headers);
  }
  return headers;
}

export async function sendReply(exchange: Exchange, reply: Reply, closeConnection = false): Promise<void> {
  if (!exchange.open) return;
  const large = longerThan(reply.body, gzipThreshold);
  if (!large && reply.headers === undefined) {
    exchange.write(reply.status, baseHeaders(reply.contentType), reply.body, closeConnection);
    return;
  }
  const headers: Record<string, string> = { ...baseHeaders(reply.contentType), ...reply.headers };
  let body: string | Uint8Array = reply.body;
  if (large) {
    headers['Vary'] = 'Accept-Encoding';
    if (acceptsGzip(exchange.header('accept-encoding'))) {
      body = await gzipAsync(reply.body);
      headers['Content-Encoding'] = 'gzip';
    }
  }
  exchange.write(reply.status, headers, body, closeConnection);
}

/** UTF-8 byte length > limit, without measuring short strings (a UTF-16 unit is 1-3 UTF-8 bytes). */
function longerThan(text: string | Uint8Array, limit: number): boolean {
  if (text.length > limit) return true;
  if (typeof text !== 'string') return false;
  if (text.length * 3 <= limit) return false;
  return Buffer.byteLength(text) > limit;
}
