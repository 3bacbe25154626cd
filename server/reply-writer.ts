// Writes a Reply: CORS headers, content type, Cache-Control, Graphql-TouchedUids, and gzip when the
// client accepts it and it pays.

import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Exchange, ExtraHeader } from './exchange.js';
import type { Reply, StreamedBody } from './http-types.js';
import { acceptsGzip } from './negotiate.js';
import { staticCorsHeaders, type HeaderSet } from './cors-headers.js';

const gzipAsync = promisify(gzip);

/** Bodies smaller than this are sent as they are: gzip would cost more than it saves. */
const gzipThreshold = 1024;

/**
 * CORS + content type (+ Vary, + Cache-Control, + gzip), merged once per combination: most replies add
 * nothing else. Per CORS set (a few objects), per content type and maxAge, four variants indexed by
 * large | gzipped << 1.
 */
const mergedHeaders = new WeakMap<HeaderSet, Map<string | number | undefined, (HeaderSet | undefined)[]>>();

function baseHeaders(cors: HeaderSet, contentType: string | undefined, maxAge: number | undefined, large: boolean, gzipped: boolean): HeaderSet {
  let byType = mergedHeaders.get(cors);
  if (byType === undefined) mergedHeaders.set(cors, (byType = new Map()));
  // A maxAge is rare: only then is a combined key built.
  const key = maxAge === undefined ? contentType : `${contentType ?? ''}\0${maxAge}`;
  let variants = byType.get(key);
  if (variants === undefined) byType.set(key, (variants = []));
  const index = (large ? 1 : 0) | (gzipped ? 2 : 0);
  let headers = variants[index];
  if (headers === undefined) {
    // Dgraph's @cacheControl answer says Vary: Accept-Encoding; so does any answer that may be gzipped.
    const vary = [cors['Vary'], large || maxAge !== undefined ? 'Accept-Encoding' : undefined].filter((v) => v !== undefined).join(', ');
    headers = {
      ...cors,
      ...(contentType === undefined ? {} : { 'Content-Type': contentType }),
      ...(maxAge === undefined ? {} : { 'Cache-Control': `public,max-age=${maxAge}` }),
      ...(vary === '' ? {} : { Vary: vary }),
      ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}),
    };
    variants[index] = headers;
  }
  return headers;
}

const touchedUidsHeader = Buffer.from('Graphql-TouchedUids', 'latin1');
/** Counts below this get a merged headers object of their own (cached), so the block goes out in one call. */
const cachedTouchedCounts = 64;
const withTouched = new WeakMap<HeaderSet, HeaderSet[]>();

function headersWithTouched(headers: HeaderSet, touched: number): HeaderSet {
  let byCount = withTouched.get(headers);
  if (byCount === undefined) withTouched.set(headers, (byCount = []));
  return (byCount[touched] ??= { ...headers, 'Graphql-TouchedUids': String(touched) });
}

/** Writes the reply at once, or once gzipped: then the promise of that (most replies need no await). */
export function sendReply(exchange: Exchange, reply: Reply, cors: HeaderSet = staticCorsHeaders): Promise<void> | undefined {
  if (reply.stream !== undefined) return sendStream(exchange, reply, reply.stream, cors);
  if (!exchange.open) return undefined;
  const large = longerThan(reply.body, gzipThreshold);
  const gzipped = large && acceptsGzip(exchange.header('accept-encoding'));
  const base = baseHeaders(cors, reply.contentType, reply.cacheMaxAge, large, gzipped);
  let headers = reply.headers === undefined ? base : { ...base, ...reply.headers };
  // The count differs per answer: a small one is part of a cached block, a large one its own header call.
  const touched = reply.touchedUids;
  let extra: ExtraHeader | undefined;
  if (touched !== undefined) {
    if (touched < cachedTouchedCounts && reply.headers === undefined) headers = headersWithTouched(base, touched);
    else extra = { name: touchedUidsHeader, value: String(touched) };
  }
  const ready = gzipped ? reply.gzippedBody : reply.body;
  if (ready !== undefined) {
    exchange.write(reply.status, headers, ready, false, extra);
    return undefined;
  }
  return gzipAsync(reply.body).then((body) => exchange.write(reply.status, headers, body, false, extra));
}

function sendStream(exchange: Exchange, reply: Reply, stream: StreamedBody, cors: HeaderSet): Promise<void> {
  const headers = { ...baseHeaders(cors, reply.contentType, undefined, false, false), ...reply.headers };
  const sending = exchange.open ? exchange.stream(headers, stream.size, (offset) => stream.read(offset)) : Promise.resolve();
  return sending.finally(() => stream.close());
}

/** UTF-8 byte length > limit, without measuring short strings (a UTF-16 unit is 1-3 UTF-8 bytes). */
function longerThan(text: string | Uint8Array, limit: number): boolean {
  if (text.length > limit) return true;
  if (typeof text !== 'string') return false;
  if (text.length * 3 <= limit) return false;
  return Buffer.byteLength(text) > limit;
}
