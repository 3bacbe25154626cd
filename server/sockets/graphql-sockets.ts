// GraphQL subscriptions over WebSocket on /graphql, in both subprotocols clients speak:
// `graphql-transport-ws` (the graphql-ws library's protocol, the current standard) and the legacy
// `graphql-ws` of subscriptions-transport-ws (what Dgraph speaks). Each connection is one session:
// its `connection_init` payload's string entries act as request headers (the JWT of `@auth`, the ACL
// token) over the upgrade request's own; each operation is a live subscription of the engine, whose
// answers are pushed as commits change them. With keys on (--client-key/--admin-key, no anonymous
// access), `X-Auth-Token` is checked as HTTP checks it, from the upgrade's headers or the init payload.

import type { Engine, GraphQLRequest, SubscriptionEvent, WireError } from '../../engine/index.js';
import { authHeader, type KeyChecker } from '../auth.js';
import type { IncomingRequest } from '../http-types.js';
import type { SocketRoute, SocketSession, SocketSink } from '../uws-transport.js';

export const transportWs = 'graphql-transport-ws';
export const legacyWs = 'graphql-ws';

export interface SocketLimits {
  /** Open connections at most (0: none accepted); more are refused with 503. */
  readonly maxConnections: number;
  /** Milliseconds a client has to send `connection_init`. */
  readonly initTimeoutMs: number;
  readonly maxSubscriptions: number;
  readonly maxMessageBytes: number;
  readonly maxBackpressure: number;
  /** Milliseconds between the legacy protocol's `ka` keep-alives. */
  readonly keepAliveMs: number;
  /**
   * The open-connection count, on shared memory when threads share `maxConnections` (`--threads`: the
   * limit is the process's; threads accepting at the same instant may pass it by one each).
   */
  readonly openCount?: Int32Array;
}

export const defaultSocketLimits: SocketLimits = { maxConnections: 10_000, initTimeoutMs: 10_000, maxSubscriptions: 100, maxMessageBytes: 1 << 20, maxBackpressure: 1 << 20, keepAliveMs: 15_000 };

/** Open sessions of this process, and clients closed for not reading: read by GET /metrics when scraped. */
const sessions = new Set<GraphqlSocket>();
let slowClientsClosed = 0;

export function socketFigures(): { readonly connections: number; readonly subscriptions: number; readonly slowClientsClosed: number } {
  let subscriptions = 0;
  for (const session of sessions) subscriptions += session.subscriptions;
  return { connections: sessions.size, subscriptions, slowClientsClosed };
}

export function graphqlSockets(engine: Engine, keys: KeyChecker, limits: SocketLimits = defaultSocketLimits): SocketRoute {
  const open = limits.openCount ?? new Int32Array(1);
  return {
    path: '/graphql',
    maxBackpressure: limits.maxBackpressure,
    maxMessageBytes: limits.maxMessageBytes,
    choose: (offered) => {
      if (Atomics.load(open, 0) >= limits.maxConnections) return { status: 503, text: `too many WebSocket connections (at most ${limits.maxConnections})\n` };
      const protocol = offered
        .split(',')
        .map((p) => p.trim())
        .find((p) => p === transportWs || p === legacyWs);
      return protocol ?? { status: 400, text: `WebSocket connections on /graphql need the subprotocol ${transportWs} or ${legacyWs}\n` };
    },
    open: (sink, protocol, request) => {
      Atomics.add(open, 0, 1);
      const session: GraphqlSocket = new GraphqlSocket(engine, keys, limits, sink, protocol === transportWs, request, () => {
        Atomics.sub(open, 0, 1);
        sessions.delete(session);
      });
      sessions.add(session);
      return session;
    },
  };
}

type Message = Readonly<Record<string, unknown>>;

/** Close codes of graphql-transport-ws (its PROTOCOL.md). */
const closes = {
  badMessage: 4400,
  unauthorized: 4401,
  forbidden: 4403,
  initTimeout: 4408,
  duplicateId: 4409,
  tooManyInits: 4429,
} as const;

class GraphqlSocket implements SocketSession {
  /** `connection_init` was received (and acknowledged: an init that is not is a closing error). */
  #initialised = false;
  #headers: Readonly<Record<string, string>>;
  readonly #operations = new Map<string, () => void>();
  #initTimer: NodeJS.Timeout | undefined;
  #keepAlive: NodeJS.Timeout | undefined;
  #closed = false;
  #dropped = false;

  constructor(
    private readonly engine: Engine,
    private readonly keys: KeyChecker,
    private readonly limits: SocketLimits,
    private readonly sink: SocketSink,
    /** graphql-transport-ws; else the legacy graphql-ws. */
    private readonly modern: boolean,
    request: IncomingRequest,
    private readonly gone: () => void,
  ) {
    this.#headers = withoutHandshake(request.headers);
    this.#initTimer = setTimeout(() => this.#close(closes.initTimeout, 'Connection initialisation timeout'), limits.initTimeoutMs);
    this.#initTimer.unref();
  }

  message(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      message = undefined;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message) || typeof (message as Message)['type'] !== 'string') {
      if (this.modern) this.#close(closes.badMessage, 'Invalid message received');
      else this.#send({ type: 'connection_error', payload: { message: 'invalid message: not a JSON object with a type' } });
      return;
    }
    if (this.modern) this.#modern(message as Message);
    else this.#legacy(message as Message);
  }

  get subscriptions(): number {
    return this.#operations.size;
  }

  closed(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.gone();
    clearTimeout(this.#initTimer);
    clearInterval(this.#keepAlive);
    for (const stop of this.#operations.values()) stop();
    this.#operations.clear();
  }

  #modern(message: Message): void {
    const { type, id } = message;
    switch (type) {
      case 'connection_init':
        if (this.#initialised) return this.#close(closes.tooManyInits, 'Too many initialisation requests');
        if (!this.#init(message['payload'])) return this.#close(closes.badMessage, 'Invalid message received');
        if (this.#keyRefusal() !== undefined) return this.#close(closes.forbidden, 'Forbidden');
        this.#send({ type: 'connection_ack' });
        return;
      case 'ping':
        this.#send(message['payload'] === undefined ? { type: 'pong' } : { type: 'pong', payload: message['payload'] });
        return;
      case 'pong':
        return;
      case 'subscribe': {
        if (!this.#initialised) return this.#close(closes.unauthorized, 'Unauthorized');
        const request = typeof id === 'string' && id !== '' ? this.#request(message['payload']) : undefined;
        if (request === undefined || typeof id !== 'string') return this.#close(closes.badMessage, 'Invalid message received');
        if (this.#operations.has(id)) return this.#close(closes.duplicateId, `Subscriber for ${id} already exists`);
        this.#start(id, request);
        return;
      }
      case 'complete':
        if (typeof id === 'string') this.#stop(id);
        return;
      default:
        this.#close(closes.badMessage, `Invalid message received`);
    }
  }

  #legacy(message: Message): void {
    const { type, id } = message;
    switch (type) {
      case 'connection_init':
        if (!this.#init(message['payload'])) {
          this.#send({ type: 'connection_error', payload: { message: 'invalid payload for type: connection_init' } });
          return;
        }
        {
          const refusal = this.#keyRefusal();
          if (refusal !== undefined) {
            this.#send({ type: 'connection_error', payload: { message: refusal } });
            return this.#close(closes.forbidden, 'Forbidden');
          }
        }
        this.#send({ type: 'connection_ack' });
        this.#send({ type: 'ka' });
        clearInterval(this.#keepAlive); // a repeated connection_init (the legacy protocol allows it) keeps one timer
        this.#keepAlive = setInterval(() => this.#send({ type: 'ka' }), this.limits.keepAliveMs);
        this.#keepAlive.unref();
        return;
      case 'start': {
        if (typeof id !== 'string' || id === '') {
          this.#send({ type: 'connection_error', payload: { message: 'missing ID for start operation' } });
          return;
        }
        const request = this.#request(message['payload']);
        if (request === undefined) {
          this.#send({ type: 'error', id, payload: { message: 'invalid payload for type: start' } });
          return;
        }
        // The legacy protocol lets a start come before connection_init: the upgrade's headers must hold the key then.
        const refusal = this.#keyRefusal();
        if (refusal !== undefined) {
          this.#send({ type: 'error', id, payload: { message: refusal } });
          return;
        }
        this.#stop(id); // a start with an id in use replaces that operation (subscriptions-transport-ws)
        this.#start(id, request);
        return;
      }
      case 'stop':
        if (typeof id === 'string') this.#stop(id, true);
        return;
      case 'connection_terminate':
        this.#close(1000, 'connection terminated');
        return;
      case 'ka':
        this.#send({ type: 'ka' });
        return;
      default:
        this.#send({ type: 'error', ...(typeof id === 'string' ? { id } : {}), payload: { message: `unknown operation message of type: ${String(type)}` } });
    }
  }

  /** Reads `connection_init`'s payload: its string entries become request headers. */
  #init(payload: unknown): boolean {
    if (payload !== undefined && payload !== null && (typeof payload !== 'object' || Array.isArray(payload))) return false;
    this.#initialised = true;
    clearTimeout(this.#initTimer);
    const headers: Record<string, string> = { ...this.#headers };
    for (const [key, value] of Object.entries((payload ?? {}) as Message)) if (typeof value === 'string') headers[key.toLowerCase()] = value;
    this.#headers = headers;
    return true;
  }

  /** The HTTP refusal's text when the headers so far lack a key that opens /graphql; undefined when they open it. */
  #keyRefusal(): string | undefined {
    try {
      this.keys.check('graphql', this.#headers[authHeader]);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  #request(payload: unknown): GraphQLRequest | undefined {
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
    const { query, variables, operationName } = payload as Message;
    if (typeof query !== 'string') return undefined;
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
    return { method: 'POST', query, variables, ...(typeof operationName === 'string' ? { operationName } : {}), headers: this.#headers };
  }

  #start(id: string, request: GraphQLRequest): void {
    if (this.#operations.size >= this.limits.maxSubscriptions) {
      this.#refuse(id, [{ message: `too many subscriptions on this connection (at most ${this.limits.maxSubscriptions})` }]);
      return;
    }
    // Held while the engine starts it (verifying a token may wait): a stop meanwhile ends it once started.
    let stopped = false;
    const pending = (): void => {
      stopped = true;
    };
    this.#operations.set(id, pending);
    void this.engine.subscribe(request, (event) => this.#push(id, event)).then((started) => {
      const current = this.#operations.get(id);
      if ('refused' in started) {
        if (current === pending) this.#operations.delete(id);
        if (!stopped && !this.#closed) this.#refuse(id, started.refused);
        return;
      }
      if (stopped || this.#closed || current !== pending) started.stop();
      else this.#operations.set(id, started.stop);
    });
  }

  #push(id: string, event: SubscriptionEvent): void {
    if (!this.#operations.has(id)) return; // stopped meanwhile
    if (event.kind !== 'next') {
      this.#operations.delete(id);
      if (event.kind === 'error') this.#refuse(id, event.errors);
      else this.#send({ type: 'complete', id });
      return;
    }
    this.#sendRaw(`{"type":"${this.modern ? 'next' : 'data'}","id":${JSON.stringify(id)},"payload":${event.body}}`);
  }

  #refuse(id: string, errors: readonly WireError[]): void {
    if (this.modern) this.#send({ type: 'error', id, payload: errors });
    else {
      this.#send({ type: 'error', id, payload: { message: errors.map((e) => e.message).join('\n') } });
      this.#send({ type: 'complete', id });
    }
  }

  #stop(id: string, answer = false): void {
    const stop = this.#operations.get(id);
    if (stop === undefined) return;
    this.#operations.delete(id);
    stop();
    if (answer) this.#send({ type: 'complete', id });
  }

  #send(message: Message): void {
    this.#sendRaw(JSON.stringify(message));
  }

  #sendRaw(text: string): void {
    if (this.#closed || this.sink.send(text) || this.#dropped) return;
    // Dropped: the client is over the backpressure limit, and uWS closes it.
    this.#dropped = true;
    slowClientsClosed++;
  }

  #close(code: number, reason: string): void {
    if (this.#closed) return;
    this.sink.close(code, reason);
    this.closed();
  }
}

/** The upgrade request's headers minus the WebSocket handshake's own (a per-connection key among them), which say nothing to GraphQL. */
function withoutHandshake(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!name.startsWith('sec-websocket-') && name !== 'upgrade' && name !== 'connection') out[name] = value;
  return out;
}
