// Opening the data directory: restore the newest valid snapshot, replay the log after it (physical
// redo; schema records are redeployed), then start logging and snapshotting.

import type { EngineLogger, EngineOptions } from '../api.js';
import type { Graph } from '../exec/graph.js';
import type { Acl } from '../acl/acl.js';
import type { AclState } from '../acl/acl-state.js';
import { KIND_ACL, KIND_MUTATION, KIND_PERSISTED_QUERY } from '../persist/log-format.js';
import { Persistence, type RestorePlan } from '../persist/persistence.js';
import type { PersistedQueries } from '../request/persisted-queries.js';
import type { SchemaLifecycle } from './schema-lifecycle.js';
import { progressThrottle } from '../util/progress-throttle.js';

interface Restored {
  readonly graph: Graph;
  readonly persistedQueries: PersistedQueries;
  readonly schema: SchemaLifecycle;
  /** Absent when ACL is off: the restored ACL data is then only carried into later snapshots. */
  readonly acl: Acl | undefined;
}

/** Rejects (RestoreError) when the data directory is damaged and `recover` is not set. */
export async function openPersistence(options: EngineOptions, log: EngineLogger, into: Restored): Promise<Persistence> {
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
      log,
      ...(options.fileIo === undefined ? {} : { io: options.fileIo }),
    },
    into.graph.store,
  );
  if (!plan.fresh) progress.phase('files read and checked');
  const started = performance.now();
  const restoredAcl = replay(plan, into, progress);
  if (restoredAcl !== null) into.acl?.restore(restoredAcl);
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
  await persistence.start(() => ({
    schema: into.schema.state.compiled?.sdl ?? null,
    store: into.graph.store,
    persistedQueries: into.persistedQueries.entries(),
    acl: into.acl?.state ?? restoredAcl,
  }));
  const acl = into.acl;
  if (acl !== undefined) acl.commit = (next, apply) => persistence.acl(next, apply);
  return persistence;
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

/** Loads the snapshot, then replays the log records; returns the last ACL state among them. */
function replay(plan: RestorePlan, { graph, persistedQueries, schema }: Restored, progress: RestoreProgress): AclState | null {
  let acl: AclState | null = null;
  const snapshot = plan.snapshot?.content;
  if (snapshot !== undefined) {
    graph.store.importSnapshot(snapshot.store);
    progress.phase('snapshot loaded');
    for (const [sha256, query] of snapshot.persistedQueries) persistedQueries.register(sha256, query);
    acl = snapshot.acl;
    if (snapshot.schema !== null) schema.deployOrThrow(snapshot.schema, `snapshot ${snapshot.lsn}`);
    progress.phase('schema and indexes built');
  }
  const total = plan.records.length;
  for (let i = 0; i < total; i++) {
    const record = plan.records[i] as RestorePlan['records'][number];
    if ((i & 1023) === 0 && i > 0) progress.replayed(i, total);
    if (record.kind === KIND_MUTATION) graph.store.applyRedo(record.ops);
    else if (record.kind === KIND_PERSISTED_QUERY) persistedQueries.register(record.sha256, record.query);
    else if (record.kind === KIND_ACL) acl = record.acl;
    else schema.deployOrThrow(record.sdl, `log record ${record.lsn}`);
  }
  if (total > 0) progress.phase(`${total} log records replayed`);
  return acl;
}
