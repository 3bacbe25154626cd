// Opening the data directory: restore the newest valid snapshot, replay the log after it (physical
// redo; schema records are redeployed), then start logging and snapshotting.

import type { EngineLogger, EngineOptions } from '../api.js';
import { Persistence, type CaptureState, type RestorePlan } from '../persist/persistence.js';
import type { FileIo } from '../persist/file-io.js';
import { logAfterReadOnly, newestSnapshotReadOnly, planRestore, snapshotIdentity, type SnapshotIdentity } from '../persist/restore.js';
import type { LogApplier } from './log-applier.js';
import { progressThrottle } from '../util/progress-throttle.js';

/**
 * Rejects (RestoreError) when the data directory is damaged and `recover` is not set. `capture` is the
 * logical state snapshots hold (Engine.#logicalState).
 */
export async function openPersistence(options: EngineOptions, log: EngineLogger, applier: LogApplier, capture: CaptureState): Promise<Persistence> {
  const { into } = applier;
  const everySeconds = options.snapshotIntervalSeconds ?? 300;
  const progress = restoreProgress(log);
  const { persistence, plan } = await Persistence.open(
    {
      dataDir: options.dataDir,
      fsync: options.fsync ?? 'everysec',
      recover: options.recover ?? false,
      snapshotEveryRecords: options.snapshotEveryMutations ?? 100_000,
      snapshotIntervalMs: everySeconds * 1000,
      keepSnapshots: options.keepSnapshots ?? 2,
      snapshotPostings: options.snapshotPostings ?? false,
      log,
      ...(options.readWaitMs === undefined ? {} : { readWaitMs: options.readWaitMs }),
      ...(options.fileIo === undefined ? {} : { io: options.fileIo }),
      ...(options.sharedLog === undefined ? {} : { shared: options.sharedLog }),
    },
    into.graph.store,
  );
  if (!plan.fresh) progress.phase('files read and checked');
  const started = performance.now();
  replay(plan, applier, progress);
  if (!plan.fresh) {
    const stats = into.graph.store.stats();
    log.info('restored', {
      snapshotLsn: plan.snapshot?.header.lsn ?? 0,
      replayed: plan.records.length,
      lastLsn: plan.lastLsn,
      nodes: stats.nodes,
      ms: Math.round(performance.now() - started),
    });
  }
  await persistence.start(capture);
  const acl = into.acl;
  if (acl !== undefined) {
    acl.commit = (next, apply, basedOn) =>
      persistence.acl(
        next,
        () => {
          apply();
          return persistence.lastLsn;
        },
        () => acl.state === basedOn,
      );
  }
  return persistence;
}

/**
 * A replica's start (server/threads/): the state a writer's data directory holds, read without changing
 * it while the writer goes on appending (persist/restore.ts `readOnly`); returns the LSN reached. The
 * writer's records published after it come through `Engine.replicate`, which skips what this loaded.
 */
export async function seedFromFiles(io: FileIo, dir: string, log: EngineLogger, applier: LogApplier, writerBase?: () => Promise<SnapshotIdentity>): Promise<number> {
  if (writerBase === undefined) {
    replay(await planRestore(io, dir, false, log, true), applier, restoreProgress(log));
    return applier.lsn;
  }
  // Started beside a writer that is still opening the directory: its newest snapshot is loaded now
  // (snapshot files never change), the log only once the writer opened it (its start may cut a tail).
  const progress = restoreProgress(log);
  const snapshot = newestSnapshotReadOnly(io, dir);
  replay({ snapshot, records: [], lastLsn: 0, fresh: false }, applier, progress);
  const base = await writerBase();
  const loaded = snapshotIdentity(snapshot);
  if (loaded?.lsn !== base?.lsn || loaded?.bodyCrc !== base?.bodyCrc) throw new SeedBaseMismatch(loaded, base);
  replay({ snapshot: undefined, records: await logAfterReadOnly(io, dir, loaded?.lsn ?? 0, log), lastLsn: 0, fresh: false }, applier, progress);
  return applier.lsn;
}

/** An early replica loaded another snapshot than the one its writer restored from (the caller starts over). */
export class SeedBaseMismatch extends Error {
  constructor(loaded: SnapshotIdentity, writer: SnapshotIdentity) {
    super(`loaded the snapshot at LSN ${loaded?.lsn ?? 'none'}, the writer restored from the one at LSN ${writer?.lsn ?? 'none'}`);
  }
}

export interface RestoreProgress {
  /** A phase of the start has ended. */
  phase(name: string): void;
  /** `done` of the `total` log records after the snapshot are replayed. */
  replayed(done: number, total: number): void;
}

/**
 * Progress of a start that takes more than a second (a large snapshot, a long log): once past it, a
 * line as each phase ends, and during the log replay one every 2 s with the records replayed, the
 * total, the percentage and the rate (util/progress-throttle.ts decides when). A quick start says
 * nothing but its `restored` line.
 */
export function restoreProgress(log: EngineLogger, now?: () => number): RestoreProgress {
  const throttle = progressThrottle(2000, 1000, now);
  return {
    phase(name) {
      const figures = throttle.due(0, 0, true);
      if (figures !== undefined) log.info('restoring', { done: name, ms: figures.ms });
    },
    replayed(done, total) {
      const figures = throttle.due(done, total);
      if (figures !== undefined) log.info('restoring', { replayed: done, of: total, percent: figures.percent, perSecond: figures.perSecond, ms: figures.ms });
    },
  };
}

/** Loads the snapshot, then replays the log records after it. */
function replay(plan: RestorePlan, applier: LogApplier, progress: RestoreProgress): void {
  const snapshot = plan.snapshot?.content;
  if (snapshot !== undefined) {
    // Per column: at 1M the import is index building, a few seconds per token index.
    applier.loadSnapshot(snapshot, () => progress.phase('snapshot loaded'), (predicate, kinds) => progress.phase(kinds.length === 0 ? predicate : `${predicate} with its ${kinds.join(', ')} index${kinds.length > 1 ? 'es' : ''}`));
    progress.phase('schema and indexes built');
  }
  const total = plan.records.length;
  for (let i = 0; i < total; i++) {
    if ((i & 1023) === 0 && i > 0) progress.replayed(i, total);
    applier.apply(plan.records[i] as RestorePlan['records'][number]);
  }
  if (total > 0) progress.phase(`${total} log records replayed`);
}
