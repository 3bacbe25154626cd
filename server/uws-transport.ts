// The only file that touches uWebSockets.js. It loads the library, tells the native binary from the
// slow JS shim it silently falls back to, copies each request out synchronously and hands it on, and
// serves WebSocket connections on one path (native binary only) as sessions of text messages.

import { createRequire } from 'node:module';
import type * as Uws from 'uWebSockets.js';
import { edgeHeaderNames, type IncomingRequest, type ResponseSink } from './http-types.js';
import { requestIdFor } from './request-id.js';

export type TransportName = 'uWebSockets.js-native' | 'uWebSockets.js-js-fallback';

/** Must not throw: every failure is answered by the handler itself. */
export type RequestHandler = (request: IncomingRequest, sink: ResponseSink) => void;
/** Answers a request whose handler threw before the router took it (copying it out of uWS, say). */
export type FailureHandler = (error: unknown, sink: ResponseSink) => void;

export interface Listening {
  readonly port: number;
  /** Stops accepting connections; open ones finish their requests. */
  close(): void;
  /**
   * Closes every connection too (idle keep-alive and WebSocket ones): a worker thread must leave no
   * socket open when it exits (libuv aborts the process otherwise).
   */
  closeAll(): void;
}

export interface Transport {
  readonly name: TransportName;
  readonly native: boolean;
  /** `allHeaders` says per request whether to copy every header or only edgeHeaderNames; `sockets`: WebSocket upgrades on one path. */
  listen(host: string, port: number, handler: RequestHandler, failed: FailureHandler, allHeaders?: () => boolean, sockets?: SocketRoute): Promise<Listening>;
}

/** One open WebSocket, as the server writes to it. Calls after it closed do nothing. */
export interface SocketSink {
  /** Sends a text message; false when it was dropped (the client is over the backpressure limit and is being closed). */
  send(text: string): boolean;
  /** Closes with a WebSocket close code and a short reason. */
  close(code: number, reason: string): void;
}

/** What the server does with one connection's messages. */
export interface SocketSession {
  message(text: string): void;
  /** The connection is gone (closed by either side); the sink does nothing from now on. */
  closed(): void;
}

export interface SocketRoute {
  readonly path: string;
  /** Bytes a client may leave unread before it is closed. */
  readonly maxBackpressure: number;
  readonly maxMessageBytes: number;
  /** The subprotocol to speak, from the client's comma-separated offer, or the refusal of the upgrade. */
  choose(offered: string): string | { readonly status: 400 | 503; readonly text: string };
  open(sink: SocketSink, protocol: string, request: IncomingRequest): SocketSession;
}

/** uWS reads this once at load time; its default (4 KiB) is too small for long GET queries. */
const maxHeaderBytes = '65536';

/** `binding`: a stand-in for the native module (bench/micro/request-ab.ts drives the request path with one). */
export function loadTransport(binding?: typeof Uws): Transport {
  process.env['UWS_HTTP_MAX_HEADERS_SIZE'] ??= maxHeaderBytes;
  const uws = binding ?? (createRequire(import.meta.url)('uWebSockets.js') as typeof Uws);
  // The native module exports getParts/SSLApp; the shim does not.
  const native = typeof (uws as Partial<typeof Uws>).getParts === 'function';
  // uWS's documented switch that drops its `uWebSockets: 20` response header (it fingerprints the server).
  if (native) (uws as unknown as { _cfg(key: string): void })._cfg('999999990007');
  return {
    name: native ? 'uWebSockets.js-native' : 'uWebSockets.js-js-fallback',
    native,
    listen: (host, port, handler, failed, allHeaders = () => true, sockets) => listen(uws, native, host, port, handler, failed, allHeaders, sockets),
  };
}

function listen(
  uws: typeof Uws,
  native: boolean,
  host: string,
  port: number,
  handler: RequestHandler,
  failed: FailureHandler,
  allHeaders: () => boolean,
  sockets: SocketRoute | undefined,
): Promise<Listening> {
  const app = uws.App();
  if (sockets !== undefined && native) serveSockets(app, sockets);
  app.any('/*', (res, req) => {
    // The router answers its own failures; a throw before it has the request would take the process
    // down from inside uWS, so it is handed back to the server's catch-all.
    try {
      if (native) handler(snapshot(req, allHeaders()), res);
      else handler(shimSnapshot(req), shimSink(res));
    } catch (error) {
      failed(error, native ? res : shimSink(res));
    }
  });
  return new Promise((resolve, reject) => {
    app.listen(host, port, (socket) => {
      if (socket === false) {
        reject(new Error(`could not listen on ${host}:${port} (address in use or not available)`));
        return;
      }
      resolve({ port: uws.us_socket_local_port(socket as unknown as Uws.us_socket), close: () => uws.us_listen_socket_close(socket), closeAll: () => closeApp(app) });
    });
  });
}

interface SocketData {
  readonly request: IncomingRequest;
  readonly protocol: string;
  session?: SocketSession;
  open: boolean;
}

const socketText = new TextDecoder('utf-8', { fatal: true });

/** WebSocket upgrades on `route.path`: the subprotocol chosen from the client's offer, each connection a session. */
function serveSockets(app: Uws.TemplatedApp, route: SocketRoute): void {
  app.ws<SocketData>(route.path, {
    maxPayloadLength: route.maxMessageBytes,
    maxBackpressure: route.maxBackpressure,
    closeOnBackpressureLimit: 1,
    idleTimeout: 120,
    sendPingsAutomatically: true,
    upgrade: (res, req, context) => {
      const request = snapshot(req, true);
      const protocol = route.choose(req.getHeader('sec-websocket-protocol'));
      if (typeof protocol !== 'string') {
        res
          .writeStatus(protocol.status === 400 ? '400 Bad Request' : '503 Service Unavailable')
          .writeHeader('content-type', 'text/plain; charset=utf-8')
          .writeHeader('X-Request-Id', requestIdFor(request.headers['x-request-id']))
          .end(protocol.text);
        return;
      }
      const data: SocketData = { request, protocol, open: false };
      res.upgrade(data, req.getHeader('sec-websocket-key'), protocol, req.getHeader('sec-websocket-extensions'), context);
    },
    open: (ws) => {
      const data = ws.getUserData();
      data.open = true;
      const sink: SocketSink = {
        send: (text) => data.open && ws.send(text, false) !== 2,
        close: (code, reason) => {
          if (!data.open) return;
          data.open = false;
          ws.end(code, reason);
        },
      };
      data.session = route.open(sink, data.protocol, data.request);
    },
    message: (ws, message) => {
      const data = ws.getUserData();
      let text: string;
      try {
        text = socketText.decode(message);
      } catch {
        text = '\uFFFD'; // not UTF-8: the session answers it as a message it cannot read
      }
      data.session?.message(text);
    },
    close: (ws) => {
      const data = ws.getUserData();
      data.open = false;
      data.session?.closed();
    },
  });
}

/** The edge header names by length: a name uWS hands over is a new string, compared here rather than hashed for a Map. */
const edgeNamesByLength: (string[] | undefined)[] = [];
for (const name of edgeHeaderNames) (edgeNamesByLength[name.length] ??= []).push(name);

/**
 * The edge's own constant for a header name, or undefined: the copy is keyed by the constant instead of
 * the fresh string, so its stores and the edge's reads of it stay on one hidden class.
 */
function edgeName(key: string): string | undefined {
  const names = edgeNamesByLength[key.length];
  if (names === undefined) return undefined;
  for (const name of names) if (name === key) return name;
  return undefined;
}

/** uWS gives methods lower-cased; the common ones are looked up rather than upper-cased per request. */
const upperMethods: ReadonlyMap<string, string> = new Map(['get', 'post', 'options', 'head', 'put', 'delete', 'patch'].map((m) => [m, m.toUpperCase()]));
/** POST and GET compared first: a Map lookup would hash the new string. */
const upperMethod = (method: string): string => (method === 'post' ? 'POST' : method === 'get' ? 'GET' : (upperMethods.get(method) ?? method.toUpperCase()));

function snapshot(req: Uws.HttpRequest, allHeaders: boolean): IncomingRequest {
  const headers: Record<string, string> = {};
  let lengths: string | undefined;
  // One walk over the headers (one native call; a getHeader per edge name cost more). Repeated headers
  // are joined for forwarding; the edge's own keep their first value, as Go's Header.Get (Dgraph) does.
  // uWS 20.30 frames the body by the first Content-Length and ignores later ones; a proxy in front may
  // use another, which is how requests are smuggled: every differing value is collected.
  req.forEach((key, value) => {
    const edge = edgeName(key);
    // Not kept at all (Host, User-Agent, ...): no lookup in the copy (content-length is an edge header).
    if (edge === undefined && !allHeaders) return;
    const name = edge ?? key;
    const previous = headers[name];
    if (previous === undefined) {
      headers[name] = value;
      return;
    }
    if (name === 'content-length' && value !== previous) lengths = `${lengths ?? previous}, ${value}`;
    if (edge === undefined) headers[name] = `${previous}, ${value}`;
  });
  const request = { method: upperMethod(req.getMethod()), path: req.getUrl(), query: req.getQuery() ?? '', headers };
  return lengths === undefined ? request : { ...request, conflictingLengths: lengths };
}

// The JS shim lacks forEach/pause/resume and its getUrl() includes the query string; it wraps a Node
// IncomingMessage, which is where its headers are read from. Only used with --allow-js-fallback.

interface ShimRequest {
  readonly request: { readonly headers: Readonly<Record<string, string | string[] | undefined>> };
}

function shimSnapshot(req: Uws.HttpRequest): IncomingRequest {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries((req as unknown as ShimRequest).request.headers)) {
    if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  const url = req.getUrl();
  const mark = url.indexOf('?');
  return {
    method: req.getMethod().toUpperCase(),
    path: mark < 0 ? url : url.slice(0, mark),
    query: mark < 0 ? '' : url.slice(mark + 1),
    headers,
  };
}

function shimSink(res: Uws.HttpResponse): ResponseSink {
  return {
    onAborted: (handler) => res.onAborted(handler),
    onData: (handler) => res.onData(handler),
    cork: (callback) => res.cork(callback),
    // The shim wants strings where the native binary also takes pre-encoded bytes.
    writeStatus: (status) => res.writeStatus(latin1(status)),
    writeHeader: (key, value) => {
      // A header block (exchange.ts) holds several headers; the shim sets them one by one.
      const [first = '', ...lines] = latin1(value).split('\r\n');
      res.writeHeader(latin1(key), first);
      for (const line of lines) {
        const colon = line.indexOf(': ');
        res.writeHeader(line.slice(0, colon), line.slice(colon + 2));
      }
    },
    end: (body, closeConnection) => res.end(body, closeConnection),
    pause: () => undefined,
    resume: () => undefined,
    tryEnd: (chunk, totalSize) => res.tryEnd(chunk, totalSize),
    getWriteOffset: () => res.getWriteOffset(),
    onWritable: (handler) => res.onWritable(handler),
    close: () => res.close(),
  };
}

function latin1(text: string | Uint8Array): string {
  return typeof text === 'string' ? text : Buffer.from(text).toString('latin1');
}

/** uWS's `App.close()` (every listen socket and connection), present in the binary though not in its types. */
function closeApp(app: Uws.TemplatedApp): void {
  const closable = app as unknown as { close?: () => void };
  if (typeof closable.close === 'function') closable.close();
}
