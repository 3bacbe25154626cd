// Applying the log: the one place a snapshot is loaded and log records are applied, for a restart's
// restore (open-persistence.ts) and for a replica fed another engine's records (Engine.replicate).
// Applying is deterministic: mutation records are physical redo (ids, `$now` values, anything decided
// when the write ran are in them), schema records are SDL compiled the same way everywhere, ACL records
// carry the whole ACL state (password hashes included), persisted-query records the query. No clock, no
// randomness, no GraphQL execution.

import type { Acl } from '../acl/acl.js';
import type { AclState } from '../acl/acl-state.js';
import type { Graph } from '../exec/graph.js';
import { KIND_ACL, KIND_MUTATION, KIND_PERSISTED_QUERY, type LogRecord } from '../persist/log-format.js';
import type { SnapshotContent } from '../persist/snapshot-file.js';
import type { PersistedQueries } from '../request/persisted-queries.js';
import type { SchemaLifecycle } from './schema-lifecycle.js';

/** What the log's records change. */
export interface LogTarget {
  readonly graph: Graph;
  readonly persistedQueries: PersistedQueries;
  readonly schema: SchemaLifecycle;
  /** Absent when ACL is off: ACL records are then only carried (into snapshots and the digest). */
  readonly acl: Acl | undefined;
}

export class LogApplier {
  #lsn = 0;
  #carriedAcl: AclState | null = null;

  constructor(readonly into: LogTarget) {}

  /** LSN of the last record applied (or of the snapshot loaded); 0 when none. */
  get lsn(): number {
    return this.#lsn;
  }

  /** The ACL's users and groups: the live ones with ACL on, else the last restored or applied (null: none). */
  get aclState(): AclState | null {
    return this.into.acl?.state ?? this.#carriedAcl;
  }

  /**
   * Loads a snapshot into a fresh engine; `column` is told each scalar column once it and its indexes are
   * in, `loaded` when the whole store is (before the schema is deployed).
   */
  loadSnapshot(snapshot: SnapshotContent, loaded: () => void = () => undefined, column?: (predicate: string, indexKinds: readonly string[]) => void): void {
    this.into.graph.store.importSnapshot(snapshot.store, column);
    loaded();
    for (const [sha256, query] of snapshot.persistedQueries) this.into.persistedQueries.register(sha256, query);
    if (snapshot.acl !== null) this.#restoreAcl(snapshot.acl);
    if (snapshot.schema !== null) this.into.schema.deployOrThrow(snapshot.schema, `snapshot ${snapshot.lsn}`);
    this.#lsn = snapshot.lsn;
  }

  /** Applies one record (the caller keeps the order: LSNs one after another). */
  apply(record: LogRecord): void {
    if (record.kind === KIND_MUTATION) this.into.graph.store.applyRedo(record.ops);
    else if (record.kind === KIND_PERSISTED_QUERY) this.into.persistedQueries.register(record.sha256, record.query);
    else if (record.kind === KIND_ACL) this.#restoreAcl(record.acl);
    else this.into.schema.deployOrThrow(record.sdl, `log record ${record.lsn}`);
    this.#lsn = record.lsn;
  }

  #restoreAcl(state: AclState): void {
    this.#carriedAcl = state;
    this.into.acl?.restore(state);
  }
}
