// The graph store: nodes with dense ids, their types, scalar columns and edge columns, and a single
// undo-logged transaction at a time. Knows nothing of GraphQL.

import { PostingList } from '../util/posting-list.js';
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
import { parseUint } from './parse-uid.js';

export type { EdgeColumn } from './edge-column.js';
export type { ScalarColumn, StoredValue } from './scalar-column.js';

export interface Transaction {
  commit(): void;
  rollback(): void;
}

export interface StoreStats {
  nodes: number;
  scalarValues: number;
  edges: number;
  indexEntries: number;
}

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
    const n = parseUint(uid);
    return n !== undefined && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : undefined;
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

  begin(): Transaction {
    if (this.log !== undefined) throw new Error('a transaction is already open');
    const log = new UndoLog();
    this.log = log;
    const finish = (): void => {
      if (this.log !== log) throw new Error('transaction already finished');
      this.log = undefined;
    };
    return {
      commit: finish,
      rollback: () => {
        finish();
        this.undo(log);
      },
    };
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

  /** Replays the log backwards with logging off. */
  private undo(log: UndoLog): void {
    const r = log.records;
    for (let i = r.length - 4; i >= 0; i -= 4) {
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
  }
}

const EMPTY_NAMES: readonly string[] = Object.freeze([]);
