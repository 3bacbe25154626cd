// A scalar predicate: one value (or one list of values) per node, stored densely by node id, plus the
// indexes attached to it. The layout adapts to the values seen: numbers in a Float64Array, booleans in a
// Uint8Array, strings packed in a StringArena, anything else (or a mix, or lists) in a plain array.

import { createIndex } from '../indexes/create-index.js';
import { sameKey } from '../indexes/postings/posting-table.js';
import type { IndexKindName } from '../indexes/index-kind.js';
import type { ScalarValue, ValueIndex } from '../indexes/value-index.js';
import { TOKENS_MADE_BY, type StoredPostings } from '../indexes/postings/stored-postings.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { grownFloat64, grownUint8 } from './grow.js';
import { IdCache } from './id-cache.js';
import { StringArena, type CapturedStrings } from './string-arena.js';
import { CapturedValues, type CaptureSink } from './captured-values.js';
import type { JsonBytes } from '../util/json-bytes.js';
import { OP_INDEX_CREATED, OP_SCALAR, type ColumnContext } from './undo-log.js';

export type StoredValue = ScalarValue | readonly ScalarValue[];

export interface ScalarColumn {
  readonly predicate: string;
  /** The value, or the list of values for list-valued predicates. */
  get(id: number): StoredValue | undefined;
  /** Replaces the value (an empty list deletes it); maintains every attached index. The node must be live. */
  set(id: number, value: StoredValue): void;
  delete(id: number): void;
  has(id: number): boolean;
  /** Whether the value of `id` is, or (a list) contains, `key` (SameValueZero): the hash index's matcher. */
  holds(id: number, key: ScalarValue): boolean;
  /** Ascending ids having a value (a snapshot). */
  ids(): SortedIds;
  /** Number of nodes having a value. */
  readonly size: number;
  /** Creates (back-filling existing values) or returns the index of that kind. */
  ensureIndex(kind: IndexKindName): ValueIndex;
  index(kind: IndexKindName): ValueIndex | undefined;
  /** Kinds of the attached indexes. */
  indexKinds(): IndexKindName[];
  /** Calls `fn` for every (value, id) in ascending id order. Do not write to this column meanwhile. */
  forEach(fn: (value: StoredValue, id: number) => void): void;
  /** Number of stored values, counting each list element. */
  readonly valueCount: number;
  /** The raw arrays when every value is a single number (for tight loops); undefined otherwise. */
  numbers(): NumericColumnView | undefined;
  /** Changes with every write to the column (caches of orderings by this column compare it). */
  readonly version: number;
  /**
   * Writes a stored string (straight from its bytes) or number as JSON, as JSON.stringify would;
   * false (nothing written) when there is none or it is another kind of value.
   */
  writeJson(id: number, out: JsonBytes): boolean;
}

/** `nums[id]` is the value of `id` where `present[id] === 1`; valid until the column's next write. */
export interface NumericColumnView {
  readonly present: Uint8Array;
  readonly nums: Float64Array;
}

const EMPTY = 0;
const NUM = 1;
const BOOL = 2;
const ANY = 3;
const STR = 4;
type Repr = typeof EMPTY | typeof NUM | typeof BOOL | typeof ANY | typeof STR;

/** A column's values in columnar form, for snapshots. Unused arrays are empty. */
export interface ScalarColumnSnapshot {
  readonly predicate: string;
  readonly indexKinds: readonly IndexKindName[];
  /** 0 empty, 1 numbers (flags + nums), 2 booleans (flags), 3 anything (ids + values). */
  readonly repr: number;
  readonly flags: Uint8Array;
  readonly nums: Float64Array;
  readonly ids: Int32Array;
  /** Read back from a file, an array; exported, the column's strings or values captured (read in slices). */
  readonly values: readonly StoredValue[] | CapturedStrings | CapturedValues<StoredValue>;
  /** The indexes' stored postings (those that have them: the token indexes), by kind; absent in files of format 1. */
  readonly postings?: readonly IndexPostings[];
}

/** One index's postings in a snapshot, tagged with its kind (other kinds may store other forms later). */
export interface IndexPostings extends StoredPostings {
  readonly kind: IndexKindName;
  /** TOKENS_MADE_BY of the build that wrote them (others are rebuilt from the values). */
  readonly madeBy: string;
}

export class ScalarColumnImpl implements ScalarColumn {
  private repr: Repr = EMPTY;
  private nums = new Float64Array(0);
  /** NUM: 1 where a number is present. BOOL: 0 absent, 1 false, 2 true. */
  private flags = new Uint8Array(0);
  private vals: (StoredValue | undefined)[] = [];
  private strings: StringArena | undefined;
  private count = 0;
  private elements = 0;
  #version = 0;
  private readonly idCache = new IdCache();
  private readonly indexes = new Map<IndexKindName, ValueIndex>();

  constructor(
    readonly predicate: string,
    private readonly ctx: ColumnContext,
  ) {}

  get size(): number {
    return this.count;
  }

  get valueCount(): number {
    return this.elements;
  }

  get version(): number {
    return this.#version;
  }

  get(id: number): StoredValue | undefined {
    switch (this.repr) {
      case NUM:
        return this.flags[id] === 1 ? this.nums[id] : undefined;
      case BOOL: {
        const b = this.flags[id];
        return b === undefined || b === 0 ? undefined : b === 2;
      }
      case STR:
        return (this.strings as StringArena).get(id);
      case ANY:
        return this.vals[id];
      default:
        return undefined;
    }
  }

  writeJson(id: number, out: JsonBytes): boolean {
    if (this.repr === STR) return (this.strings as StringArena).writeJson(id, out);
    if (this.repr !== NUM || this.flags[id] !== 1) return false;
    out.number(this.nums[id] as number);
    return true;
  }

  numbers(): NumericColumnView | undefined {
    return this.repr === NUM ? { present: this.flags, nums: this.nums } : undefined;
  }

  /** Whether the value of `id` is, or (a list) contains, `key` (SameValueZero); strings are compared in place. */
  holds(id: number, key: ScalarValue): boolean {
    if (this.repr === STR && typeof key === 'string') return (this.strings as StringArena).equals(id, key);
    const value = this.get(id);
    if (value === undefined || !isList(value)) return sameKey(value, key);
    for (const v of value) if (sameKey(v, key)) return true;
    return false;
  }

  has(id: number): boolean {
    return this.repr === STR ? (this.strings as StringArena).has(id) : this.get(id) !== undefined;
  }

  set(id: number, value: StoredValue): void {
    if (isList(value) && value.length === 0) {
      this.delete(id);
      return;
    }
    this.ctx.assertNode(id);
    const prev = this.get(id);
    if (prev !== undefined && sameValue(prev, value)) return;
    this.ctx.undoLog?.push(OP_SCALAR, this, id, prev);
    this.write(id, isList(value) ? value.slice() : value, prev);
  }

  delete(id: number): void {
    const prev = this.get(id);
    if (prev === undefined) return;
    this.ctx.undoLog?.push(OP_SCALAR, this, id, prev);
    this.write(id, undefined, prev);
  }

  ids(): SortedIds {
    return this.idCache.get(() => {
      const out: number[] = [];
      this.forEach((_, id) => out.push(id));
      return out;
    });
  }

  ensureIndex(kind: IndexKindName, stored?: StoredPostings): ValueIndex {
    const existing = this.indexes.get(kind);
    if (existing !== undefined) return existing;
    const index = createIndex(kind, (id, key) => this.holds(id, key));
    const fill = (): void => this.forEach((value, id) => indexValue(index, value, id));
    if (stored !== undefined && index.loadPostings !== undefined) index.loadPostings(stored, (fn) => this.forEach(fn));
    else if (index.backfill !== undefined) index.backfill(fill);
    else fill();
    this.indexes.set(kind, index);
    this.ctx.undoLog?.push(OP_INDEX_CREATED, this, kind);
    return index;
  }

  index(kind: IndexKindName): ValueIndex | undefined {
    return this.indexes.get(kind);
  }

  indexKinds(): IndexKindName[] {
    return [...this.indexes.keys()];
  }

  /** Bytes of the string arena (0 when the column keeps no strings). */
  get arenaBytes(): number {
    return this.strings?.bytes ?? 0;
  }

  /** Detaches an index (rollback of ensureIndex). */
  dropIndex(kind: IndexKindName): void {
    this.indexes.delete(kind);
  }

  forEach(fn: (value: StoredValue, id: number) => void): void {
    switch (this.repr) {
      case NUM: {
        const { flags, nums } = this;
        for (let id = 0; id < flags.length; id++) if (flags[id] === 1) fn(nums[id] as number, id);
        return;
      }
      case BOOL: {
        const flags = this.flags;
        for (let id = 0; id < flags.length; id++) {
          const b = flags[id] as number;
          if (b !== 0) fn(b === 2, id);
        }
        return;
      }
      case STR:
        (this.strings as StringArena).forEach(fn);
        return;
      case ANY: {
        const vals = this.vals;
        for (let id = 0; id < vals.length; id++) {
          const v = vals[id];
          if (v !== undefined) fn(v, id);
        }
        return;
      }
      default:
        return;
    }
  }

  /** The column in columnar form (copies: later writes do not show in it). */
  exportSnapshot(sink?: CaptureSink, withPostings = false): ScalarColumnSnapshot {
    const base: { predicate: string; indexKinds: IndexKindName[]; repr: number } = { predicate: this.predicate, indexKinds: this.indexKinds(), repr: this.repr };
    const postings = withPostings ? this.exportPostings(sink) : [];
    const none = { flags: new Uint8Array(0), nums: new Float64Array(0), ids: new Int32Array(0), values: [], postings };
    const n = Math.min(this.flags.length, this.ctx.maxNodeId + 1);
    const copy = <A extends Uint8Array | Float64Array>(array: A): A => {
      sink?.(array);
      return array;
    };
    if (this.repr === NUM) return { ...base, ...none, flags: copy(this.flags.slice(0, n)), nums: copy(this.nums.slice(0, n)) };
    if (this.repr === BOOL) return { ...base, ...none, flags: copy(this.flags.slice(0, n)) };
    if (this.repr !== ANY && this.repr !== STR) return { ...base, ...none };
    base.repr = ANY; // strings are written as plain values: the snapshot format does not know the arena
    const values = this.repr === STR ? (this.strings as StringArena).capture(sink) : new CapturedValues(this.vals.slice());
    // The ids are found when first read (by the encoder, off the event loop): a getter, redefined in place
    // so the fields keep the file's order (a getter in the literal after a spread lands last).
    const column = { ...base, ...none, values };
    return Object.defineProperty(column, 'ids', { get: () => values.ids, enumerable: true });
  }

  /** The postings of the indexes that store theirs (copies, each typed array told to `sink`). */
  private exportPostings(sink?: CaptureSink): IndexPostings[] {
    const out: IndexPostings[] = [];
    for (const [kind, index] of this.indexes) {
      const stored = index.storedPostings?.();
      if (stored === undefined) continue;
      for (const array of [stored.text, stored.lengths, stored.counts, stored.ids]) sink?.(array);
      out.push({ kind, madeBy: TOKENS_MADE_BY, ...stored });
    }
    return out;
  }

  /** Loads an exported column into this empty one, then rebuilds its indexes. No logging. */
  importSnapshot(snapshot: ScalarColumnSnapshot): void {
    if (this.count !== 0 || this.repr !== EMPTY) throw new Error(`column ${this.predicate} is not empty`);
    this.#version++;
    const repr = snapshot.repr as Repr;
    if (repr === NUM || repr === BOOL) {
      this.repr = repr;
      this.flags = Uint8Array.from(snapshot.flags);
      if (repr === NUM) this.nums = Float64Array.from(snapshot.nums);
      const flags = this.flags;
      for (let id = 0; id < flags.length; id++) {
        if (flags[id] !== 0) this.count++;
        else if (repr === NUM) this.nums[id] = 0; // snapshots written before absent slots were zeroed
      }
      this.elements = this.count;
    } else if (repr === ANY) {
      const { ids } = snapshot;
      const values = Array.isArray(snapshot.values) ? snapshot.values : snapshot.values.slice(0, ids.length);
      for (let k = 0; k < ids.length; k++) {
        const value = values[k] as StoredValue;
        this.store(ids[k] as number, value);
        this.count++;
        this.elements += elementCount(value);
      }
    }
    for (const kind of snapshot.indexKinds) this.ensureIndex(kind, snapshot.postings?.find((p) => p.kind === kind && p.madeBy === TOKENS_MADE_BY));
  }

  /** Stores `value` (undefined = none) over `prev` without logging; used by set/delete and rollback. */
  write(id: number, value: StoredValue | undefined, prev: StoredValue | undefined): void {
    this.#version++;
    if (prev !== undefined) {
      for (const index of this.indexes.values()) unindexValue(index, prev, id);
      this.elements -= elementCount(prev);
    }
    if (value === undefined) {
      this.clearSlot(id);
      if (prev !== undefined) {
        this.count--;
        this.idCache.removed(id);
      }
      return;
    }
    this.store(id, value);
    this.elements += elementCount(value);
    if (prev === undefined) {
      this.count++;
      this.idCache.added(id);
    }
    for (const index of this.indexes.values()) indexValue(index, value, id);
  }

  private store(id: number, value: StoredValue): void {
    if (this.repr === EMPTY) this.repr = typeof value === 'number' ? NUM : typeof value === 'boolean' ? BOOL : typeof value === 'string' ? STR : ANY;
    if (this.repr === STR) {
      this.strings ??= new StringArena();
      if (typeof value === 'string' && this.strings.set(id, value)) return;
      this.toAny();
    } else if (this.repr === NUM) {
      if (typeof value === 'number') {
        if (id >= this.flags.length) {
          this.nums = grownFloat64(this.nums, id);
          this.flags = grownUint8(this.flags, id);
        }
        this.nums[id] = value;
        this.flags[id] = 1;
        return;
      }
      this.toAny();
    } else if (this.repr === BOOL) {
      if (typeof value === 'boolean') {
        if (id >= this.flags.length) this.flags = grownUint8(this.flags, id);
        this.flags[id] = value ? 2 : 1;
        return;
      }
      this.toAny();
    }
    const vals = this.vals;
    while (vals.length <= id) vals.push(undefined);
    vals[id] = value;
  }

  private clearSlot(id: number): void {
    if (this.repr === STR) this.strings?.delete(id);
    else if (this.repr === ANY) {
      if (id < this.vals.length) this.vals[id] = undefined;
    } else if (id < this.flags.length) {
      this.flags[id] = 0;
      // Absent number slots hold 0: readers of the typed array (top-k) test `present` only for a 0.
      if (this.repr === NUM) this.nums[id] = 0;
    }
  }

  private toAny(): void {
    const vals: (StoredValue | undefined)[] = [];
    this.forEach((value, id) => {
      while (vals.length < id) vals.push(undefined);
      vals[id] = value;
    });
    this.vals = vals;
    this.repr = ANY;
    this.nums = new Float64Array(0);
    this.flags = new Uint8Array(0);
    this.strings = undefined;
  }
}

function isList(value: StoredValue): value is readonly ScalarValue[] {
  return Array.isArray(value);
}

function elementCount(value: StoredValue): number {
  return isList(value) ? value.length : 1;
}

function sameValue(a: StoredValue, b: StoredValue): boolean {
  if (isList(a) || isList(b)) {
    if (!isList(a) || !isList(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
    return true;
  }
  return Object.is(a, b);
}

/** Every index write goes through here and unindexValue (set/delete, rollback, back-fill, restore). */
function indexValue(index: ValueIndex, value: StoredValue, id: number): void {
  if (!isList(value)) index.add(value, id);
  else if (index.addList !== undefined) index.addList(value, id);
  else for (const v of value) index.add(v, id);
}

function unindexValue(index: ValueIndex, value: StoredValue, id: number): void {
  if (!isList(value)) index.remove(value, id);
  else if (index.removeList !== undefined) index.removeList(value, id);
  else for (const v of value) index.remove(v, id);
}
