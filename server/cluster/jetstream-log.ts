// The cluster's ordered log on a NATS JetStream stream (R3 by default): propose a batch of framed records
// against the last sequence a node applied, read the stream's last sequence, and apply the stream in order
// from a sequence on. Every call is bounded in time and fails with a ClusterLogError that says what it
// waited for; nothing here knows the engine or its record format (bytes in, bytes out).

import { connect, headers } from '@nats-io/transport-node';
import type { MsgHdrs, NatsConnection } from '@nats-io/transport-node';
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
  /** The largest part of a proposal (default: the servers' max_payload less room for headers); tests make it small. */
  readonly partBytes?: number;
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

/** The stream no longer holds the next sequence a node needs (purged): `first` is the one it starts at. */
export class StreamPurgedError extends ClusterLogError {
  constructor(
    message: string,
    readonly first: number,
  ) {
    super(message);
  }
}

export type ProposeResult = { readonly seq: number } | { readonly conflict: number };

/**
 * Applies one proposal (a message, or the parts of one joined: `seq` is its last part's; `msgId`: the
 * proposal's, as given to `propose`); the loop waits for it before the next one (a rejection stops the loop).
 */
export type ApplyMessage = (seq: number, data: Uint8Array, msgId: string) => void | Promise<void>;

// A proposal over max_payload goes as parts, each chained to the one before by its expected last
// sequence: `<i>/<n>` of the proposal named by its msg id.
const partHeader = 'Graphdb-Part';
const proposalHeader = 'Graphdb-Proposal';
// Msg id, expected sequence and the two headers above take far less.
const headerRoom = 1024;

const attemptTimeoutMs = 2_000;
const retryDelayMs = 250;
// Short pulls, so that a consumer that went silent after its server died is noticed and recreated soon.
const pullExpiresMs = 2_000;
// A sequence known to exist (a proposal's ack) that stays unapplied this long restarts the consumer.
const stallMs = 3_000;
/**
 * An apply loop with nothing to apply asks the stream's last sequence this often: a consumer delivers nothing
 * when what it needs was purged and the stream left empty (or it went silent), and no write of this node's
 * would notice it: the node would serve its frozen state for good.
 */
const idleProbeMs = 5_000;

// "no suitable peers for placement": refused with a 400 while the servers' routes are still coming up.
const clusterNoPeers = 10005;

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

// A leader that heard from a quorum this recently still leads: a follower waits at least the minimum
// election timeout (4 s in nats-server) after the leader's last heartbeat before it votes for another.
const leaseMs = 2_000;

/**
 * Why a stream info answer's last sequence may be stale, or undefined. A leader cut off from its quorum
 * answers stream info (its last sequence frozen) until it steps down, 10-20 s later (nats-server 2.9's
 * lost-quorum check), while the others elect a leader after 4-9 s and append: its word counts only while
 * a quorum acknowledged it within `leaseMs` (`active`, per replica, as the leader reports it).
 */
function leaseRefusal(info: StreamInfo): string | undefined {
  const cluster = info.cluster;
  const replicas = cluster?.replicas;
  if (cluster === undefined || replicas === undefined) return undefined; // one server: nobody else can lead
  if (cluster.leader === undefined) return 'the stream has no leader (an election is under way)';
  const heard = replicas.filter((replica) => replica.active / 1e6 < leaseMs).length;
  // The leader counts itself.
  if (heard + 1 > (replicas.length + 1) / 2) return undefined;
  return `its leader ${cluster.leader} heard from ${heard} of its ${replicas.length} replicas within ${leaseMs} ms, not a quorum: it may be cut off while the others elect another leader`;
}

/** "wrong last sequence: 12" → 12 (the stream's last sequence when the proposal arrived). */
function conflictSequence(error: JetStreamApiError): number | undefined {
  if (error.code !== JetStreamApiCodes.StreamWrongLastSequence) return undefined;
  const match = /(\d+)\s*$/.exec(error.message);
  return match === null ? undefined : Number(match[1]);
}

/** JetStream's "wrong last msg ID" (Nats-Expected-Last-Msg-Id not the stream's last message's id); the client names no constant for it. */
const wrongLastMsgId = 10070;

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
  readonly #options: JetStreamLogOptions;
  /** Proposals this node gave up part-way. */
  readonly #abandoned = new Set<string>();

  private constructor(nc: NatsConnection, options: JetStreamLogOptions) {
    this.#nc = nc;
    this.#options = options;
    this.#js = jetstream(nc, { timeout: attemptTimeoutMs });
    this.#stream = options.stream;
    this.#subject = `${options.stream}.log`;
    this.#proposeTimeoutMs = options.proposeTimeoutMs ?? 8_000;
    this.#readTimeoutMs = options.readTimeoutMs ?? 5_000;
    this.#onWarning = options.onWarning ?? (() => {});
    void this.#watchConnection();
  }

  /** The connection, for what else the node keeps in JetStream (retention.ts's bucket) and asks of other nodes (write-forwarding.ts). */
  get connection(): NatsConnection {
    return this.#nc;
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
        if (permanent(error) && !(error instanceof JetStreamApiError && (error.code === JetStreamApiCodes.StreamNotFound || error.code === clusterNoPeers))) break;
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
   * proposal that did land the first time answer with its sequence instead of appending twice. Larger
   * than a message may be, it goes as parts, each appended only right after the one before: a part
   * refused because another message came between answers `conflict` (the parts before it are discarded
   * by every follower, `Follower`), and `seq` is the last part's.
   */
  async propose(data: Uint8Array, expectedLastSeq: number, msgId: string): Promise<ProposeResult> {
    if (this.#nc.isClosed()) throw new ClusterLogError(`cluster log: stream ${this.#stream} is closed on this node (shutting down)`);
    const deadline = Date.now() + this.#proposeTimeoutMs;
    const size = this.partBytes;
    if (data.byteLength <= size) return this.#publish(data, { lastSequence: expectedLastSeq }, msgId, undefined, deadline, true);
    const count = Math.ceil(data.byteLength / size);
    let last = expectedLastSeq;
    for (let i = 1; i <= count; i++) {
      const part = headers();
      part.set(partHeader, `${i}/${count}`);
      part.set(proposalHeader, msgId);
      const result = await this.#publish(data.subarray((i - 1) * size, i * size), { lastSequence: last }, `${msgId}/${i}`, part, deadline, i === count).catch((error: unknown) => {
        this.#abandoned.add(msgId);
        throw error;
      });
      if ('conflict' in result) {
        this.#abandoned.add(msgId);
        return result;
      }
      last = result.seq;
    }
    return { seq: last };
  }

  /**
   * Appends `data` (one message: at most `partBytes`) only right after the message whose msg id is
   * `afterMsgId` (`Nats-Expected-Last-Msg-Id`): a proposal made before the previous one was answered.
   * Another message last (or the previous one refused): `{ conflict: 0 }` (the sequence is not known).
   */
  async proposeAfterMsg(data: Uint8Array, afterMsgId: string, msgId: string): Promise<ProposeResult> {
    if (this.#nc.isClosed()) throw new ClusterLogError(`cluster log: stream ${this.#stream} is closed on this node (shutting down)`);
    return this.#publish(data, { lastMsgID: afterMsgId }, msgId, undefined, Date.now() + this.#proposeTimeoutMs, true);
  }

  /** The largest proposal that goes as one message. */
  get partBytes(): number {
    const maxPayload = this.#nc.info?.max_payload ?? 1024 * 1024;
    return Math.min(this.#options.partBytes ?? Infinity, maxPayload - headerRoom);
  }

  /** One message, retried through a leader failover until `deadline`; `final`: the proposal's last (or only) one. */
  async #publish(data: Uint8Array, expect: { lastSequence: number } | { lastMsgID: string }, msgId: string, part: MsgHdrs | undefined, deadline: number, final: boolean): Promise<ProposeResult> {
    let lastError: unknown;
    while (Date.now() < deadline) {
      try {
        const timeout = Math.max(100, Math.min(attemptTimeoutMs, deadline - Date.now()));
        const ack = await this.#js.publish(this.#subject, data, { msgID: msgId, expect, timeout, ...(part === undefined ? {} : { headers: part }) });
        this.#noteExists(ack.seq);
        return { seq: ack.seq };
      } catch (error) {
        const expectedLastSeq = 'lastSequence' in expect ? expect.lastSequence : undefined;
        if (error instanceof JetStreamApiError && expectedLastSeq === undefined) {
          if (error.code === wrongLastMsgId) return { conflict: 0 };
        } else if (error instanceof JetStreamApiError && expectedLastSeq !== undefined) {
          const conflict = conflictSequence(error);
          // A last sequence at or below the one proposed after: the stream is not the one this node applied
          // (a conflict would be waited out and proposed again at once, forever).
          if (conflict !== undefined && conflict <= expectedLastSeq) {
            throw new ClusterLogError(
              `cluster log: stream ${this.#stream} refused a proposal after sequence ${expectedLastSeq} saying its last sequence is ${conflict}: the stream no longer holds what this node applied (deleted and made again, or purged past its end); restart the node on an empty data directory with --cluster-seed http://peer:port`,
            );
          }
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
    // This node's server may be cut off, and may later hand out this very message uncommitted.
    if (!permanent(lastError)) for (const follower of this.#followers) follower.suspect();
    throw new ClusterLogError(
      `cluster log unavailable: could not append to stream ${this.#stream} within ${this.#proposeTimeoutMs} ms (last error: ${describe(lastError)})`,
      // Ran out of time without a refusal: an attempt may have been taken with its ack lost (a part
      // before the last cannot complete a proposal: nobody sends the rest).
      final && !permanent(lastError),
    );
  }

  /** The stream's last sequence, asked of its leader (for linearizable reads). */
  async lastSequence(): Promise<number> {
    const info = await this.#streamInfo('read the last sequence of', leaseRefusal);
    this.#noteExists(info.state.last_seq);
    return info.state.last_seq;
  }

  /** The name of the server leading the stream's Raft group (none during an election). */
  async streamLeader(): Promise<string | undefined> {
    return (await this.#streamInfo('find the leader of')).cluster?.leader;
  }

  /** Stream info from its leader; `refuse` names why an answer cannot be trusted (retried until the deadline). */
  async #streamInfo(what: string, refuse: (info: StreamInfo) => string | undefined = () => undefined): Promise<StreamInfo> {
    const deadline = Date.now() + this.#readTimeoutMs;
    let lastError: unknown;
    while (Date.now() < deadline) {
      try {
        const timeout = Math.max(100, Math.min(attemptTimeoutMs, deadline - Date.now()));
        const jsm = await jetstreamManager(this.#nc, { timeout, checkAPI: false });
        const info = await jsm.streams.info(this.#stream);
        const refused = refuse(info);
        if (refused === undefined) return info;
        throw new ClusterLogError(refused);
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
    const follower = new Follower(this.#js, this.#stream, afterSeq, apply, {
      warn: this.#onWarning,
      forget: (f) => this.#followers.delete(f),
      // A proposer gives up within its deadline: parts older than that will not be followed by more.
      staleMs: this.#proposeTimeoutMs,
      abandoned: (msgId) => this.#abandoned.has(msgId),
      committed: (seq) => this.#committed(seq),
    });
    this.#followers.add(follower);
    return follower;
  }

  /** See FollowerOptions.committed; a ClusterLogError when the stream has no leader a quorum follows. */
  async #committed(seq: number): Promise<{ data: Uint8Array; headers: MsgHdrs | undefined; last: number }> {
    const last = await this.lastSequence();
    const jsm = await jetstreamManager(this.#nc, { timeout: attemptTimeoutMs, checkAPI: false });
    const stored = await jsm.streams.getMessage(this.#stream, { seq });
    if (stored === null) throw new ClusterLogError(`cluster log: the leader of stream ${this.#stream} has no message ${seq}`);
    return { data: stored.data, headers: stored.header, last };
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

interface FollowerOptions {
  readonly warn: NonNullable<JetStreamLogOptions['onWarning']>;
  readonly forget: (follower: Follower) => void;
  /** Parts of a proposal not followed by more for this long will never be (their proposer gave up). */
  readonly staleMs: number;
  /** Whether this node's log gave up the proposal `msgId` part-way. */
  readonly abandoned: (msgId: string) => boolean;
  /** The stream leader's copy of message `seq` and the stream's last sequence, once a quorum follows that leader. */
  readonly committed: (seq: number) => Promise<{ readonly data: Uint8Array; readonly headers: MsgHdrs | undefined; readonly last: number }>;
}

/** The parts of one proposal received so far, the last one at `seq`. */
interface Parts {
  readonly msgId: string;
  readonly count: number;
  readonly firstSeq: number;
  readonly data: Uint8Array[];
  receivedAt: number;
}

interface Waiter {
  readonly seq: number;
  /** Also waits until no other proposal is part-way (one still going on). */
  readonly settled: boolean;
  resolve(): void;
}

/**
 * The ordered apply loop of one node; see JetStreamLog.follow. Parts of a proposal are kept until the
 * last one comes, then applied as one; any other message between them (the proposer lost a conflict)
 * discards them: the stream alone decides, so every node discards the same.
 */
export class Follower {
  readonly #js: JetStreamClient;
  readonly #stream: string;
  readonly #apply: ApplyMessage;
  readonly #options: FollowerOptions;
  #applied: number;
  #known: number;
  #parts: Parts | undefined;
  /**
   * Set when the consumer failed or was restarted, or a proposal ran out of time: this node's server may
   * have been cut off, and a server cut off while leading the stream handed out an uncommitted message
   * (the cut-off node's own proposal) after the heal (nats-server 2.9.10: test/cluster/cluster-partition.test.ts). Until this node applied up to the stream's last sequence,
   * each message is checked against the leader's copy (the leader's is applied).
   */
  #suspect = false;
  #progressAt = Date.now();
  #probedAt = 0;
  #probing = false;
  #messages: ConsumerMessages | undefined;
  #stopped = false;
  #failure: unknown;
  readonly #waiters = new Set<Waiter>();
  readonly #stallTimer: NodeJS.Timeout;
  /** Resolves when the loop ended: stopped, or `apply` failed (`failure`). */
  readonly done: Promise<void>;

  constructor(js: JetStreamClient, stream: string, afterSeq: number, apply: ApplyMessage, options: FollowerOptions) {
    this.#js = js;
    this.#stream = stream;
    this.#apply = apply;
    this.#options = options;
    this.#applied = afterSeq;
    this.#known = afterSeq;
    this.#stallTimer = setInterval(() => {
      if (this.#known > this.#applied && Date.now() - this.#progressAt > stallMs) {
        this.#progressAt = Date.now();
        this.restart(`sequence ${this.#known} exists but ${this.#applied + 1} stayed unapplied for ${stallMs} ms`);
      }
      // Parts going stale settle their waiters without a message.
      if (this.#parts !== undefined) this.#wake();
      if (!this.#probing && Date.now() - Math.max(this.#progressAt, this.#probedAt) > idleProbeMs) void this.#probe();
    }, 500);
    this.#stallTimer.unref();
    this.done = this.#run().finally(() => {
      clearInterval(this.#stallTimer);
      this.#options.forget(this);
      for (const waiter of this.#waiters) waiter.resolve();
    });
  }

  /** The last sequence applied (or, for a part of a proposal, received). */
  get applied(): number {
    return this.#applied;
  }

  /**
   * The sequence a new proposal should follow: the last one applied, or the one before another node's
   * proposal that is part-way (following a part would cut that proposal off; once stale, it is cut off).
   */
  get proposeAfter(): number {
    return this.#pending() === undefined ? this.#applied : (this.#parts as Parts).firstSeq - 1;
  }

  /** Why `apply` stopped the loop (its error), once `done` resolved after a failure. */
  get failure(): unknown {
    return this.#failure;
  }

  noteExists(seq: number): void {
    if (seq > this.#known) this.#known = seq;
  }

  /**
   * Resolves once `seq` is applied (`settled`: and no other proposal is part-way, unless stale); a
   * ClusterLogError after `timeoutMs`, or when the loop stopped first.
   */
  async waitFor(seq: number, timeoutMs: number, settled = false): Promise<void> {
    this.noteExists(seq);
    if (!this.#reached(seq, settled) && !this.#stopped) {
      const waiter: Waiter = { seq, settled, resolve: () => {} };
      const reached = new Promise<void>((resolve) => (waiter.resolve = resolve));
      this.#waiters.add(waiter);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([reached, timedOut]);
      clearTimeout(timer);
      this.#waiters.delete(waiter);
    }
    if (this.#reached(seq, settled)) return;
    const why = this.#stopped ? `the apply loop stopped${this.#failure === undefined ? '' : ` (${describe(this.#failure)})`}` : `waited ${timeoutMs} ms`;
    const parts = this.#applied >= seq ? `, another proposal part-way from sequence ${String(this.#parts?.firstSeq)}` : '';
    throw new ClusterLogError(`cluster log: sequence ${seq} of stream ${this.#stream} not applied (applied ${this.#applied}${parts}; ${why})`);
  }

  /** Checks the messages against the leader's copies until caught up (see `#suspect`). */
  suspect(): void {
    this.#suspect = true;
  }

  /** Drops the current consumer; the loop creates a new one from the next unapplied sequence. */
  restart(reason: string): void {
    if (this.#stopped || this.#messages === undefined) return;
    this.#suspect = true;
    this.#options.warn('cluster log consumer restarted', { stream: this.#stream, applied: this.#applied, reason });
    void this.#messages.close().catch(() => {});
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    void this.#messages?.close().catch(() => {});
    await this.done;
  }

  #reached(seq: number, settled: boolean): boolean {
    return this.#applied >= seq && (!settled || this.#pending() === undefined);
  }

  /** Another proposal part-way that may still be completed. */
  #pending(): Parts | undefined {
    const parts = this.#parts;
    if (parts === undefined || this.#options.abandoned(parts.msgId) || Date.now() - parts.receivedAt > this.#options.staleMs) return undefined;
    return parts;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      // A stream purged past what is needed and then left empty delivers nothing to skip to: asked each time.
      const gone = await this.#gone();
      if (gone !== undefined) {
        this.#failure = gone;
        this.#stopped = true;
        break;
      }
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
          let [data, hdrs] = [message.data, message.headers];
          if (this.#suspect) {
            const committed = await this.#options.committed(message.seq);
            if (Buffer.compare(committed.data, data) !== 0) {
              this.#options.warn('cluster log message differs from the stream leader\'s: applying the leader\'s', { stream: this.#stream, seq: message.seq });
              [data, hdrs] = [committed.data, committed.headers];
            }
            if (message.seq >= committed.last) this.#suspect = false;
          }
          const whole = this.#assemble(message.seq, data, hdrs);
          try {
            if (whole !== undefined) await this.#apply(message.seq, whole, hdrs?.get(proposalHeader) || (hdrs?.get('Nats-Msg-Id') ?? ''));
          } catch (error) {
            this.#failure = error;
            this.#stopped = true;
            break;
          }
          this.#advance(message.seq);
        }
        await messages.close().catch(() => {});
      } catch (error) {
        void this.#messages?.close().catch(() => {});
        if (this.#stopped) break;
        this.#suspect = true;
        this.#options.warn('cluster log consumer failed; retrying', { stream: this.#stream, applied: this.#applied, error: describe(error) });
        await delay(retryDelayMs);
      }
    }
  }

  /** The stream's last sequence noted as existing (the stall check then restarts a consumer that missed it). */
  async #probe(): Promise<void> {
    this.#probing = true;
    try {
      this.noteExists((await this.#streamState()).last_seq);
    } catch {
      // unknown: asked again after the next idle period
    } finally {
      this.#probedAt = Date.now();
      this.#probing = false;
    }
  }

  async #streamState(): Promise<{ first_seq: number; last_seq: number }> {
    return (await (await this.#js.jetstreamManager(false)).streams.info(this.#stream)).state;
  }

  /** The error to stop with when the next sequence needed is no longer in the stream (purged), else undefined. */
  async #gone(): Promise<ClusterLogError | undefined> {
    try {
      const first = (await this.#streamState()).first_seq;
      if (first <= this.#applied + 1) return undefined;
      return new StreamPurgedError(
        `cluster log: stream ${this.#stream} no longer holds sequence ${this.#applied + 1} (it starts at ${first}): this node cannot catch up from the stream; start it on an empty data directory with --cluster-seed http://peer:port (a peer's snapshot)`,
        first,
      );
    } catch {
      return undefined; // unknown: start the consumer again, as for any skip
    }
  }

  /** A whole proposal to apply, or undefined (a part kept, or discarded). */
  #assemble(seq: number, data: Uint8Array, hdrs: MsgHdrs | undefined): Uint8Array | undefined {
    const part = /^(\d+)\/(\d+)$/.exec(hdrs?.get(partHeader) ?? '');
    const parts = this.#parts;
    // Anything but the next part of the proposal kept so far cuts it off.
    this.#parts = undefined;
    if (part === null) return data;
    const [index, count, msgId] = [Number(part[1]), Number(part[2]), hdrs?.get(proposalHeader) ?? ''];
    let kept: Parts;
    if (index === 1) kept = { msgId, count, firstSeq: seq, data: [], receivedAt: 0 };
    else if (parts !== undefined && parts.msgId === msgId && parts.data.length === index - 1 && parts.count === count) kept = parts;
    else return undefined;
    // The client's buffer may be reused: keep a copy.
    kept.data.push(data.slice());
    kept.receivedAt = Date.now();
    if (index < count) {
      this.#parts = kept;
      return undefined;
    }
    return Buffer.concat(kept.data);
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
    this.#wake();
  }

  #wake(): void {
    for (const waiter of this.#waiters) if (this.#reached(waiter.seq, waiter.settled)) waiter.resolve();
  }
}
