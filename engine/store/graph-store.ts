// The graph store: nodes with dense ids, their types, scalar columns and edge columns, and a single
// undo-logged transaction at a time. Knows nothing of GraphQL.

import { PostingList } from '../indexes/postings/posting-list.js';
import { EMPTY_IDS, type SortedIds } from '../util/sorted-ids.js';
import { EdgeColumnImpl, type EdgeColumn } from './edge-column.js';
import { grownInt32, grownUint8 } from './grow.js';
import { ScalarColumnImpl, type ScalarColumn, type StoredValue } from './scalar-column.js';
import { TypeSets } from './type-sets.js';
import type { IndexKindName } from '../indexes/index-kind.js';
import {
  OP_CREATE,
  OP_DELETE,
  OP_EDGE_ADDED,
  OP_EDGE_REMOVED,
  OP_INDEX_CREATED,
  OP_SCALAR,
  OP_TYPES,
  UndoLog,
  type ColumnContext,
} from './undo-log.js';
import { parseSafeUint, parseUint } from './parse-uid.js';
import type { ScalarColumnSnapshot } from './scalar-column.js';
import { R_CREATE, R_DELETE, R_EDGE_ADD, R_EDGE_REMOVE, R_INDEX, R_SET, R_TYPES, R_UNSET, type RedoOps } from './redo.js';

export type { EdgeColumn } from './edge-column.js';
export type { IndexPostings, ScalarColumn, ScalarColumnSnapshot, StoredValue } from './scalar-column.js';
export { CapturedStrings } from './string-arena.js';
export { CapturedValues, type CaptureSink } from './captured-values.js';
import type { CaptureSink } from './captured-values.js';
export type { RedoOps } from './redo.js';

/** What one committed transaction wrote: predicates (scalar and edge), and the types of nodes created, deleted or retyped. */
export interface Touched {
  readonly predicates: ReadonlySet<string>;
  readonly types: ReadonlySet<string>;
}

export interface Transaction {
  commit(): void;
  rollback(): void;
  /**
   * Commits what was done before `mark` (onCommit told of it) and keeps the rest open, undoable: groups of
   * writes stacked in one transaction are committed one at a time, oldest first, as each is acknowledged.
   */
  commitThrough(mark: number): void;
  /** A mark to roll back to later (a savepoint); marks are positions in the undo log since `begin`, kept valid by `commitThrough`. */
  savepoint(): number;
  /** Undoes everything done since `mark`; the transaction stays open. */
  rollbackTo(mark: number): void;
  /** The physical redo of everything done since `mark` (final values as they are now). */
  redoSince(mark: number): RedoOps;
  /** How many changes (undo records: a node created, a value set, an edge added, ...) were made since `mark`. */
  changesSince(mark: number): number;
}

/** The whole store in columnar form (see ScalarColumnSnapshot); exportSnapshot's arrays are copies. */
export interface StoreSnapshot {
  readonly nextId: number;
  readonly alive: Uint8Array;
  readonly typeSets: readonly (readonly string[])[];
  readonly typeSetOf: Int32Array;
  readonly scalars: readonly ScalarColumnSnapshot[];
  readonly edges: readonly { readonly predicate: string; readonly from: Int32Array; readonly to: Int32Array }[];
}

export interface StoreStats {
  nodes: number;
  scalarValues: number;
  edges: number;
  indexEntries: number;
}

export interface StoreFigures {
  readonly nodesByType: ReadonlyMap<string, number>;
  readonly edgesByPredicate: ReadonlyMap<string, number>;
  readonly indexEntries: readonly { readonly predicate: string; readonly kind: string; readonly entries: number }[];
  readonly arenaBytes: number;
}

/** A log larger than this (in slots, 8 bytes each) is not kept for the next transaction. */
const SPARE_LOG_MAX_SLOTS = 1 << 20;

/** Ids are kept in Int32 slots. */
const MAX_ID = 0x7fffffff;

export class GraphStore implements ColumnContext {
  private nextId = 1;
  private liveCount = 0;
  private alive = new Uint8Array(0);
  private typeSetOf = new Int32Array(0);
  private readonly typeSets = new TypeSets();
  private readonly typeMembers = new Map<string, PostingList>();
  private readonly scalarCols = new Map<string, ScalarColumnImpl>();
  private readonly edgeCols = new Map<string, EdgeColumnImpl>();
  private log: UndoLog | undefined;
  /** The last transaction's log, emptied, for the next one (its array keeps its capacity). */
  private spareLog: UndoLog | undefined;
  private txn: Transaction | undefined;
  private changes = 0;

  /**
   * Counts committed transactions, replayed redo batches and snapshot loads: what size statistics
   * derived from the store (query cost estimates) are valid for.
   */
  get version(): number {
    return this.changes;
  }

  /** Highest id ever created (0 when none). */
  get maxNodeId(): number {
    return this.nextId - 1;
  }

  get undoLog(): UndoLog | undefined {
    return this.log;
  }

  static uidOf(id: number): string {
    return '0x' + id.toString(16);
  }

  /** Go's strconv.ParseUint(uid, 0, 64); undefined if not parseable or above Number.MAX_SAFE_INTEGER. */
  static parseUid(uid: string): number | undefined {
    return parseSafeUint(uid);
  }

  /** True if Go's strconv.ParseUint(uid, 0, 64) accepts `uid` (even when it is too large to be a node id here). */
  static isUidSyntax(uid: string): boolean {
    return parseUint(uid) !== undefined;
  }

  createNode(): number {
    const id = this.nextId;
    if (id > MAX_ID) throw new Error('node id space exhausted');
    if (id >= this.alive.length) {
      this.alive = grownUint8(this.alive, id);
      this.typeSetOf = grownInt32(this.typeSetOf, id);
    }
    this.nextId = id + 1;
    this.alive[id] = 1;
    this.liveCount++;
    this.log?.push(OP_CREATE, id);
    return id;
  }

  nodeExists(id: number): boolean {
    return this.alive[id] === 1;
  }

  assertNode(id: number): void {
    if (this.alive[id] !== 1) throw new Error(`node ${GraphStore.uidOf(id)} does not exist`);
  }

  /** Removes the node, its types, scalar values (and index entries) and edges in both directions. No-op if absent. */
  deleteNode(id: number): void {
    if (!this.nodeExists(id)) return;
    for (const col of this.scalarCols.values()) col.delete(id);
    for (const col of this.edgeCols.values()) col.detach(id);
    this.setTypeSet(id, 0);
    this.alive[id] = 0;
    this.liveCount--;
    this.log?.push(OP_DELETE, id);
  }

  addType(id: number, typeName: string): void {
    this.assertNode(id);
    const prev = this.typeSetOf[id] as number;
    const next = this.typeSets.with(prev, typeName);
    if (next === prev) return;
    this.setTypeSet(id, next);
  }

  hasType(id: number, typeName: string): boolean {
    const set = this.typeSetOf[id];
    return set !== undefined && set !== 0 && this.typeSets.names(set).includes(typeName);
  }

  typesOf(id: number): readonly string[] {
    const set = this.typeSetOf[id];
    return set === undefined ? EMPTY_NAMES : this.typeSets.names(set);
  }

  /** Ascending ids of live nodes having the type (a snapshot). */
  nodesOfType(typeName: string): SortedIds {
    return this.typeMembers.get(typeName)?.toArray() ?? EMPTY_IDS;
  }

  /** Number of live nodes having the type. */
  countOfType(typeName: string): number {
    return this.typeMembers.get(typeName)?.size ?? 0;
  }

  scalar(predicate: string): ScalarColumn {
    let col = this.scalarCols.get(predicate);
    if (col === undefined) {
      col = new ScalarColumnImpl(predicate, this);
      this.scalarCols.set(predicate, col);
    }
    return col;
  }

  edges(predicate: string): EdgeColumn {
    let col = this.edgeCols.get(predicate);
    if (col === undefined) {
      col = new EdgeColumnImpl(predicate, this);
      this.edgeCols.set(predicate, col);
    }
    return col;
  }

  /** Names of the scalar and edge predicates created so far. */
  predicates(): { scalars: string[]; edges: string[] } {
    return { scalars: [...this.scalarCols.keys()], edges: [...this.edgeCols.keys()] };
  }

  get inTransaction(): boolean {
    return this.log !== undefined;
  }

  /** The open transaction, if any (so nested work can use savepoints instead of its own transaction). */
  get openTransaction(): Transaction | undefined {
    return this.txn;
  }

  begin(): Transaction {
    if (this.log !== undefined) throw new Error('a transaction is already open');
    const log = this.spareLog ?? new UndoLog();
    this.spareLog = undefined;
    this.log = log;
    const finish = (): void => {
      if (this.log !== log) throw new Error('transaction already finished');
      this.log = undefined;
      this.txn = undefined;
    };
    const recycle = (): void => {
      log.truncate(0);
      if (log.capacity <= SPARE_LOG_MAX_SLOTS) this.spareLog = log;
    };
    // Undo-log slots committed by commitThrough (dropped from the log): marks are `committed` + a slot.
    let committed = 0;
    const slot = (mark: number): number => {
      if (mark < committed) throw new Error(`savepoint ${mark} was committed`);
      return mark - committed;
    };
    const txn: Transaction = {
      commit: () => {
        finish();
        if (this.onCommit !== undefined) this.onCommit(this.touchedBy(log, log.size));
        recycle();
        this.changes++;
      },
      commitThrough: (mark) => {
        if (this.log !== log) throw new Error('transaction already finished');
        const end = slot(mark);
        if (end === 0) return;
        if (this.onCommit !== undefined) this.onCommit(this.touchedBy(log, end));
        log.dropBefore(end);
        committed = mark;
        this.changes++;
      },
      rollback: () => {
        finish();
        this.undo(log, 0);
        recycle();
      },
      savepoint: () => committed + log.size,
      rollbackTo: (mark) => {
        if (this.log !== log) throw new Error('transaction already finished');
        const from = slot(mark);
        this.log = undefined;
        try {
          this.undo(log, from);
        } finally {
          this.log = log;
        }
      },
      redoSince: (mark) => this.redoOf(log, slot(mark)),
      changesSince: (mark) => log.recordsSince(slot(mark)),
    };
    this.txn = txn;
    return txn;
  }

  /**
   * Told at each commit what it wrote (live subscriptions decide from it what to evaluate again); unset,
   * commits pay nothing for it.
   */
  onCommit: ((touched: Touched) => void) | undefined;

  /** The predicates a transaction's log wrote before slot `end` and the type names of the nodes it created, deleted or retyped. */
  private touchedBy(log: UndoLog, end: number): Touched {
    const predicates = new Set<string>();
    const types = new Set<string>();
    const r = log.records;
    for (let i = 0; i < end; i += 4) {
      const op = r[i];
      if (op === OP_SCALAR || op === OP_EDGE_ADDED || op === OP_EDGE_REMOVED) predicates.add((r[i + 1] as { readonly predicate: string }).predicate);
      else if (op === OP_TYPES) {
        for (const name of this.typeSets.names(r[i + 2] as number)) types.add(name);
        for (const name of this.typeSets.names(this.typeSetOf[r[i + 1] as number] as number)) types.add(name);
      }
    }
    return { predicates, types };
  }

  /** Replays redo ops (inside or outside a transaction); throws if the store diverges from the log. */
  applyRedo(ops: RedoOps): void {
    this.changes++;
    let i = 0;
    while (i < ops.length) {
      const code = ops[i];
      switch (code) {
        case R_CREATE: {
          const id = this.createNode();
          if (id !== ops[i + 1]) throw new Error(`redo diverged: created ${id}, log says ${String(ops[i + 1])}`);
          i += 2;
          break;
        }
        case R_DELETE:
          this.deleteNode(ops[i + 1] as number);
          i += 2;
          break;
        case R_TYPES: {
          const id = ops[i + 1] as number;
          this.assertNode(id);
          this.setTypeSet(id, this.typeSets.intern(ops[i + 2] as readonly string[]));
          i += 3;
          break;
        }
        case R_SET:
          this.scalar(ops[i + 1] as string).set(ops[i + 2] as number, ops[i + 3] as StoredValue);
          i += 4;
          break;
        case R_UNSET:
          this.scalar(ops[i + 1] as string).delete(ops[i + 2] as number);
          i += 3;
          break;
        case R_EDGE_ADD:
          this.edges(ops[i + 1] as string).add(ops[i + 2] as number, ops[i + 3] as number);
          i += 4;
          break;
        case R_EDGE_REMOVE:
          this.edges(ops[i + 1] as string).remove(ops[i + 2] as number, ops[i + 3] as number);
          i += 4;
          break;
        case R_INDEX:
          this.scalar(ops[i + 1] as string).ensureIndex(ops[i + 2] as IndexKindName);
          i += 3;
          break;
        default:
          throw new Error(`corrupt redo record: op ${String(code)} at ${i}`);
      }
    }
  }

  /**
   * The whole store in columnar form, as copies (typed arrays copied, value arrays fresh: stored values
   * are replaced, never changed in place), so it can be encoded while the store goes on changing. Call
   * outside a transaction.
   */
  exportSnapshot(sink?: CaptureSink, postings = false): StoreSnapshot {
    if (this.log !== undefined) throw new Error('cannot snapshot inside a transaction');
    const names: (readonly string[])[] = [];
    for (let set = 0; set < this.typeSets.size; set++) names.push(this.typeSets.names(set));
    const alive = this.alive.slice(0, this.nextId);
    sink?.(alive);
    const typeSetOf = this.typeSetOf.slice(0, this.nextId);
    sink?.(typeSetOf);
    return {
      nextId: this.nextId,
      alive,
      typeSets: names,
      typeSetOf,
      scalars: [...this.scalarCols.values()].map((col) => col.exportSnapshot(sink, postings)),
      edges: [...this.edgeCols.values()].map((col) => col.exportSnapshot(sink)),
    };
  }

  /**
   * Loads a snapshot into this empty store (indexes are rebuilt from the values, each column's as it is
   * loaded); `columnLoaded` is told each scalar column once it and its indexes are in (a start's progress).
   */
  importSnapshot(snapshot: StoreSnapshot, columnLoaded: (predicate: string, indexKinds: readonly string[]) => void = () => undefined): void {
    this.changes++;
    if (this.nextId !== 1 || this.log !== undefined) throw new Error('importSnapshot needs an empty store');
    const n = snapshot.nextId;
    this.alive = new Uint8Array(Math.max(n, 1024));
    this.alive.set(snapshot.alive.subarray(0, n));
    this.typeSetOf = new Int32Array(Math.max(n, 1024));
    this.nextId = n;
    const setMap = snapshot.typeSets.map((names) => this.typeSets.intern(names));
    const members = new Map<number, number[]>();
    for (let id = 1; id < n; id++) {
      if (this.alive[id] === 1) this.liveCount++;
      const old = snapshot.typeSetOf[id] ?? 0;
      if (old === 0) continue;
      const set = setMap[old];
      if (set === undefined) throw new Error(`snapshot names an unknown type set ${old}`);
      this.typeSetOf[id] = set;
      let ids = members.get(set);
      if (ids === undefined) members.set(set, (ids = []));
      ids.push(id);
    }
    const byType = new Map<string, number[]>();
    for (const [set, ids] of members) {
      for (const name of this.typeSets.names(set)) {
        const list = byType.get(name);
        if (list === undefined) byType.set(name, ids.slice());
        else for (const id of ids) list.push(id);
      }
    }
    for (const [name, ids] of byType) this.typeMembers.set(name, new PostingList(ids.sort((a, b) => a - b)));
    for (const col of snapshot.scalars) {
      (this.scalar(col.predicate) as ScalarColumnImpl).importSnapshot(col);
      columnLoaded(col.predicate, col.indexKinds);
    }
    for (const col of snapshot.edges) {
      const column = this.edges(col.predicate) as EdgeColumnImpl;
      for (let k = 0; k < col.from.length; k++) column.addRaw(col.from[k] as number, col.to[k] as number);
    }
  }

  stats(): StoreStats {
    let scalarValues = 0;
    let indexEntries = 0;
    let edges = 0;
    for (const col of this.scalarCols.values()) {
      scalarValues += col.valueCount;
      for (const kind of col.indexKinds()) indexEntries += col.index(kind)?.entryCount ?? 0;
    }
    for (const col of this.edgeCols.values()) edges += col.size;
    return { nodes: this.liveCount, scalarValues, edges, indexEntries };
  }

  /** Per-type node counts, per-predicate edge counts and index entries, string arena bytes (a walk: GET /metrics only). */
  figures(): StoreFigures {
    const nodesByType = new Map<string, number>();
    for (const [name, members] of this.typeMembers) nodesByType.set(name, members.size);
    const edgesByPredicate = new Map<string, number>();
    for (const [predicate, col] of this.edgeCols) edgesByPredicate.set(predicate, col.size);
    const indexEntries: { predicate: string; kind: string; entries: number }[] = [];
    let arenaBytes = 0;
    for (const [predicate, col] of this.scalarCols) {
      for (const kind of col.indexKinds()) indexEntries.push({ predicate, kind, entries: col.index(kind)?.entryCount ?? 0 });
      arenaBytes += col.arenaBytes;
    }
    return { nodesByType, edgesByPredicate, indexEntries, arenaBytes };
  }

  private setTypeSet(id: number, next: number): void {
    const prev = this.typeSetOf[id] as number;
    if (prev === next) return;
    const before = this.typeSets.names(prev);
    const after = this.typeSets.names(next);
    for (const name of before) if (!after.includes(name)) this.typeMembers.get(name)?.remove(id);
    for (const name of after) {
      if (before.includes(name)) continue;
      let members = this.typeMembers.get(name);
      if (members === undefined) {
        members = new PostingList();
        this.typeMembers.set(name, members);
      }
      members.add(id);
    }
    this.typeSetOf[id] = next;
    this.log?.push(OP_TYPES, id, prev);
  }

  /** Redo of the undo records from `mark` on, with final values read from the store now. */
  private redoOf(log: UndoLog, mark: number): RedoOps {
    const r = log.records;
    const out: RedoOps = [];
    const subsumed = subsumedByDeletes(log, mark);
    for (let i = mark; i < log.size; i += 4) {
      if (subsumed !== undefined && subsumed.has(i)) continue;
      const a = r[i + 1];
      const b = r[i + 2];
      const c = r[i + 3];
      switch (r[i]) {
        case OP_CREATE:
          out.push(R_CREATE, a as number);
          break;
        case OP_DELETE:
          out.push(R_DELETE, a as number);
          break;
        case OP_TYPES:
          out.push(R_TYPES, a as number, this.typesOf(a as number));
          break;
        case OP_SCALAR: {
          const col = a as ScalarColumnImpl;
          const value = col.get(b as number);
          if (value === undefined) out.push(R_UNSET, col.predicate, b as number);
          else out.push(R_SET, col.predicate, b as number, value);
          break;
        }
        case OP_EDGE_ADDED:
          out.push(R_EDGE_ADD, (a as EdgeColumnImpl).predicate, b as number, c as number);
          break;
        case OP_EDGE_REMOVED:
          out.push(R_EDGE_REMOVE, (a as EdgeColumnImpl).predicate, b as number, c as number);
          break;
        case OP_INDEX_CREATED:
          out.push(R_INDEX, (a as ScalarColumnImpl).predicate, b as string);
          break;
      }
    }
    return out;
  }

  /** Replays the log backwards down to `mark` with logging off, and truncates it there. */
  private undo(log: UndoLog, mark: number): void {
    const r = log.records;
    for (let i = log.size - 4; i >= mark; i -= 4) {
      const a = r[i + 1];
      const b = r[i + 2];
      const c = r[i + 3];
      switch (r[i]) {
        case OP_CREATE:
          this.alive[a as number] = 0;
          this.liveCount--;
          this.nextId = a as number;
          break;
        case OP_DELETE:
          this.alive[a as number] = 1;
          this.liveCount++;
          break;
        case OP_TYPES:
          this.setTypeSet(a as number, b as number);
          break;
        case OP_SCALAR: {
          const col = a as ScalarColumnImpl;
          col.write(b as number, c as StoredValue | undefined, col.get(b as number));
          break;
        }
        case OP_EDGE_ADDED:
          (a as EdgeColumnImpl).removeRaw(b as number, c as number);
          break;
        case OP_EDGE_REMOVED:
          (a as EdgeColumnImpl).addRaw(b as number, c as number);
          break;
        case OP_INDEX_CREATED:
          (a as ScalarColumnImpl).dropIndex(b as IndexKindName);
          break;
        default:
          throw new Error('corrupt undo log');
      }
    }
    log.truncate(mark);
  }
}

const EMPTY_NAMES: readonly string[] = Object.freeze([]);

/**
 * Record slots whose redo the delete after them redoes: the run of records about a node just before its
 * OP_DELETE (deleteNode's unsets, edge removals both ways and type change), which replaying the delete
 * (GraphStore.deleteNode) removes again. A delete is then one op in the log, not one per value and edge.
 */
function subsumedByDeletes(log: UndoLog, mark: number): Set<number> | undefined {
  const r = log.records;
  let out: Set<number> | undefined;
  for (let i = mark; i < log.size; i += 4) {
    if (r[i] !== OP_DELETE) continue;
    const id = r[i + 1];
    for (let j = i - 4; j >= mark && isAbout(r, j, id); j -= 4) (out ??= new Set()).add(j);
  }
  return out;
}

function isAbout(r: readonly unknown[], at: number, id: unknown): boolean {
  switch (r[at]) {
    case OP_SCALAR:
      return r[at + 2] === id;
    case OP_EDGE_REMOVED:
      return r[at + 2] === id || r[at + 3] === id;
    case OP_TYPES:
      return r[at + 1] === id;
    default:
      return false;
  }
}
