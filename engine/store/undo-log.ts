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
  /** Slots [0, size) hold the records; the array is written by index and reused (pushing to a fresh array costs ~20x more per record). */
  readonly records: unknown[] = [];
  #size = 0;

  push(op: number, a: unknown, b?: unknown, c?: unknown): void {
    const r = this.records;
    const n = this.#size;
    r[n] = op;
    r[n + 1] = a;
    r[n + 2] = b;
    r[n + 3] = c;
    this.#size = n + 4;
  }

  /** Number of slots in use (a savepoint is a slot position). */
  get size(): number {
    return this.#size;
  }

  /** Number of records. */
  get length(): number {
    return this.#size >>> 2;
  }

  /** Records written since slot `mark` (a savepoint). */
  recordsSince(mark: number): number {
    return (this.#size - mark) >>> 2;
  }

  /** Drops the records from slot `mark` on (clearing them, so they hold no values alive). */
  truncate(mark: number): void {
    const r = this.records;
    for (let i = mark; i < this.#size; i++) r[i] = undefined;
    this.#size = Math.min(mark, this.#size);
  }

  /** Drops the records before slot `mark` (committed), moving the rest to the front. */
  dropBefore(mark: number): void {
    const r = this.records;
    const size = this.#size;
    r.copyWithin(0, mark, size);
    for (let i = size - mark; i < size; i++) r[i] = undefined;
    this.#size = size - mark;
  }

  /** Capacity in slots (for deciding whether to keep the log for the next transaction). */
  get capacity(): number {
    return this.records.length;
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
