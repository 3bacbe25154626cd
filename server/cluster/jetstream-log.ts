// The cluster's ordered log on a NATS JetStream stream (R3 by default): propose a batch of framed records
// against the last sequence a node applied, read the stream's last sequence, and apply the stream in order
// from a sequence on. Every call is bounded in time and fails with a ClusterLogError that says what it
// waited for; nothing here knows the engine or its record format (bytes in, bytes out).

import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import type { ConsumerMessages, JetStreamClient, JetStreamManager, StreamInfo } from '@nats-io/jetstream';

export interface JetStreamLogOptions {
  /** nats:// URLs of the cluster's servers (the client fails over among them). */
  readonly servers: readonly string[];
  /** Stream name (letters, digits, `-`, `_`); the records go to the subject `<stream>.log`. */
  readonly stream: string;
  /** Stream replicas when the service creates it: 3 on a three-server cluster. */
  readonly replicas?: number;
  /** Connecting and creating the stream, retried while the cluster forms (the API answers ~1 s after start). */
  readonly openTimeoutMs?: number;
  /** A proposal's whole deadline, retries through a leader failover included; under 10 s by design. */
  readonly proposeTimeoutMs?: number;
  /** `lastSequence()`'s deadline. */
  readonly readTimeoutMs?: number;
  /** Where the apply loop's restarts are told (a warning each); none by default. */
  readonly onWarning?: (message: string, fields: Record<string, string | number>) => void;
}

/** The one error of this module: the message says which call, on which stream, waited how long for what. */
export class ClusterLogError extends Error {
  override readonly name = 'ClusterLogError';

  /** `outcomeUnknown`: a proposal that may have been taken though no answer said so (engine DurabilityError reads it). */
  constructor(
    message: string,
    readonly outcomeUnknown = false,
  ) {
    super(message);
  }
}

export type ProposeResult = { readonly seq: number } | { readonly conflict: number };

/** Applies one stream message; the loop waits for it before the next one (a rejection stops the loop). */
export type ApplyMessage = (seq: number, data: Uint8Array) => void | Promise<void>;

const attemptTimeoutMs = 2_000;
const retryDelayMs = 250;
// Short pulls, so that a consumer that went silent after its server died is noticed and recreated soon.
const pullExpiresMs = 2_000;
// A sequence known to exist (a proposal's ack) that stays unapplied this long restarts the consumer.
const stallMs = 3_000;

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** "wrong last sequence: 12" → 12 (the stream's last sequence when the proposal arrived). */
function conflictSequence(error: JetStreamApiError): number | undefined {
  if (error.code !== JetStreamApiCodes.StreamWrongLastSequence) return undefined;
  const match = /(\d+)\s*$/.exec(error.message);
  return match === null ? undefined : Number(match[1]);
}

/** A refusal that retrying cannot change (bad request, too large); timeouts, 503 and no responders can. */
function permanent(error: unknown): boolean {
  return error instanceof JetStreamApiError && error.status >= 400 && error.status < 500;
}

export class JetStreamLog {
  readonly #nc: NatsConnection;
  readonly #js: JetStreamClient;
  readonly #stream: string;
  readonly #subject: string;
  readonly #proposeTimeoutMs: number;
  readonly #readTimeoutMs: number;
  readonly #onWarning: NonNullable<JetStreamLogOptions['onWarning']>;
  readonly #followers = new Set<Follower>();

  private constructor(nc: NatsConnection, options: JetStreamLogOptions) {
    this.#nc = nc;
    this.#js = jetstream(nc, { timeout: attemptTimeoutMs });
    this.#stream = options.stream;
    this.#subject = `${options.stream}.log`;
    this.#proposeTimeoutMs = options.proposeTimeoutMs ?? 8_000;
    this.#readTimeoutMs = options.readTimeoutMs ?? 5_000;
    this.#onWarning = options.onWarning ?? (() => {});
    void this.#watchConnection();
  }

  /** The server this node's connection is on now (`host:port`), for logs and tests. */
  get server(): string {
    return this.#nc.getServer();
  }

  /** Connects and makes sure the stream exists, creating it when absent; retried until `openTimeoutMs`. */
  static async open(options: JetStreamLogOptions): Promise<JetStreamLog> {
    if (!/^[A-Za-z0-9_-]+$/.test(options.stream)) {
      throw new ClusterLogError(`cluster stream name ${JSON.stringify(options.stream)} may hold only letters, digits, '-' and '_'`);
    }
    const timeoutMs = options.openTimeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown;
    let nc: NatsConnection | undefined;
    while (Date.now() < deadline) {
      try {
        nc ??= await connect({
          servers: [...options.servers],
          name: `graphdb-service ${options.stream}`,
          maxReconnectAttempts: -1,
          reconnectTimeWait: retryDelayMs,
          timeout: attemptTimeoutMs,
        });
        await ensureStream(await jetstreamManager(nc, { timeout: attemptTimeoutMs }), options);
        return new JetStreamLog(nc, options);
      } catch (error) {
        lastError = error;
        if (permanent(error) && !(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)) break;
        await delay(retryDelayMs);
      }
    }
    await nc?.close().catch(() => {});
    throw new ClusterLogError(
      `cluster log: could not open stream ${options.stream} on ${options.servers.join(',')} within ${timeoutMs} ms (last error: ${describe(lastError)})`,
    );
  }

  /**
   * Appends `data` if the stream's last sequence is still `expectedLastSeq`. `msgId` makes a retried
   * proposal that did land the first time answer with its sequence instead of appending twice.
   */
  async propose(data: Uint8Array, expectedLastSeq: number, msgId: string): Promise<ProposeResult> {
    const maxPayload = this.#nc.info?.max_payload;
    if (maxPayload !== undefined && data.byteLength > maxPayload) {
      throw new ClusterLogError(`cluster log: a proposal of ${data.byteLength} bytes exceeds the NATS servers' max_payload of ${maxPayload} bytes`);
    }
    if (this.#nc.isClosed()) throw new ClusterLogError(`cluster log: stream ${this.#stream} is closed on this node (shutting down)`);
    const deadline = Date.now() + this.#proposeTimeoutMs;
    let lastError: unknown;
    while (Date.now() < deadline) {
      try {
        const timeout = Math.max(100, Math.min(attemptTimeoutMs, deadline - Date.now()));
        const ack = await this.#js.publish(this.#subject, data, { msgID: msgId, expect: { lastSequence: expectedLastSeq }, timeout });
        this.#noteExists(ack.seq);
        return { seq: ack.seq };
      } catch (error) {
        if (error instanceof JetStreamApiError) {
          const conflict = conflictSequence(error);
          if (conflict !== undefined) {
            this.#noteExists(conflict);
            return { conflict };
          }
        }
        lastError = error;
        if (permanent(error)) break;
        await delay(Math.min(retryDelayMs, Math.max(0, deadline - Date.now())));
      }
    }
    throw new ClusterLogError(
      `cluster log unavailable: could not append to stream ${this.#stream} within ${this.#proposeTimeoutMs} ms (last error: ${describe(lastError)})`,
      // Ran out of time without a refusal: an attempt may have been taken with its ack lost.
      !permanent(lastError),
    );
  }

  /** The stream's last sequence, asked of its leader (for linearizable reads). */
  async lastSequence(): Promise<number> {
    const info = await this.#streamInfo('read the last sequence of');
    this.#noteExists(info.state.last_seq);
    return info.state.last_seq;
  }

  /** The name of the server leading the stream's Raft group (none during an election). */
  async streamLeader(): Promise<string | undefined> {
    return (await this.#streamInfo('find the leader of')).cluster?.leader;
  }

  async #streamInfo(what: string): Promise<StreamInfo> {
    const deadline = Date.now() + this.#readTimeoutMs;
    let lastError: unknown;
    while (Date.now() < deadline) {
      try {
        const timeout = Math.max(100, Math.min(attemptTimeoutMs, deadline - Date.now()));
        const jsm = await jetstreamManager(this.#nc, { timeout, checkAPI: false });
        return await jsm.streams.info(this.#stream);
      } catch (error) {
        lastError = error;
        if (permanent(error)) break;
        await delay(Math.min(retryDelayMs, Math.max(0, deadline - Date.now())));
      }
    }
    throw new ClusterLogError(
      `cluster log unavailable: could not ${what} stream ${this.#stream} within ${this.#readTimeoutMs} ms (last error: ${describe(lastError)})`,
    );
  }

  /** Applies the stream's messages in order from `afterSeq + 1`, until the follower is stopped or `apply` fails. */
  follow(afterSeq: number, apply: ApplyMessage): Follower {
    const follower = new Follower(this.#js, this.#stream, afterSeq, apply, this.#onWarning, (f) => this.#followers.delete(f));
    this.#followers.add(follower);
    return follower;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#followers].map((follower) => follower.stop()));
    await this.#nc.close().catch(() => {});
  }

  #noteExists(seq: number): void {
    for (const follower of this.#followers) follower.noteExists(seq);
  }

  // A consumer on a connection that moved to another server may go silent: start it again there.
  async #watchConnection(): Promise<void> {
    for await (const status of this.#nc.status()) {
      if (status.type === 'reconnect') for (const follower of this.#followers) follower.restart(`reconnected to ${status.server}`);
    }
  }
}

async function ensureStream(jsm: JetStreamManager, options: JetStreamLogOptions): Promise<void> {
  try {
    await jsm.streams.info(options.stream);
    return;
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)) throw error;
  }
  // Two nodes creating the same stream at once both succeed: the config is the same.
  await jsm.streams.add({
    name: options.stream,
    subjects: [`${options.stream}.log`],
    num_replicas: options.replicas ?? 3,
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
  });
}

/** The ordered apply loop of one node; see JetStreamLog.follow. */
export class Follower {
  readonly #js: JetStreamClient;
  readonly #stream: string;
  readonly #apply: ApplyMessage;
  readonly #warn: NonNullable<JetStreamLogOptions['onWarning']>;
  readonly #forget: (follower: Follower) => void;
  #applied: number;
  #known: number;
  #progressAt = Date.now();
  #messages: ConsumerMessages | undefined;
  #stopped = false;
  #failure: unknown;
  readonly #waiters = new Set<{ seq: number; resolve: () => void }>();
  readonly #stallTimer: NodeJS.Timeout;
  /** Resolves when the loop ended: stopped, or `apply` failed (`failure`). */
  readonly done: Promise<void>;

  constructor(
    js: JetStreamClient,
    stream: string,
    afterSeq: number,
    apply: ApplyMessage,
    warn: NonNullable<JetStreamLogOptions['onWarning']>,
    forget: (follower: Follower) => void,
  ) {
    this.#js = js;
    this.#stream = stream;
    this.#apply = apply;
    this.#warn = warn;
    this.#forget = forget;
    this.#applied = afterSeq;
    this.#known = afterSeq;
    this.#stallTimer = setInterval(() => {
      if (this.#known > this.#applied && Date.now() - this.#progressAt > stallMs) {
        this.#progressAt = Date.now();
        this.restart(`sequence ${this.#known} exists but ${this.#applied + 1} stayed unapplied for ${stallMs} ms`);
      }
    }, 500);
    this.#stallTimer.unref();
    this.done = this.#run().finally(() => {
      clearInterval(this.#stallTimer);
      this.#forget(this);
      for (const waiter of this.#waiters) waiter.resolve();
    });
  }

  /** The last sequence applied. */
  get applied(): number {
    return this.#applied;
  }

  /** Why `apply` stopped the loop (its error), once `done` resolved after a failure. */
  get failure(): unknown {
    return this.#failure;
  }

  noteExists(seq: number): void {
    if (seq > this.#known) this.#known = seq;
  }

  /** Resolves once `seq` is applied; a ClusterLogError after `timeoutMs`, or when the loop stopped first. */
  async waitFor(seq: number, timeoutMs: number): Promise<void> {
    this.noteExists(seq);
    if (this.#applied < seq && !this.#stopped) {
      const waiter = { seq, resolve: () => {} };
      const reached = new Promise<void>((resolve) => (waiter.resolve = resolve));
      this.#waiters.add(waiter);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([reached, timedOut]);
      clearTimeout(timer);
      this.#waiters.delete(waiter);
    }
    if (this.#applied >= seq) return;
    const why = this.#stopped ? `the apply loop stopped${this.#failure === undefined ? '' : ` (${describe(this.#failure)})`}` : `waited ${timeoutMs} ms`;
    throw new ClusterLogError(`cluster log: sequence ${seq} of stream ${this.#stream} not applied (applied ${this.#applied}; ${why})`);
  }

  /** Drops the current consumer; the loop creates a new one from the next unapplied sequence. */
  restart(reason: string): void {
    if (this.#stopped || this.#messages === undefined) return;
    this.#warn('cluster log consumer restarted', { stream: this.#stream, applied: this.#applied, reason });
    void this.#messages.close().catch(() => {});
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    void this.#messages?.close().catch(() => {});
    await this.done;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      try {
        const consumer = await this.#js.consumers.get(this.#stream, {
          deliver_policy: DeliverPolicy.StartSequence,
          opt_start_seq: this.#applied + 1,
        });
        const messages = await consumer.consume({ expires: pullExpiresMs, max_messages: 256 });
        this.#messages = messages;
        if (this.#stopped) break;
        void this.#watchStatus(messages);
        for await (const message of messages) {
          if (message.seq <= this.#applied) continue;
          // An ordered consumer never skips; if it did, start again from what is missing (unless it is gone).
          if (message.seq !== this.#applied + 1) {
            this.#failure = await this.#gone();
            if (this.#failure !== undefined) this.#stopped = true;
            break;
          }
          try {
            await this.#apply(message.seq, message.data);
          } catch (error) {
            this.#failure = error;
            this.#stopped = true;
            break;
          }
          this.#advance(message.seq);
        }
        await messages.close().catch(() => {});
      } catch (error) {
        if (this.#stopped) break;
        this.#warn('cluster log consumer failed; retrying', { stream: this.#stream, applied: this.#applied, error: describe(error) });
        await delay(retryDelayMs);
      }
    }
  }

  /** The error to stop with when the next sequence needed is no longer in the stream (purged), else undefined. */
  async #gone(): Promise<ClusterLogError | undefined> {
    try {
      const first = (await (await this.#js.jetstreamManager(false)).streams.info(this.#stream)).state.first_seq;
      if (first <= this.#applied + 1) return undefined;
      return new ClusterLogError(
        `cluster log: stream ${this.#stream} no longer holds sequence ${this.#applied + 1} (it starts at ${first}): this node cannot catch up from the stream; start it on an empty data directory with --cluster-seed http://peer:port (a peer's snapshot)`,
      );
    } catch {
      return undefined; // unknown: start the consumer again, as for any skip
    }
  }

  async #watchStatus(messages: ConsumerMessages): Promise<void> {
    for await (const status of messages.status()) {
      if (status.type === 'heartbeats_missed' && this.#messages === messages) this.restart(`missed ${status.count} heartbeats`);
    }
  }

  #advance(seq: number): void {
    this.#applied = seq;
    this.noteExists(seq);
    this.#progressAt = Date.now();
    for (const waiter of this.#waiters) if (waiter.seq <= seq) waiter.resolve();
  }
}
