// Opening the data directory: restore the newest valid snapshot, replay the log after it (physical
// redo; schema records are redeployed), then start logging and snapshotting.

import type { EngineLogger, EngineOptions } from '../api.js';
import type { Graph } from '../exec/graph.js';
import { KIND_MUTATION, KIND_PERSISTED_QUERY } from '../persist/log-format.js';
import { Persistence, type RestorePlan } from '../persist/persistence.js';
import type { PersistedQueries } from '../request/persisted-queries.js';
import type { SchemaLifecycle } from './schema-lifecycle.js';

interface Restored {
  readonly graph: Graph;
  readonly persistedQueries: PersistedQueries;
  readonly schema: SchemaLifecycle;
}

/** Rejects (RestoreError) when the data directory is damaged and `recover` is not set. */
export async function openPersistence(options: EngineOptions, log: EngineLogger, into: Restored): Promise<Persistence> {
  const everySeconds = options.snapshotIntervalSeconds ?? 300;
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
  const started = performance.now();
  replay(plan, into);
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
  await persistence.start(() => ({ schema: into.schema.state.compiled?.sdl ?? null, store: into.graph.store, persistedQueries: into.persistedQueries.entries() }));
  return persistence;
}

/** Loads the snapshot, then replays the log records. */
function replay(plan: RestorePlan, { graph, persistedQueries, schema }: Restored): void {
  const snapshot = plan.snapshot?.content;
  if (snapshot !== undefined) {
    graph.store.importSnapshot(snapshot.store);
    for (const [sha256, query] of snapshot.persistedQueries) persistedQueries.register(sha256, query);
    if (snapshot.schema !== null) schema.deployOrThrow(snapshot.schema, `snapshot ${snapshot.lsn}`);
  }
  for (const record of plan.records) {
    if (record.kind === KIND_MUTATION) graph.store.applyRedo(record.ops);
    else if (record.kind === KIND_PERSISTED_QUERY) persistedQueries.register(record.sha256, record.query);
    else schema.deployOrThrow(record.sdl, `log record ${record.lsn}`);
  }
}
