// An edge predicate: forward and reverse adjacency, kept in step.

import type { SortedIds } from '../util/sorted-ids.js';
import { Adjacency } from './adjacency.js';
import { CapturedEdges } from './captured-edges.js';
import type { CaptureSink } from './captured-values.js';
import { IdCache } from './id-cache.js';
import { OP_EDGE_ADDED, OP_EDGE_REMOVED, type ColumnContext } from './undo-log.js';

export interface EdgeColumn {
  readonly predicate: string;
  /** Targets in ascending id order (a snapshot). */
  out(from: number): SortedIds;
  /** Sources in ascending id order (a snapshot). */
  in(to: number): SortedIds;
  /** Idempotent; false if already present. Both ends must be live nodes. */
  add(from: number, to: number): boolean;
  remove(from: number, to: number): boolean;
  has(from: number, to: number): boolean;
  /** Ids with at least one outgoing edge. */
  sources(): SortedIds;
  /** Number of edges. */
  readonly size: number;
  outCount(from: number): number;
  inCount(to: number): number;
  /** The smallest target, if any (singular edges without allocating). */
  firstOut(from: number): number | undefined;
  /** Ids with at least one incoming edge. */
  targets(): SortedIds;
  /** Calls `fn` for every edge, by ascending source then target. Do not write to this column meanwhile. */
  forEach(fn: (from: number, to: number) => void): void;
}

export class EdgeColumnImpl implements EdgeColumn {
  private readonly fwd = new Adjacency();
  private readonly rev = new Adjacency();
  private readonly sourceIds = new IdCache();
  private readonly targetIds = new IdCache();
  private edgeCount = 0;

  constructor(
    readonly predicate: string,
    private readonly ctx: ColumnContext,
  ) {}

  get size(): number {
    return this.edgeCount;
  }

  out(from: number): SortedIds {
    return this.fwd.list(from);
  }

  in(to: number): SortedIds {
    return this.rev.list(to);
  }

  outCount(from: number): number {
    return this.fwd.count(from);
  }

  inCount(to: number): number {
    return this.rev.count(to);
  }

  firstOut(from: number): number | undefined {
    return this.fwd.first(from);
  }

  has(from: number, to: number): boolean {
    return this.fwd.has(from, to);
  }

  add(from: number, to: number): boolean {
    this.ctx.assertNode(from);
    this.ctx.assertNode(to);
    if (!this.addRaw(from, to)) return false;
    this.ctx.undoLog?.push(OP_EDGE_ADDED, this, from, to);
    return true;
  }

  remove(from: number, to: number): boolean {
    if (!this.removeRaw(from, to)) return false;
    this.ctx.undoLog?.push(OP_EDGE_REMOVED, this, from, to);
    return true;
  }

  sources(): SortedIds {
    return this.sourceIds.get(() => this.scan(this.fwd));
  }

  targets(): SortedIds {
    return this.targetIds.get(() => this.scan(this.rev));
  }

  forEach(fn: (from: number, to: number) => void): void {
    const max = this.ctx.maxNodeId;
    for (let from = 1; from <= max; from++) {
      if (this.fwd.count(from) === 0) continue;
      for (const to of this.fwd.list(from)) fn(from, to);
    }
  }

  /** Every edge as parallel (from, to) arrays, by ascending source then target (walked when first read). */
  exportSnapshot(sink?: CaptureSink): CapturedEdges {
    return new CapturedEdges({ predicate: this.predicate, ...this.fwd.capture(this.ctx.maxNodeId, sink), count: this.edgeCount });
  }

  /** Adds without logging (also used by rollback). */
  addRaw(from: number, to: number): boolean {
    if (!this.fwd.add(from, to)) return false;
    this.rev.add(to, from);
    this.edgeCount++;
    if (this.fwd.count(from) === 1) this.sourceIds.added(from);
    if (this.rev.count(to) === 1) this.targetIds.added(to);
    return true;
  }

  /** Removes without logging (also used by rollback). */
  removeRaw(from: number, to: number): boolean {
    if (!this.fwd.remove(from, to)) return false;
    this.rev.remove(to, from);
    this.edgeCount--;
    if (this.fwd.count(from) === 0) this.sourceIds.removed(from);
    if (this.rev.count(to) === 0) this.targetIds.removed(to);
    return true;
  }

  /** Removes every edge from or to `id` (logged). */
  detach(id: number): void {
    for (const to of this.fwd.list(id)) this.remove(id, to);
    for (const from of this.rev.list(id)) this.remove(from, id);
  }

  private scan(adj: Adjacency): number[] {
    const out: number[] = [];
    const max = this.ctx.maxNodeId;
    for (let id = 1; id <= max; id++) if (adj.count(id) > 0) out.push(id);
    return out;
  }
}
