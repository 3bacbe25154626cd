// Durability for one engine: every change goes through a single FIFO commit queue. Consecutive
// mutations form a group: one store transaction with a savepoint per operation, one log record per
// operation (physical redo), one write, and — with fsync `always` — one fsync for the whole group before
// anyone is answered (group commit). A failed write or fsync rolls the whole group back, cuts the log
// back and fails each operation of the group with a DurabilityError: memory and log stay as before.
// Schema uploads are records too (always fsynced before they are deployed). Snapshots are captured at a
// quiet point of the queue, the log is switched to a new file there, and the file is written meanwhile.

import { join } from 'node:path';
import type { GraphStore, Transaction } from '../store/graph-store.js';
import { classify, logFileName, snapshotFileName } from './data-dir.js';
import { nodeFileIo, type FileIo } from './file-io.js';
import type { AclState } from '../acl/acl-state.js';
import { frameRecord, KIND_ACL, KIND_MUTATION, KIND_PERSISTED_QUERY, KIND_SCHEMA, type LogRecord } from './log-format.js';
import { LogWriter } from './log-writer.js';
import { planRestore, snapshotIdentity, type PersistLogger, type RestorePlan, type SnapshotIdentity } from './restore.js';
import { publishSnapshotTmp, removeSnapshotTmp, type SnapshotContent } from './snapshot-file.js';
import { SnapshotEncoder } from './snapshot-encoder.js';
import { agreeWithSharedLog, type LocalTail } from './shared-tail.js';
import { persistFigures } from '../util/figures.js';

export type FsyncMode = 'always' | 'everysec' | 'no';
export type { PersistLogger, RestorePlan, SnapshotIdentity } from './restore.js';
export type { LocalTail } from './shared-tail.js';
export { RestoreError } from './restore.js';

export interface PersistenceOptions {
  readonly dataDir: string;
  readonly fsync: FsyncMode;
  readonly recover: boolean;
  /** Snapshot after this many logged records (0 = never by count). */
  readonly snapshotEveryRecords: number;
  /** Snapshot this often when something changed (0 = never by time). */
  readonly snapshotIntervalMs: number;
  /** How many snapshots to keep (≥ 1); the log is kept back to the oldest of them. */
  readonly keepSnapshots: number;
  /** Snapshots carry the token indexes' postings (EngineOptions.snapshotPostings). */
  readonly snapshotPostings?: boolean;
  /** How long `readable`'s promise waits before it fails with ReadWaitExpired (EngineOptions.readWaitMs; default 10 s). */
  readonly readWaitMs?: number;
  readonly io?: FileIo;
  readonly log: PersistLogger;
  /** Cluster mode: the local log is checked against it before the restore (shared-tail.ts), then every record is proposed to it. */
  readonly shared?: SharedLog;
}

/** `readable`'s wait when PersistenceOptions.readWaitMs is not given. */
const defaultReadWaitMs = 10_000;

/** A query waited `readWaitMs` for a write being made durable (`Persistence.readable`). */
export class ReadWaitExpired extends Error {
  constructor(readonly waitedMs: number) {
    super(`a write has waited ${waitedMs / 1000} s to be made durable`);
  }
}

/**
 * A write to the log failed: the operation was rolled back here. When the cause says its outcome is
 * unknown (a shared log's proposal that timed out may still have been taken, and every node then
 * applies it), the text says so instead of "not applied".
 */
export class DurabilityError extends Error {
  constructor(override readonly cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const unknown = (cause as { outcomeUnknown?: unknown } | undefined)?.outcomeUnknown === true;
    const after = unknown ? 'it was rolled back on this node, but the cluster log may still have taken it: the outcome is unknown, read it back before writing it again' : 'it was rolled back and not applied';
    super(`the mutation could not be made durable (${code ?? (cause instanceof Error ? cause.message : String(cause))} while writing the mutation log); ${after}`);
  }
}

/**
 * A log shared with other nodes (cluster mode; server/cluster/ implements it over JetStream): every record
 * written here is proposed there too, after the local append and before anyone is answered.
 */
export interface SharedLog {
  /**
   * At open, before the restore: reads the shared log from `tail.position` on, offering each message to
   * `tail` until it says no more or the log's last message (as of now) was offered; remembers where to
   * follow on from. Rejects when the log cannot be read in time.
   */
  agree(tail: LocalTail): Promise<void>;
  /** The last position (message) of the shared log whose records this engine holds: snapshots record it. */
  readonly position: number;
  /**
   * `conflict`: another node appended first; nothing of this proposal landed. Rejects when the log is
   * unavailable. `chained`: proposed before the previous proposal's answer, to land right after it or not
   * at all (refused as a conflict when the previous one was refused or another message came between).
   */
  propose(frames: Buffer, chained?: boolean): Promise<'appended' | 'conflict'>;
  /** How many proposals may be in flight at once (pipelined, each chained to the one before); absent: 1. */
  readonly pipeline?: number;
  /** Resolves once the records that beat the last conflicting proposal reached `replicate`; rejects after a bounded wait. */
  caughtUp(): Promise<void>;
  /** Resolves once this engine applied the shared log up to its last record (asked of the log); rejects after a bounded wait. */
  sync(): Promise<void>;
  /** Stops taking the other nodes' records (they would find the engine closed); later proposals fail. */
  close(): Promise<void>;
  /** A snapshot holding the shared log up to `position` is durable (renamed in): a restart reads the log only after it. */
  snapshotWritten?(position: number): void;
}

/** The shared log took another node's records first: roll back, take theirs, run again. */
class SharedLogConflict extends Error {}

export interface SnapshotInfo {
  readonly lsn: number;
  readonly file: string;
  readonly bytes: number;
  readonly ms: number;
}

/** What the engine hands over to be snapshotted (captured synchronously at a quiet point; values are not changed in place later). */
export type CaptureState = () => {
  readonly schema: string | null;
  readonly store: GraphStore;
  /** Registered automatic persisted queries: [sha256 hex, query]. */
  readonly persistedQueries: readonly (readonly [string, string])[];
  /** The ACL's users and groups (null: ACL off). */
  readonly acl: AclState | null;
};

/** A log record before it gets its LSN. */
type PendingRecord = LogRecord extends infer R ? (R extends LogRecord ? Omit<R, 'lsn'> : never) : never;

/** A logged operation's result and the LSN of its record (none written: the last LSN when it ran). */
export interface Committed<T> {
  readonly value: T;
  readonly lsn: number;
}

type Work =
  | { readonly kind: 'mutation'; readonly run: () => unknown; readonly done: Settle }
  | {
      readonly kind: 'record';
      readonly record: PendingRecord;
      /** A record replicated from another log keeps its LSN (it must be the next one here). */
      readonly lsn?: number;
      readonly forceSync: boolean;
      readonly apply: () => unknown;
      /** False when its turn comes: the record was computed from a state no longer in force; not written. */
      readonly inForce?: () => boolean;
      readonly done: Settle;
    }
  | { readonly kind: 'snapshot'; readonly done: Settle };

interface Settle {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const maxGroup = 512;

type MutationWork = Extract<Work, { kind: 'mutation' }>;
type Outcome = { ok: boolean; value: unknown; lsn: number };

/**
 * A group of writes proposed to the shared log and not answered yet (pipelined: SharedLog.pipeline > 1).
 * Its writes stay in the store's open transaction, the newer groups' on top.
 */
interface InFlight {
  readonly group: readonly MutationWork[];
  /** The store savepoint before it ran, the log file's size before its frames. */
  readonly mark: number;
  readonly logMark: number;
  readonly firstLsn: number;
  readonly frames: Buffer;
  readonly count: number;
  readonly outcomes: readonly Outcome[];
  /** Set once the proposal is answered. */
  answer: { ok: true; value: 'appended' | 'conflict' } | { ok: false; error: unknown } | undefined;
  readonly answered: Promise<void>;
}

/** A work put back in the queue (cluster conflict): its promise stays open. */
const requeued = Symbol('requeued');

const replicated = (work: Work): boolean => work.kind === 'record' && work.lsn !== undefined;

export class Persistence {
  readonly #io: FileIo;
  #writer: LogWriter | undefined;
  #nextLsn = 1;
  #snapshotLsn = 0;
  readonly #queue: Work[] = [];
  #draining = false;
  #writing: Promise<unknown> = Promise.resolve();
  #timers: NodeJS.Timeout[] = [];
  #capture: CaptureState | undefined;
  #closed = false;

  private constructor(
    private readonly options: PersistenceOptions,
    private readonly store: GraphStore,
  ) {
    this.#io = options.io ?? nodeFileIo;
    this.shared = options.shared;
  }

  /** The snapshot the start restored from (a replica thread loading early checks it loaded the same). */
  restoredFrom: SnapshotIdentity = null;

  /** Reads the data directory; the caller applies the plan, then calls start(). */
  static async open(options: PersistenceOptions, store: GraphStore): Promise<{ persistence: Persistence; plan: RestorePlan }> {
    const persistence = new Persistence(options, store);
    const io = persistence.#io;
    io.mkdir(options.dataDir);
    let plan = await planRestore(io, options.dataDir, options.recover, options.log);
    const shared = options.shared;
    if (shared !== undefined) plan = await agreeWithSharedLog(io, options.dataDir, plan, (tail) => shared.agree(tail), options.log, maxGroup);
    persistence.#nextLsn = plan.lastLsn + 1;
    persistence.#snapshotLsn = plan.snapshot?.header.lsn ?? 0;
    persistence.restoredFrom = snapshotIdentity(plan.snapshot);
    return { persistence, plan };
  }

  /** Opens a fresh log file after the restored state and starts the timers. */
  async start(capture: CaptureState): Promise<void> {
    this.#capture = capture;
    this.#writer = await LogWriter.create(this.#io, this.options.dataDir, this.#nextLsn);
    if (this.options.fsync === 'everysec') this.#every(1000, () => this.#backgroundSync());
    if (this.options.snapshotIntervalMs > 0) {
      this.#every(this.options.snapshotIntervalMs, () => {
        if (this.#nextLsn - 1 > this.#snapshotLsn) this.snapshot().catch((error: unknown) => this.options.log.warn('periodic snapshot failed', { error: String(error) }));
      });
    }
  }

  /** Records logged after the newest snapshot (what a restart would replay). */
  get recordsSinceSnapshot(): number {
    return this.#nextLsn - 1 - this.#snapshotLsn;
  }

  /** LSN of the last logged record. */
  get lastLsn(): number {
    return this.#nextLsn - 1;
  }

  /**
   * Told of the frames of every record once it is durable and applied, in LSN order (a writer's
   * replicas apply them: serving/log-applier.ts); unset, nothing is kept for it.
   */
  published: ((frames: Buffer) => void) | undefined;

  /** Cluster mode's shared log (PersistenceOptions.shared); unset, the local log is the only one. */
  readonly shared: SharedLog | undefined;
  /** Local work put back after a conflict waits for this (only replicated records go meanwhile). */
  #behind: Promise<void> | undefined;

  /** Runs `run` as one logged operation (its store changes become one record). */
  mutate<T>(run: () => Promise<T> | T): Promise<Committed<T>> {
    return this.#enqueue((done) => ({ kind: 'mutation', run, done })) as Promise<Committed<T>>;
  }

  /** Logs a record replicated from another log under its own LSN (the next one here), then runs `apply`. */
  replicate<T>(record: LogRecord, apply: () => T): Promise<T> {
    const { lsn, ...pending } = record;
    // With a shared log, another node's records go before local work waiting in the queue: that work may
    // have lost to them and must run after them.
    return this.#enqueue((done) => ({ kind: 'record', record: pending as PendingRecord, lsn, forceSync: false, apply, done }), this.shared !== undefined) as Promise<T>;
  }

  /** Logs the schema upload durably, then runs `apply` (which deploys it). */
  schema<T>(sdl: string, apply: () => T): Promise<T> {
    return this.#enqueue((done) => ({ kind: 'record', record: { kind: KIND_SCHEMA, sdl }, forceSync: true, apply, done })) as Promise<T>;
  }

  /** Logs an automatic persisted query (fsynced as mutations are), then runs `apply` (which registers it). */
  persistedQuery<T>(sha256: string, query: string, apply: () => T): Promise<T> {
    const record: PendingRecord = { kind: KIND_PERSISTED_QUERY, sha256, query };
    return this.#enqueue((done) => ({ kind: 'record', record, forceSync: false, apply, done })) as Promise<T>;
  }

  /**
   * Logs the ACL's new state (fsynced: a password change must not come undone), then runs `apply`;
   * `stale` (nothing logged) when `inForce` says the state it was computed from was replaced meanwhile
   * (by another node's record, which went first: the whole state is logged, the last one wins).
   */
  acl<T>(acl: AclState, apply: () => T, inForce?: () => boolean): Promise<T | 'stale'> {
    return this.#enqueue((done) => ({ kind: 'record', record: { kind: KIND_ACL, acl }, forceSync: true, apply, done, ...(inForce === undefined ? {} : { inForce }) })) as Promise<T | 'stale'>;
  }

  /** Takes a snapshot now (after everything queued before it) and waits for the file. */
  snapshot(): Promise<SnapshotInfo> {
    return this.#enqueue((done) => ({ kind: 'snapshot', done })).then((started) => (started as { written: Promise<SnapshotInfo> }).written);
  }

  /** Drains the queue, snapshots if anything changed since the last snapshot, closes the log. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.shared?.close();
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    if (this.#writer !== undefined && this.#nextLsn - 1 > this.#snapshotLsn) {
      try {
        await this.snapshot();
      } catch (error) {
        this.options.log.warn('snapshot on shutdown failed; the log still holds everything', { error: String(error) });
      }
    }
    await this.#writing.catch(() => undefined);
    this.#closed = true;
    await this.#writer?.close();
  }

  #enqueue(make: (done: Settle) => Work, beforeLocal = false): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error('the engine is closed'));
    return new Promise((resolve, reject) => {
      const work = make({ resolve, reject });
      const at = beforeLocal ? this.#queue.findIndex((queued) => !replicated(queued)) : -1;
      if (at < 0) this.#queue.push(work);
      else this.#queue.splice(at, 0, work);
      // A drain loop waiting on proposals in flight takes it after this turn's I/O callbacks (one group).
      if (this.#wake !== undefined) setImmediate(() => this.#wake?.());
      if (!this.#draining && !this.#drainScheduled) {
        // Drained after this turn's I/O callbacks: the mutations of requests read in the same turn form
        // one group (one write) instead of the first one going alone.
        this.#drainScheduled = true;
        setImmediate(() => {
          this.#drainScheduled = false;
          void this.#drain();
        });
      }
    });
  }

  #drainScheduled = false;

  /** Pipelined proposals (SharedLog.pipeline > 1): the groups in flight, oldest first, in `#pipeTxn`. */
  readonly #inFlight: InFlight[] = [];
  #pipeTxn: Transaction | undefined;
  /** Readers waiting for a point where no unanswered write is in the store (`readable`). */
  #readers: (() => void)[] = [];
  /** Wakes a drain loop waiting on the pipeline when work is queued. */
  #wake: (() => void) | undefined;

  /** A group's writes are in the store, not yet durable (an fsync, a proposal or an operation awaited): `#commitGroup`. */
  #groupOpen = false;

  /**
   * Undefined when the store holds no write that is not yet answered; else resolves at the next point where
   * it holds none (no new group starts while readers wait): reads never see a write that may still be rolled
   * back (a failed fsync, a refused proposal). A group awaiting `--fsync always` or a proposal, or pipelined
   * proposals across turns, keep such writes in the store.
   */
  readable(): Promise<void> | undefined {
    if (this.#inFlight.length === 0 && !this.#groupOpen) return undefined;
    const waitMs = this.options.readWaitMs ?? defaultReadWaitMs;
    return new Promise((resolve, reject) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve();
      };
      // An expired reader leaves the list: readers waiting hold back the next pipelined group.
      const timer = setTimeout(() => {
        this.#readers.splice(this.#readers.indexOf(wake) >>> 0, 1);
        reject(new ReadWaitExpired(waitMs));
      }, waitMs);
      this.#readers.push(wake);
    });
  }

  get #depth(): number {
    return Math.max(1, this.shared?.pipeline ?? 1);
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      for (;;) {
        if (this.#depth > 1) {
          while (this.#inFlight[0]?.answer !== undefined) this.#settle();
          // This node's own messages coming back from the shared log, once committed: skipped without
          // waiting for the groups in flight after them (#commitRecord skips them alike).
          for (let head = this.#queue[0]; head?.kind === 'record' && head.lsn !== undefined && head.lsn < this.#nextLsn; head = this.#queue[0]) {
            this.#queue.shift();
            head.done.resolve(undefined);
          }
          if (this.#inFlight.length === 0 && this.#readers.length > 0) {
            // The readers run before the next group starts (their continuations, then this turn's end).
            this.#releaseReaders();
            await new Promise((resolve) => setImmediate(resolve));
            continue;
          }
          const head = this.#queue[0];
          const blocked = this.#readers.length > 0 || (this.#behind !== undefined && head !== undefined && !replicated(head));
          if (head?.kind === 'mutation' && !blocked && this.#inFlight.length < this.#depth) {
            await this.#proposeGroup(this.#takeGroup());
            continue;
          }
          if (this.#inFlight.length > 0) {
            // Anything else (another node's record, a snapshot) waits for the pipeline to empty.
            const woken = new Promise<void>((resolve) => (this.#wake = resolve));
            await Promise.race([(this.#inFlight[0] as InFlight).answered, woken]);
            this.#wake = undefined;
            continue;
          }
        }
        if (this.#queue.length === 0) break;
        const head = this.#queue[0] as Work;
        if (this.#behind !== undefined && !replicated(head)) break;
        if (head.kind === 'mutation') {
          await this.#commitGroup(this.#takeGroup());
          if (this.#readers.length > 0) {
            // The readers that waited on it run before the next group opens (their continuations, then this turn's end).
            this.#releaseReaders();
            await new Promise((resolve) => setImmediate(resolve));
          }
        } else {
          this.#queue.shift();
          try {
            const result = head.kind === 'record' ? await this.#commitRecord(head) : await this.#startSnapshot();
            if (result !== requeued) head.done.resolve(result);
          } catch (error) {
            head.done.reject(error);
          }
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  /** The mutations at the head of the queue, up to a group's size. */
  #takeGroup(): MutationWork[] {
    let n = 1;
    while (n < this.#queue.length && n < maxGroup && this.#queue[n]?.kind === 'mutation') n++;
    return this.#queue.splice(0, n) as MutationWork[];
  }

  /** Runs the group's operations in `txn` (one savepoint each): their frames (LSNs from `firstLsn`) and outcomes. */
  async #runGroup(txn: Transaction, group: readonly MutationWork[], firstLsn: number): Promise<{ frames: Buffer[]; outcomes: Outcome[] }> {
    const frames: Buffer[] = [];
    const outcomes: Outcome[] = [];
    for (const work of group) {
      const mark = txn.savepoint();
      try {
        const value = await work.run();
        const ops = txn.redoSince(mark);
        if (ops.length > 0) frames.push(frameRecord({ kind: KIND_MUTATION, lsn: firstLsn + frames.length, ops }));
        outcomes.push({ ok: true, value, lsn: firstLsn + frames.length - 1 });
      } catch (error) {
        txn.rollbackTo(mark);
        outcomes.push({ ok: false, value: error, lsn: 0 });
      }
    }
    return { frames, outcomes };
  }

  #answer(group: readonly MutationWork[], outcomes: readonly Outcome[]): void {
    group.forEach((work, i) => {
      const outcome = outcomes[i] as Outcome;
      if (outcome.ok) work.done.resolve({ value: outcome.value, lsn: outcome.lsn });
      else work.done.reject(outcome.value);
    });
  }

  async #commitGroup(group: readonly MutationWork[]): Promise<void> {
    this.#groupOpen = true;
    try {
      await this.#runAndCommit(group);
    } finally {
      this.#groupOpen = false;
    }
  }

  async #runAndCommit(group: readonly MutationWork[]): Promise<void> {
    const txn: Transaction = this.store.begin();
    const firstLsn = this.#nextLsn;
    const { frames, outcomes } = await this.#runGroup(txn, group, firstLsn);
    if (frames.length > 0) {
      try {
        await this.#append(frames);
      } catch (error) {
        txn.rollback();
        if (error instanceof SharedLogConflict) {
          this.#retryAfterCatchUp(group);
          return;
        }
        const failure = new DurabilityError(error);
        this.options.log.warn('mutation log write failed: operations rolled back', { error: String(error), operations: group.length });
        for (const work of group) work.done.reject(failure);
        return;
      }
    }
    txn.commit();
    this.#nextLsn = firstLsn + frames.length;
    if (frames.length > 0) this.published?.(frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames));
    this.#answer(group, outcomes);
    this.#maybeSnapshot();
  }

  /**
   * Pipelined: runs the group on top of the groups in flight (in the same open transaction), appends its
   * frames to the local log and proposes them chained to the previous proposal, without waiting for the
   * answer (`#settle` takes the answers in order).
   */
  async #proposeGroup(group: readonly MutationWork[]): Promise<void> {
    const last = this.#inFlight.at(-1);
    const firstLsn = last === undefined ? this.#nextLsn : last.firstLsn + last.count;
    const txn = (this.#pipeTxn ??= this.store.begin());
    const mark = txn.savepoint();
    const { frames, outcomes } = await this.#runGroup(txn, group, firstLsn);
    if (frames.length === 0) {
      // Nothing to propose: answered now, unless older writes in flight could still be refused (then it runs again with them).
      if (this.#inFlight.length === 0) {
        this.#pipeTxn = undefined;
        txn.commit();
        this.#answer(group, outcomes);
        return;
      }
    }
    const writer = this.#requireWriter();
    const logMark = writer.size;
    const bytes = frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames);
    const shared = this.shared as SharedLog;
    let proposal: Promise<'appended' | 'conflict'>;
    if (frames.length === 0) proposal = Promise.resolve('appended');
    else {
      try {
        writer.append(bytes);
        const chained = last !== undefined;
        proposal = (this.options.fsync === 'always' ? writer.sync() : Promise.resolve()).then(() => shared.propose(bytes, chained));
      } catch (error) {
        proposal = Promise.reject(error);
      }
    }
    const flight: InFlight = {
      group,
      mark,
      logMark,
      firstLsn,
      frames: bytes,
      count: frames.length,
      outcomes,
      answer: undefined,
      answered: proposal.then(
        (value) => void (flight.answer = { ok: true, value }),
        (error: unknown) => void (flight.answer = { ok: false, error }),
      ),
    };
    this.#inFlight.push(flight);
  }

  /**
   * The oldest group in flight was answered. Appended: committed (the newer stay open) and answered.
   * Refused or failed: so are the newer ones (chained to it, they cannot land after it): every group in
   * flight is rolled back, newest first, and cut off the local log; refused, they go back to the head of
   * the queue in order; failed, each answers the failure (its outcome unknown when the oldest's is).
   */
  #settle(): void {
    const flight = this.#inFlight[0] as InFlight;
    const answer = flight.answer as NonNullable<InFlight['answer']>;
    const txn = this.#pipeTxn as Transaction;
    if (answer.ok && answer.value === 'appended') {
      this.#inFlight.shift();
      const next = this.#inFlight[0];
      if (next === undefined) {
        this.#pipeTxn = undefined;
        txn.commit();
      } else txn.commitThrough(next.mark);
      this.#nextLsn = flight.firstLsn + flight.count;
      if (flight.count > 0) this.published?.(flight.frames);
      this.#answer(flight.group, flight.outcomes);
      this.#maybeSnapshot();
      return;
    }
    const all = this.#inFlight.splice(0);
    this.#pipeTxn = undefined;
    txn.rollback();
    this.#requireWriter().discardFrom(flight.logMark);
    const works = all.flatMap((f) => f.group);
    if (answer.ok) {
      this.#retryAfterCatchUp(works);
      return;
    }
    const failure = new DurabilityError(answer.error);
    this.options.log.warn('mutation log write failed: operations rolled back', { error: String(answer.error), operations: works.length, groups: all.length });
    for (const work of works) work.done.reject(failure);
  }

  #releaseReaders(): void {
    for (const resolve of this.#readers.splice(0)) resolve();
  }

  async #commitRecord(work: Extract<Work, { kind: 'record' }>): Promise<unknown> {
    const { record, lsn, forceSync, apply } = work;
    // A node's own record, committed while its copy from the shared log was already queued.
    if (lsn !== undefined && lsn < this.#nextLsn && this.shared !== undefined) return undefined;
    if (lsn !== undefined && lsn !== this.#nextLsn) throw new Error(`a replicated log record has LSN ${lsn}, this log's next is ${this.#nextLsn}`);
    if (work.inForce?.() === false) return 'stale';
    const frame = frameRecord({ ...record, lsn: this.#nextLsn } as LogRecord);
    try {
      await this.#append([frame], forceSync, lsn === undefined);
    } catch (error) {
      if (error instanceof SharedLogConflict) return this.#retryAfterCatchUp([work]);
      throw new DurabilityError(error);
    }
    this.#nextLsn++;
    const result = apply();
    this.published?.(frame);
    this.#maybeSnapshot();
    return result;
  }

  /**
   * Writes the frames; with `always` (or `forceSync`) waits for the fsync; then proposes what is this
   * node's own (`propose`) to the shared log. Leaves nothing behind on failure.
   */
  async #append(frames: readonly Buffer[], forceSync = false, propose = true): Promise<void> {
    const writer = this.#requireWriter();
    const mark = writer.size;
    try {
      const bytes = frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames);
      writer.append(bytes);
      if (forceSync || this.options.fsync === 'always') await writer.sync();
      if (propose && this.shared !== undefined && (await this.shared.propose(bytes)) === 'conflict') throw new SharedLogConflict();
    } catch (error) {
      writer.discardFrom(mark);
      throw error;
    }
  }

  /**
   * Puts the works that lost to another node back at the head of the queue (their promises still open);
   * they run again once that node's records are applied, or fail if they do not come in time.
   */
  #retryAfterCatchUp(works: readonly Work[]): typeof requeued {
    // Behind the other node's records already queued: they must be applied first.
    const at = this.#queue.findIndex((queued) => !replicated(queued));
    this.#queue.splice(at < 0 ? this.#queue.length : at, 0, ...works);
    const shared = this.shared as SharedLog;
    this.#behind = shared.caughtUp().then(
      () => {
        this.#behind = undefined;
        if (!this.#draining) void this.#drain();
      },
      (error: unknown) => {
        this.#behind = undefined;
        const failure = new DurabilityError(error);
        for (const work of works) {
          const at = this.#queue.indexOf(work);
          if (at >= 0) this.#queue.splice(at, 1);
          work.done.reject(failure);
        }
        if (!this.#draining) void this.#drain();
      },
    );
    return requeued;
  }

  #maybeSnapshot(): void {
    const every = this.options.snapshotEveryRecords;
    const last = this.#nextLsn - 1;
    if (every > 0 && last - Math.max(this.#snapshotLsn, this.#requestedAt) >= every) {
      this.#requestedAt = last; // the file lands later: do not ask again meanwhile
      this.snapshot().catch((error: unknown) => this.options.log.warn('snapshot failed', { error: String(error) }));
    }
  }

  #requestedAt = 0;

  /**
   * At a quiet point: capture (a copy of the state: cheap, synchronous, so nothing changes between the
   * capture and the file's content) and switch the log to a new file; the copy is encoded and written to
   * the `.tmp` by a worker thread (the event loop keeps turning: reads and later writes go on), then renamed.
   */
  async #startSnapshot(): Promise<{ written: Promise<SnapshotInfo> }> {
    const started = performance.now();
    const capture = this.#capture;
    if (capture === undefined) throw new Error('persistence not started');
    const lsn = this.#nextLsn - 1;
    // Started first: the capture's copies go to it as they are made (held here, they started major GCs of this heap).
    const encoder = new SnapshotEncoder();
    let content: SnapshotContent;
    try {
      const state = capture();
      const position = this.shared?.position;
      content = { lsn, schema: state.schema, store: state.store.exportSnapshot(encoder.sink, this.options.snapshotPostings === true), persistedQueries: state.persistedQueries, acl: state.acl, ...(position === undefined ? {} : { sharedLogPosition: position }) };
      const old = this.#requireWriter();
      if (old.startLsn !== this.#nextLsn) {
        this.#writer = await LogWriter.create(this.#io, this.options.dataDir, this.#nextLsn);
        await old.close();
      }
    } catch (error) {
      encoder.stop();
      throw error;
    }
    const createdAt = new Date().toISOString();
    const previous = this.#writing;
    const written = previous
      .catch(() => undefined)
      .then(() =>
        encoder.write(content, createdAt, this.options.dataDir, this.#io === nodeFileIo ? undefined : this.#io).catch((error: unknown) => {
          removeSnapshotTmp(this.#io, this.options.dataDir, lsn); // a thread that stopped mid-write leaves it
          throw error;
        }),
      )
      .then(async (bytes) => ({ path: await publishSnapshotTmp(this.#io, this.options.dataDir, lsn), bytes }))
      .then(async ({ path, bytes }) => {
        if (lsn > this.#snapshotLsn) this.#snapshotLsn = lsn;
        await this.#prune();
        const seconds = (performance.now() - started) / 1000;
        persistFigures.lastSnapshotAt = Date.now() / 1000;
        persistFigures.lastSnapshotSeconds = seconds;
        const info: SnapshotInfo = { lsn, file: path, bytes, ms: Math.round(seconds * 1000) };
        this.options.log.info('snapshot written', { ...info });
        if (content.sharedLogPosition !== undefined) this.#tellSnapshotWritten(content.sharedLogPosition);
        return info;
      });
    this.#writing = written.catch(() => undefined);
    written.catch(() => undefined); // the requester handles the failure; never an unhandled rejection here
    return { written };
  }

  /** The snapshot is durable whatever the shared log makes of it. */
  #tellSnapshotWritten(position: number): void {
    try {
      this.shared?.snapshotWritten?.(position);
    } catch (error) {
      this.options.log.warn('the shared log failed to take a written snapshot\'s position', { position, error: String(error) });
    }
  }

  /** Keeps the newest `keepSnapshots` snapshots and the log back to the oldest of them. */
  async #prune(): Promise<void> {
    const dir = this.options.dataDir;
    const listing = classify(this.#io.list(dir));
    const keep = Math.max(1, this.options.keepSnapshots);
    for (const lsn of listing.snapshots.slice(keep)) await this.#io.remove(join(dir, snapshotFileName(lsn)));
    const oldestKept = listing.snapshots.slice(0, keep).at(-1) ?? 0;
    const logs = listing.logs;
    for (let i = 0; i + 1 < logs.length; i++) {
      const start = logs[i] as number;
      if ((logs[i + 1] as number) <= oldestKept + 1 && start !== this.#writer?.startLsn) await this.#io.remove(join(dir, logFileName(start)));
    }
    await this.#io.fsyncDir(dir);
  }

  async #backgroundSync(): Promise<void> {
    const writer = this.#writer;
    if (writer === undefined || writer.synced) return;
    try {
      await writer.sync();
    } catch (error) {
      this.options.log.warn('background fsync of the mutation log failed (will retry)', { error: String(error) });
    }
  }

  #every(ms: number, fn: () => unknown): void {
    const timer = setInterval(() => void fn(), ms);
    timer.unref();
    this.#timers.push(timer);
  }

  #requireWriter(): LogWriter {
    if (this.#writer === undefined) throw new Error('persistence not started');
    return this.#writer;
  }
}
