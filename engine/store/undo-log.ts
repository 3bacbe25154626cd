// The undo log of an open transaction: a flat array of 4-slot records [op, a, b, c], replayed backwards
// on rollback by GraphStore. Kept allocation-light so that large transactions stay cheap.

export const OP_CREATE = 1; // a = id
export const OP_DELETE = 2; // a = id (node was alive)
export const OP_TYPES = 3; // a = id, b = previous type-set index
export const OP_SCALAR = 4; // a = column, b = id, c = previous value (undefined = none)
export const OP_EDGE_ADDED = 5; // a = column, b = from, c = to
export const OP_EDGE_REMOVED = 6; // a = column, b = from, c = to
export const OP_INDEX_CREATED = 7; // a = column, b = kind

export class UndoLog {
  readonly records: unknown[] = [];

  push(op: number, a: unknown, b?: unknown, c?: unknown): void {
    this.records.push(op, a, b, c);
  }

  get length(): number {
    return this.records.length >>> 2;
  }
}

/** What columns need from their store. */
export interface ColumnContext {
  /** The open transaction's log, if any. */
  readonly undoLog: UndoLog | undefined;
  /** Highest id ever created. */
  readonly maxNodeId: number;
  /** Throws unless `id` is a live node. */
  assertNode(id: number): void;
}
