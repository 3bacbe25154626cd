// Cluster writes ordered by one node: a /graphql mutation taken here goes to the node that proposed the
// stream's newest message (named by its msg id), which runs it as its own; proposals then rarely conflict.
// Each node answers such writes on a core-NATS subject of its own (request/reply). A forwarded write is
// never forwarded again, so two nodes with stale views cannot bounce one. README.md, "Write forwarding".

import { randomUUID } from 'node:crypto';
import { RequestError, TimeoutError, headers, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { Engine, EngineResponse, GraphQLRequest, ResponseKind } from '../../engine/index.js';
import type { Logger } from '../log.js';
import { decodeRequest, encodeRequest } from '../request-wire.js';
import type { ClusterNode } from './cluster-node.js';

/**
 * Longer than a write's own bounds on the target (a proposal's 8 s deadline, a lost race's 10 s catch-up,
 * then the run again), so that its own error comes back rather than this one.
 */
const forwardTimeoutMs = 30_000;
/** While a forward waits, the target is asked this often whether it still answers on its subject. */
const probeEveryMs = 1_000;
/** How long the answer waits for this node to apply the write (then it goes out anyway: it is durable). */
const applyTimeoutMs = 10_000;
// Room for the headers of a request or an answer within the servers' max_payload.
const headerRoom = 1024;

const probeHeader = 'Graphdb-Probe';
const kindHeader = 'Graphdb-Kind';
const touchedHeader = 'Graphdb-Touched';
/** The target's applied stream sequence when it answered: at or past the write's message. */
const positionHeader = 'Graphdb-Position';
const failureHeader = 'Graphdb-Failure';
/** An answer over a message: `<n parts>/<key>`; the first part comes with it, the sender fetches the rest (`<key>/<i>`). */
const partsHeader = 'Graphdb-Parts';
const fetchHeader = 'Graphdb-Fetch';
/** How long the rest of a large answer is kept for its sender to fetch. */
const heldMs = 30_000;
/** The target did not run it (it is draining): the sender runs it, as when nobody answers. */
const declinedHeader = 'Graphdb-Declined';

const kinds: ReadonlySet<string> = new Set<ResponseKind>(['ok', 'request-error', 'method-not-allowed']);
const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A forward in flight, as its probe of the target sees it. */
interface Asked {
  done: boolean;
  timer: NodeJS.Timeout | undefined;
}

export class WriteForwarding {
  readonly #nc: NatsConnection;
  readonly #node: ClusterNode;
  readonly #engine: Engine;
  readonly #log: Logger;
  readonly #stream: string;
  readonly #subscription: Subscription;
  /** Request ids of the writes running here that must not leave (forwarded to this node, or their target gone): a count each. */
  readonly #here = new Map<string, number>();
  readonly #answering = new Set<Promise<void>>();
  /** Large answers' parts waiting for their senders to fetch them. */
  readonly #held = new Map<string, Uint8Array[]>();

  constructor(node: ClusterNode, engine: Engine, log: Logger) {
    const nc = node.connection;
    this.#nc = nc;
    this.#node = node;
    this.#engine = engine;
    this.#log = log;
    this.#stream = node.config.stream;
    this.#subscription = nc.subscribe(this.#subject(node.id), {
      callback: (error, message) => {
        if (error !== null) return;
        const answering = this.#answer(message);
        this.#answering.add(answering);
        void answering.finally(() => this.#answering.delete(answering));
      },
    });
  }

  /** Stops taking forwarded writes (their senders then run them themselves) and waits for those running. */
  async stop(): Promise<void> {
    this.#subscription.unsubscribe();
    await Promise.all([...this.#answering]);
  }

  /** EngineOptions.forwardWrite: the answer of the node that proposed last, or undefined to run here. */
  forward(request: GraphQLRequest): Promise<EngineResponse> | undefined {
    if (request.requestId !== undefined && this.#here.has(request.requestId)) return undefined;
    const target = this.#node.lastProposer;
    if (target === undefined) return undefined;
    const payload = Buffer.from(encodeRequest(request));
    // Too large for one message: run here (it races the others' proposals, as every write once did).
    if (payload.byteLength > this.#maxBytes()) return undefined;
    return this.#send(target, payload, request);
  }

  #subject(nodeId: string): string {
    return `${this.#stream}.writes.${nodeId}`;
  }

  #maxBytes(): number {
    return (this.#nc.info?.max_payload ?? 1024 * 1024) - headerRoom;
  }

  async #send(target: string, payload: Buffer, request: GraphQLRequest): Promise<EngineResponse> {
    const subject = this.#subject(target);
    let reply: Msg;
    const asked: Asked = { done: false, timer: undefined };
    try {
      reply = await Promise.race([this.#nc.request(subject, payload, { timeout: forwardTimeoutMs }), this.#gone(subject, asked)]);
    } catch (error) {
      if (error instanceof RequestError && error.isNoResponders()) {
        // Nobody took it: that node is gone. This one proposes from now on (and becomes the last proposer).
        this.#node.forgetProposer(target);
        return this.#runHere(request);
      }
      throw new Error(
        `the mutation was forwarded to cluster node ${target} (the last to write to stream ${this.#stream}), which did not answer (${error instanceof TimeoutError ? `nothing within ${forwardTimeoutMs} ms` : describe(error)}); it may have been applied there: the outcome is unknown, read it back before writing it again`,
      );
    } finally {
      asked.done = true;
      clearTimeout(asked.timer);
    }
    if (reply.headers?.get(declinedHeader) === '1') {
      this.#node.forgetProposer(target);
      return this.#runHere(request);
    }
    const failure = reply.headers?.get(failureHeader);
    if (failure !== undefined && failure !== '') throw new Error(failure);
    const body = await this.#whole(subject, target, reply);
    const kind = reply.headers?.get(kindHeader) ?? '';
    const position = Number(reply.headers?.get(positionHeader) ?? 0);
    // Read-your-writes on this node; if it does not catch up the answer still goes out (the write is durable).
    await this.#node.applied(position, applyTimeoutMs).catch(() => {});
    const touchedUids = Number(reply.headers?.get(touchedHeader) ?? 0);
    return { kind: kinds.has(kind) ? (kind as ResponseKind) : 'ok', body, ...(touchedUids > 0 ? { touchedUids } : {}) };
  }

  /** The answer's text: the reply's own, or its parts fetched from the target and joined. */
  async #whole(subject: string, target: string, reply: Msg): Promise<string> {
    const parts = /^(\d+)\/(.+)$/.exec(reply.headers?.get(partsHeader) ?? '');
    if (parts === null) return reply.string();
    const [count, key] = [Number(parts[1]), parts[2] as string];
    const chunks: Uint8Array[] = [reply.data];
    try {
      for (let i = 1; i < count; i++) {
        const ask = headers();
        ask.set(fetchHeader, `${key}/${i}`);
        const part = await this.#nc.request(subject, undefined, { timeout: probeEveryMs * 5, headers: ask });
        if (part.headers?.get(failureHeader)) throw new Error(part.headers.get(failureHeader));
        chunks.push(part.data);
      }
    } catch (error) {
      throw new Error(`the mutation was applied on cluster node ${target}, but the rest of its answer could not be fetched from it (${describe(error)}): read it back instead`);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /**
   * Rejects once the target no longer answers on its subject (it died after taking the write, or before:
   * nobody can tell), so a forward to a killed node fails in about a second, not after the whole timeout.
   */
  #gone(subject: string, asked: Asked): Promise<never> {
    const probe = headers();
    probe.set(probeHeader, '1');
    return new Promise<never>((_resolve, reject) => {
      const tick = (): void => {
        this.#nc.request(subject, undefined, { timeout: probeEveryMs, headers: probe }).then(
          () => {
            if (!asked.done) asked.timer = setTimeout(tick, probeEveryMs);
          },
          (error: unknown) => {
            if (error instanceof RequestError && error.isNoResponders()) reject(new Error(`cluster node stopped answering on ${subject}`));
            else if (!asked.done) asked.timer = setTimeout(tick, probeEveryMs);
          },
        );
      };
      asked.timer = setTimeout(tick, probeEveryMs);
    });
  }

  /** Runs a write here, never forwarded (keyed by its request id: the engine's copies of a request keep it). */
  async #runHere(request: GraphQLRequest): Promise<EngineResponse> {
    const id = request.requestId ?? randomUUID();
    this.#here.set(id, (this.#here.get(id) ?? 0) + 1);
    try {
      return await this.#engine.execute({ ...request, requestId: id });
    } finally {
      const left = (this.#here.get(id) ?? 1) - 1;
      if (left === 0) this.#here.delete(id);
      else this.#here.set(id, left);
    }
  }

  /** An answer over a message: its first part to send now, the rest held for the sender to fetch (`partsHeader`). */
  #holdRest(body: Uint8Array, answer: MsgHdrs): Uint8Array {
    const size = this.#maxBytes();
    if (body.byteLength <= size) return body;
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < body.byteLength; at += size) chunks.push(body.subarray(at, at + size));
    const key = randomUUID();
    this.#held.set(key, chunks);
    setTimeout(() => this.#held.delete(key), heldMs).unref();
    answer.set(partsHeader, `${chunks.length}/${key}`);
    return chunks[0] as Uint8Array;
  }

  #sendPart(message: Msg, fetch: string): void {
    const slash = fetch.lastIndexOf('/');
    const chunks = this.#held.get(fetch.slice(0, slash));
    const index = Number(fetch.slice(slash + 1));
    const chunk = chunks?.[index];
    if (chunks === undefined || chunk === undefined || index < 1) {
      const gone = headers();
      gone.set(failureHeader, `no part ${fetch} held (kept ${heldMs} ms)`);
      message.respond(undefined, { headers: gone });
      return;
    }
    // The last part fetched: nothing more will be asked.
    if (index === chunks.length - 1) this.#held.delete(fetch.slice(0, slash));
    message.respond(chunk);
  }

  async #answer(message: Msg): Promise<void> {
    if (message.headers?.get(probeHeader) === '1') {
      message.respond();
      return;
    }
    const fetch = message.headers?.get(fetchHeader);
    if (fetch !== undefined && fetch !== '') {
      this.#sendPart(message, fetch);
      return;
    }
    const answer = headers();
    // A draining node refuses writes; the cluster need not: the sender runs it (and proposes from then on).
    if (this.#engine.draining) {
      answer.set(declinedHeader, '1');
      message.respond(undefined, { headers: answer });
      return;
    }
    let body: Uint8Array | undefined;
    try {
      const response = await this.#runHere(decodeRequest(message.string()));
      body = response.bytes ?? Buffer.from(response.body);
      answer.set(kindHeader, response.kind);
      if (response.touchedUids !== undefined) answer.set(touchedHeader, String(response.touchedUids));
      body = this.#holdRest(body, answer);
    } catch (error) {
      this.#log.error('forwarded write failed', { error: describe(error) });
      answer.set(failureHeader, `the cluster node ${this.#node.id} that ran the forwarded mutation failed: ${describe(error)}`);
    }
    answer.set(positionHeader, String(this.#node.position));
    // The sender may be gone (its connection closed): nothing to tell.
    try {
      message.respond(body, { headers: answer });
    } catch (error) {
      this.#log.warn('could not answer a forwarded write', { error: describe(error) });
    }
  }
}
