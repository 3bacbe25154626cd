// A service node in cluster mode: the engine's SharedLog over the JetStream log. Its own records are
// proposed against the last stream sequence it applied (a conflict: the engine rolls back, takes the
// newer messages, runs the writes again); every message of the stream is applied in order through
// Engine.replicate, which skips the records this node already holds (its own, or those before a restart).

import { randomUUID } from 'node:crypto';
import type { Engine, SharedLog } from '../../engine/index.js';
import type { ClusterConfig } from '../config.js';
import type { Logger } from '../log.js';
import { JetStreamLog, type Follower } from './jetstream-log.js';

/** How long a write that lost to another node waits for that node's records before it fails. */
const catchUpTimeoutMs = 10_000;

export class ClusterNode implements SharedLog {
  readonly #log: JetStreamLog;
  readonly #id = randomUUID();
  #proposals = 0;
  /** The last stream sequence whose records this engine holds. */
  #appliedSeq = 0;
  #conflictSeq = 0;
  #follower: Follower | undefined;

  private constructor(log: JetStreamLog) {
    this.#log = log;
  }

  /**
   * Joins the cluster: opens the stream, applies it from the start (records this node holds are skipped
   * by LSN) up to its last sequence, then shares the engine's log. Rejects (ClusterLogError) when the
   * cluster cannot be reached in time or a message does not apply.
   */
  static async join(engine: Engine, config: ClusterConfig, log: Logger): Promise<ClusterNode> {
    const shared = await JetStreamLog.open({
      servers: config.servers,
      stream: config.stream,
      onWarning: (message, fields) => log.warn(message, fields),
    });
    const node = new ClusterNode(shared);
    const follower = shared.follow(0, async (seq, data) => {
      const result = await engine.replicate(data);
      if (!result.ok) throw new Error(`stream ${config.stream} message ${seq} does not apply: ${result.message}`);
      if (seq > node.#appliedSeq) node.#appliedSeq = seq;
    });
    node.#follower = follower;
    void follower.done.then(() => {
      if (follower.failure !== undefined) log.error('cluster log apply loop stopped: this node no longer follows the cluster', { error: String(follower.failure) });
    });
    try {
      await follower.waitFor(await shared.lastSequence(), 60_000);
    } catch (error) {
      await shared.close();
      throw error;
    }
    engine.shareLog(node);
    log.info('joined the cluster', { stream: config.stream, sequence: node.#appliedSeq, lsn: engine.lsn, server: shared.server });
    return node;
  }

  async propose(frames: Buffer): Promise<'appended' | 'conflict'> {
    // Behind another node's proposal still going on in parts, not cutting it off (see Follower).
    const after = Math.max(this.#appliedSeq, this.#follower?.proposeAfter ?? 0);
    const result = await this.#log.propose(frames, after, `${this.#id}-${++this.#proposals}`);
    if ('conflict' in result) {
      this.#conflictSeq = result.conflict;
      return 'conflict';
    }
    this.#appliedSeq = result.seq;
    return 'appended';
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

  close(): Promise<void> {
    return this.#log.close();
  }
}
