// A service node in cluster mode: the engine's SharedLog over the JetStream log. Before the engine
// restores, its local log is checked against the stream from the snapshot's stream sequence on (`agree`:
// records the stream never took are cut off); then the node follows the stream from where the check
// ended, applying every message in order through Engine.replicate (records it holds are skipped by LSN).
// Its own records are proposed against the last stream sequence it applied (a conflict: the engine rolls
// back, takes the newer messages, runs the writes again).

import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Engine, LocalTail, SharedLog } from '../../engine/index.js';
import type { ClusterConfig } from '../config.js';
import type { Logger } from '../log.js';
import { ClusterLogError, JetStreamLog, StreamPurgedError, type Follower } from './jetstream-log.js';
import { Retention } from './retention.js';

/** How long a write that lost to another node waits for that node's records before it fails. */
const catchUpTimeoutMs = 10_000;
/** How long reading the stream up to its last sequence may take at start (the check, then the catch-up). */
const startReadTimeoutMs = 60_000;

/** Thrown by the check's apply callback to end the read once the verdict is in. */
const checked = new Error('local log checked');

export class ClusterNode implements SharedLog {
  readonly #log: JetStreamLog;
  readonly #retention: Retention;
  readonly #config: ClusterConfig;
  readonly #beforePropose: (() => void) | undefined;
  readonly #id = randomUUID();
  #proposals = 0;
  /** The last stream sequence whose records this engine holds. */
  #appliedSeq = 0;
  #conflictSeq = 0;
  #follower: Follower | undefined;
  /** The node that proposed the newest message this node knows of (its id), and that message's sequence. */
  #proposer: string | undefined;
  #proposerSeq = 0;
  /** The stream's first sequence when it no longer held what this node needed at start (seedPeers). */
  #purgedTo: number | undefined;
  /** What `agree` did, for the join's log line: the snapshot's stream sequence, the messages compared. */
  #checked = { snapshotSequence: 0, messages: 0 };
  #lostError: unknown;
  #lostHandler: ((error: unknown) => void) | undefined;

  private constructor(log: JetStreamLog, retention: Retention, config: ClusterConfig, beforePropose: (() => void) | undefined) {
    this.#log = log;
    this.#retention = retention;
    this.#config = config;
    this.#beforePropose = beforePropose;
  }

  /**
   * Connects to the cluster and opens (or creates) the stream; the engine is opened with the node as its
   * `sharedLog` next, then `join`s. `beforePropose` is a test hook (server/testing/). Rejects
   * (ClusterLogError) when the cluster cannot be reached in time.
   */
  static async open(config: ClusterConfig, dataDir: string, log: Logger, beforePropose?: () => void): Promise<ClusterNode> {
    const shared = await JetStreamLog.open({
      servers: config.servers,
      stream: config.stream,
      onWarning: (message, fields) => log.warn(message, fields),
    });
    try {
      const retention = await Retention.open(shared.connection, { stream: config.stream, maxAgeMs: config.nodeMaxAgeMs, dataDir, log });
      return new ClusterNode(shared, retention, config, beforePropose);
    } catch (error) {
      await shared.close();
      throw error;
    }
  }

  /** The cluster this node is in (for logs). */
  get config(): ClusterConfig {
    return this.#config;
  }

  get position(): number {
    return this.#appliedSeq;
  }

  /** The NATS connection under the log (write-forwarding.ts asks other nodes on it). */
  get connection(): NatsConnection {
    return this.#log.connection;
  }

  /** This node's id: the first part of its proposals' msg ids (a fresh one per process). */
  get id(): string {
    return this.#id;
  }

  /** The node that proposed the stream's newest message as this node knows it, when that is another node. */
  get lastProposer(): string | undefined {
    return this.#proposer === this.#id ? undefined : this.#proposer;
  }

  /** `id` is gone (nobody answers for it): writes stay here until a message names another proposer. */
  forgetProposer(id: string): void {
    if (this.#proposer === id) this.#proposer = undefined;
  }

  /** Resolves once this node applied stream sequence `seq`; rejects (ClusterLogError) after `timeoutMs`. */
  applied(seq: number, timeoutMs: number): Promise<void> {
    const follower = this.#follower;
    if (follower === undefined) return Promise.reject(new Error('the cluster node has not joined'));
    return follower.waitFor(seq, timeoutMs);
  }

  /** Msg ids are `<node id>-<n>` (propose below). */
  #noteProposer(seq: number, msgId: string): void {
    if (seq <= this.#proposerSeq) return;
    this.#proposerSeq = seq;
    const dash = msgId.lastIndexOf('-');
    this.#proposer = dash > 0 ? msgId.slice(0, dash) : undefined;
  }

  async agree(tail: LocalTail): Promise<void> {
    // Registered before the stream is read: from now on no node purges what this one's restart needs.
    await this.#retention.register(tail.position).catch((error: unknown) => {
      throw new ClusterLogError(`cluster log: could not register this node in the bucket ${this.#config.stream}-nodes: ${error instanceof Error ? error.message : String(error)}`);
    });
    const last = await this.#log.lastSequence();
    if (tail.position > last) {
      throw new ClusterLogError(
        `this node's snapshot holds stream ${this.#config.stream} up to sequence ${tail.position}, but the stream ends at sequence ${last}: it is not the stream this data directory followed`,
      );
    }
    this.#appliedSeq = tail.position;
    this.#checked = { snapshotSequence: tail.position, messages: 0 };
    if (last === tail.position) return;
    // Messages the whole of which the local log holds (the same) are not read again by the apply loop.
    const follower = this.#log.follow(tail.position, (seq, data, msgId) => {
      this.#checked.messages++;
      if (!tail.offer(data)) throw checked;
      this.#appliedSeq = seq;
      this.#noteProposer(seq, msgId);
    });
    try {
      await follower.waitFor(last, startReadTimeoutMs);
    } catch (error) {
      if (follower.failure !== checked) throw this.#noted(follower.failure ?? error);
    } finally {
      await follower.stop();
    }
  }

  /**
   * Follows the stream from where `agree` left off, up to its last sequence, before the node serves.
   * Rejects (ClusterLogError) when that takes too long or a message does not apply.
   */
  async join(engine: Engine, log: Logger): Promise<void> {
    const from = this.#appliedSeq + 1;
    const follower = this.#log.follow(this.#appliedSeq, async (seq, data, msgId) => {
      this.#noteProposer(seq, msgId);
      const result = await engine.replicate(data);
      if (!result.ok) throw new Error(`stream ${this.#config.stream} message ${seq} does not apply: ${result.message}`);
      if (seq > this.#appliedSeq) this.#appliedSeq = seq;
    });
    this.#follower = follower;
    void follower.done.then(() => {
      if (follower.failure !== undefined) this.#lose(follower.failure);
    });
    // The loop's own failure says more than "not applied".
    await follower.waitFor(await this.#log.lastSequence(), startReadTimeoutMs).catch((error: unknown) => {
      throw this.#noted(follower.failure ?? error);
    });
    const { snapshotSequence, messages } = this.#checked;
    log.info('joined the cluster', { node: this.#id, stream: this.#config.stream, snapshotSequence, checked: messages, from, sequence: this.#appliedSeq, lsn: engine.lsn, server: this.#log.server });
  }

  /**
   * `handler` runs once the apply loop stopped for good after the join (a message that does not apply,
   * or one the stream no longer holds): the node's state is frozen from then on.
   */
  onLost(handler: (error: unknown) => void): void {
    this.#lostHandler = handler;
    if (this.#lostError !== undefined) handler(this.#lostError);
  }

  #lose(error: unknown): void {
    this.#lostError = error;
    this.#lostHandler?.(error);
  }

  /** How many proposals may be in flight at once (`--cluster-pipeline`). */
  get pipeline(): number {
    return this.#config.pipeline ?? 1;
  }

  /** The last proposal made: its msg id, whether it went as parts, its answer. */
  #previous: { readonly msgId: string; readonly parts: boolean; readonly answer: Promise<'appended' | 'conflict'> } | undefined;

  propose(frames: Buffer, chained = false): Promise<'appended' | 'conflict'> {
    this.#beforePropose?.();
    const msgId = `${this.#id}-${++this.#proposals}`;
    const parts = frames.byteLength > this.#log.partBytes;
    const previous = chained ? this.#previous : undefined;
    let answer: Promise<'appended' | 'conflict'>;
    if (previous === undefined) answer = this.#proposeAfterSeq(frames, msgId);
    else if (parts || previous.parts) {
      // Parts are chained by sequence: a proposal that goes as parts, or follows one, waits for the previous answer.
      answer = previous.answer.then(
        (result) => (result === 'appended' ? this.#proposeAfterSeq(frames, msgId) : 'conflict'),
        () => 'conflict' as const, // the previous one's failure decides for both (engine/persist: the oldest answer)
      );
    } else answer = this.#proposeChained(frames, msgId, previous.msgId);
    this.#previous = { msgId, parts, answer };
    return answer;
  }

  async #proposeAfterSeq(frames: Buffer, msgId: string): Promise<'appended' | 'conflict'> {
    // Behind another node's proposal still going on in parts, not cutting it off (see Follower).
    const after = Math.max(this.#appliedSeq, this.#follower?.proposeAfter ?? 0);
    const result = await this.#log.propose(frames, after, msgId);
    if ('conflict' in result) {
      this.#conflictSeq = result.conflict;
      return 'conflict';
    }
    this.#appended(result.seq, msgId);
    return 'appended';
  }

  /** Proposed before the previous one was answered: lands right after it or not at all. */
  async #proposeChained(frames: Buffer, msgId: string, afterMsgId: string): Promise<'appended' | 'conflict'> {
    const result = await this.#log.proposeAfterMsg(frames, afterMsgId, msgId);
    if ('conflict' in result) {
      // The refusal names no sequence: the messages that beat it are those up to the stream's last.
      this.#conflictSeq = Math.max(this.#conflictSeq, await this.#log.lastSequence());
      return 'conflict';
    }
    this.#appended(result.seq, msgId);
    return 'appended';
  }

  #appended(seq: number, msgId: string): void {
    if (seq > this.#appliedSeq) this.#appliedSeq = seq;
    this.#noteProposer(seq, msgId);
  }

  caughtUp(): Promise<void> {
    const follower = this.#follower;
    if (follower === undefined) return Promise.reject(new Error('the cluster node has not joined'));
    return follower.waitFor(this.#conflictSeq, catchUpTimeoutMs, true);
  }

  async sync(): Promise<void> {
    const follower = this.#follower;
    if (follower === undefined) throw new Error('the cluster node has not joined');
    await follower.waitFor(await this.#log.lastSequence(), catchUpTimeoutMs);
  }

  /**
   * After a start that failed because the stream no longer holds what this node needs: the HTTP addresses
   * of the other nodes in the bucket whose snapshots hold what was purged, the newest first (none otherwise).
   */
  async seedPeers(): Promise<string[]> {
    const first = this.#purgedTo;
    if (first === undefined) return [];
    const entries = [...(await this.#retention.entries())].filter(([id, entry]) => id !== this.#retention.id && entry.url !== undefined && entry.position >= first - 1);
    return entries.sort(([, x], [, y]) => y.position - x.position).map(([, entry]) => entry.url as string);
  }

  #noted(error: unknown): unknown {
    if (error instanceof StreamPurgedError) this.#purgedTo = error.first;
    return error;
  }

  snapshotWritten(position: number): void {
    this.#retention.snapshotWritten(position);
  }

  /** This node's HTTP address, for peers that seed themselves from its snapshot. */
  advertise(url: string): void {
    this.#retention.advertise(url);
  }

  close(): Promise<void> {
    this.#retention.close();
    return this.#log.close();
  }
}
