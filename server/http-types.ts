// Transport-neutral shapes: what the routes see of a request and the part of a response they drive.
// The uWebSockets.js objects satisfy `ResponseSink` structurally; only uws-transport.ts imports the library.

/**
 * The request headers the HTTP edge itself reads. Copying a header out of uWS costs a call back into
 * JS per header, so the transport copies only these unless the engine reads headers too
 * (`Engine.readsRequestHeaders`); `Exchange.header` accepts only these names.
 */
export const edgeHeaderNames = ['content-type', 'content-length', 'content-encoding', 'accept', 'accept-encoding', 'x-auth-token', 'origin', 'x-dgraph-accesstoken', 'x-service-accesstoken', 'if-none-match', 'x-request-id', 'x-service-read-after', 'x-service-consistency'] as const;
export type EdgeHeaderName = (typeof edgeHeaderNames)[number];

/** A request copied out of the transport synchronously (uWS request objects die after the handler returns). */
export interface IncomingRequest {
  /** Upper-case method, e.g. `POST`. */
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  /** Raw query string without `?`. */
  readonly query: string;
  /**
   * Lower-cased header names → values: all of them, or only edgeHeaderNames (chosen when the request
   * arrives, by the schema then served). Repeated headers are joined with `, `, except the edge's own,
   * which keep their first value.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** Set when the request carries Content-Length values that differ (all of them, comma-separated). */
  readonly conflictingLengths?: string;
}

/** The subset of uWS `HttpResponse` the server uses. */
export interface ResponseSink {
  onAborted(handler: () => void): unknown;
  onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): unknown;
  cork(callback: () => void): unknown;
  /** Only for a status other than 200 (uWS writes `200 OK` by default). */
  writeStatus(status: string | Uint8Array): unknown;
  /** `value` may go on with further `\r\nName: value` lines (exchange.ts's HeaderBlock), written verbatim. */
  writeHeader(key: string | Uint8Array, value: string | Uint8Array): unknown;
  end(body?: string | Uint8Array, closeConnection?: boolean): unknown;
  pause(): void;
  resume(): void;
  /** A streamed body (exchange.ts `stream`): [ok: all of it taken, done]; uWS's `tryEnd`. */
  tryEnd(chunk: Uint8Array, totalSize: number): [boolean, boolean];
  getWriteOffset(): number;
  /** Called when the socket drained; return true once the rest was taken. */
  onWritable(handler: (offset: number) => boolean): unknown;
  /** Closes the connection at once (a streamed answer that cannot be finished: the client sees it cut short). */
  close(): unknown;
}

/** A finished answer, before content encoding. */
export interface Reply {
  readonly status: number;
  readonly contentType?: string;
  /** JSON text, or the same already encoded as UTF-8 (sent as it is). */
  readonly body: string | Uint8Array;
  /** `body` gzipped ahead (static files): sent to a client that accepts gzip instead of compressing per request. */
  readonly gzippedBody?: Uint8Array;
  readonly headers?: Readonly<Record<string, string>>;
  /** `@cacheControl(maxAge)` of the query: `Cache-Control: public,max-age=N`, `Vary: Accept-Encoding`. */
  readonly cacheMaxAge?: number;
  /** /graphql answers: the `Graphql-TouchedUids` header. */
  readonly touchedUids?: number;
  /** A 200 answer too large for memory (a snapshot file), streamed instead of `body` (then empty). */
  readonly stream?: StreamedBody;
}

/** `size` bytes read piece by piece as the socket takes them; `close` once sent or abandoned. */
export interface StreamedBody {
  readonly size: number;
  read(offset: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

export const statusText: Readonly<Record<number, string>> = {
  200: 'OK',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
