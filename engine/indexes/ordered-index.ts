// Ordered indexes over numbers (`int`, `int64`, `float`) and DateTime (`year`/`month`/`day`/`hour`):
// equality, ranges, and ids in value order (for `order` with `first` pushed down). One generic
// implementation over a chunked sorted map; ExactIndex reuses it with string keys.

import { postingIds, type Posting } from './postings/posting.js';
import { SortedChunkMap, type Bound, type Compare } from './postings/sorted-chunk-map.js';
import { sortedDistinctArray } from '../util/id-sort.js';
import { EMPTY_IDS, unionMany, type SortedIds } from '../util/sorted-ids.js';
import { parseDateTime } from './datetime-key.js';
import type { RangeBounds, ScalarValue, ValueIndex } from './value-index.js';

export type OrderKey = number | bigint | string;
export type OrderDirection = 'asc' | 'desc';

/** Numeric comparison that also orders number against bigint exactly. */
const compareNumeric: Compare<number | bigint> = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function numericKey(value: ScalarValue): number | bigint | undefined {
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : value;
  if (typeof value === 'bigint') return value;
  return undefined;
}

function dateTimeKey(value: ScalarValue): number | undefined {
  if (typeof value === 'string') return parseDateTime(value);
  if (typeof value === 'number' && !Number.isNaN(value)) return value;
  return undefined;
}

/** Number keys by node id (NaN: none), for checks per candidate without parsing the stored value. */
export interface KeysById {
  readonly keys: Float64Array;
}

export class OrderedIndex<K extends OrderKey = number | bigint> implements ValueIndex {
  protected readonly map: SortedChunkMap<K>;
  private entries = 0;
  /** With `keepKeys`: each node's key; undefined once a node held two values (a list predicate). */
  private byId: Float64Array | undefined;

  constructor(
    /** Maps a stored or queried value to its key; undefined = not indexable. */
    readonly keyOf: (value: ScalarValue) => K | undefined,
    private readonly cmp: Compare<K>,
    keepKeys = false,
  ) {
    this.map = new SortedChunkMap<K>(cmp);
    if (keepKeys) this.byId = new Float64Array(0);
  }

  static int(): OrderedIndex {
    return new OrderedIndex<number | bigint>(numericKey, compareNumeric);
  }
  static int64(): OrderedIndex {
    return new OrderedIndex<number | bigint>(numericKey, compareNumeric);
  }
  static float(): OrderedIndex {
    return new OrderedIndex<number | bigint>(numericKey, compareNumeric);
  }
  /** DateTime values (RFC 3339 strings, or epoch-millisecond numbers) ordered by instant. */
  static dateTime(): OrderedIndex<number> {
    // Stored DateTimes are text: the keys by id spare a range check the parse of every candidate's value.
    return new OrderedIndex<number>(dateTimeKey, compareNumeric, true);
  }

  get entryCount(): number {
    return this.entries;
  }

  /** Number of distinct keys. */
  get keyCount(): number {
    return this.map.size;
  }

  add(value: ScalarValue, id: number): void {
    const key = this.keyOf(value);
    if (key !== undefined && this.map.add(key, id)) {
      this.entries++;
      if (this.byId !== undefined) this.keepKey(id, key as number);
    }
  }

  remove(value: ScalarValue, id: number): void {
    const key = this.keyOf(value);
    if (key !== undefined && this.map.remove(key, id)) {
      this.entries--;
      const byId = this.byId;
      if (byId !== undefined && id < byId.length) byId[id] = NaN;
    }
  }

  /**
   * Each node's key by id while every node holds at most one value (stores remove a node's old value
   * before adding the new one); undefined for indexes that keep none or once a node held two.
   */
  keysById(): KeysById | undefined {
    return this.byId === undefined ? undefined : { keys: this.byId };
  }

  private keepKey(id: number, key: number): void {
    let byId = this.byId as Float64Array;
    if (id >= byId.length) {
      const from = byId.length;
      const next = new Float64Array(Math.max(id + 1, Math.ceil(from * 1.5), 1024)).fill(NaN);
      next.set(byId);
      byId = this.byId = next;
    }
    if (!Number.isNaN(byId[id] as number)) this.byId = undefined; // a second value: keys by id no longer hold
    else byId[id] = key;
  }

  eq(value: ScalarValue): SortedIds {
    const key = this.keyOf(value);
    return key === undefined ? EMPTY_IDS : postingIds(this.map.get(key));
  }

  in(values: readonly ScalarValue[]): SortedIds {
    if (values.length === 1) return this.eq(values[0] as ScalarValue);
    return unionMany(values.map((v) => this.eq(v)));
  }

  /** Ids whose value lies within the bounds (open where a bound is absent). Unparseable bounds match nothing. */
  range(bounds: RangeBounds<ScalarValue>): SortedIds {
    const lower = this.bound(bounds.lower);
    const upper = this.bound(bounds.upper);
    if (lower === null || upper === null) return EMPTY_IDS;
    let single: Posting | undefined;
    let many: number[] | undefined;
    for (const p of this.map.postings(lower, upper)) {
      if (single === undefined) {
        single = p;
        continue;
      }
      if (many === undefined) many = postingIds(single).slice();
      if (typeof p === 'number') many.push(p);
      else for (const id of postingIds(p)) many.push(id);
    }
    if (many !== undefined) return sortedDistinctArray(many);
    return postingIds(single);
  }

  /**
   * A test of one stored value against the bounds, with the keys and comparison `range` uses, so
   * checking a few candidates' values gives the ids `range` would keep among them; null when
   * nothing can match (an unparseable bound, or bounds that cross).
   */
  rangeTest(bounds: RangeBounds<ScalarValue>): ((value: ScalarValue) => boolean) | null {
    const lower = this.bound(bounds.lower);
    const upper = this.bound(bounds.upper);
    if (lower === null || upper === null) return null;
    const cmp = this.cmp;
    if (lower !== undefined && upper !== undefined) {
      const d = cmp(lower.value, upper.value);
      if (d > 0 || (d === 0 && !(lower.inclusive && upper.inclusive))) return null;
    }
    const keyOf = this.keyOf;
    return (value) => {
      const key = keyOf(value);
      if (key === undefined) return false;
      if (lower !== undefined) {
        const d = cmp(key, lower.value);
        if (d < 0 || (d === 0 && !lower.inclusive)) return false;
      }
      if (upper !== undefined) {
        const d = cmp(key, upper.value);
        if (d > 0 || (d === 0 && !upper.inclusive)) return false;
      }
      return true;
    };
  }

  /**
   * Postings of the keys within the bounds, in value order from the bound the direction starts at, a
   * run of one chunk per call (`vals[from..to)`, read from `to - 1` down when `desc`); `fn` returns
   * true to stop. Unparseable bounds visit nothing. Do not write while walking.
   */
  walkRange(bounds: RangeBounds<ScalarValue>, direction: OrderDirection, fn: (vals: readonly Posting[], from: number, to: number) => boolean): void {
    const lower = this.bound(bounds.lower);
    const upper = this.bound(bounds.upper);
    if (lower !== null && upper !== null) this.map.forEachRunIn(lower, upper, direction === 'desc', fn);
  }

  /** About how many entries lie within the bounds (key positions, no key visited): for choosing an access path. */
  estimateRange(bounds: RangeBounds<ScalarValue>): number {
    const lower = this.bound(bounds.lower);
    const upper = this.bound(bounds.upper);
    if (lower === null || upper === null || this.map.size === 0) return 0;
    return Math.round(this.map.estimateKeysIn(lower, upper) * (this.entries / this.map.size));
  }

  /** The bounds as keys: undefined for an open end, null when a bound cannot be a key (nothing matches). */
  keyBounds(bounds: RangeBounds<ScalarValue>): { lower: Bound<K> | undefined; upper: Bound<K> | undefined } | null {
    const lower = this.bound(bounds.lower);
    const upper = this.bound(bounds.upper);
    return lower === null || upper === null ? null : { lower, upper };
  }

  /** Ids in value order; ties (and a node's several values) by ascending id. Do not write while iterating. */
  *ordered(direction: OrderDirection): Iterable<number> {
    for (const p of this.map.postings(undefined, undefined, direction === 'desc')) {
      if (typeof p === 'number') yield p;
      else yield* postingIds(p);
    }
  }

  /**
   * Postings in value order without a generator: `fn` gets each key's ids (ascending, a snapshot or a
   * bare id) and returns true to stop. Do not write while walking.
   */
  walk(direction: OrderDirection, fn: (p: Posting) => boolean): void {
    this.map.forEachPosting(direction === 'desc', fn);
  }

  /** `walk` a chunk of postings at a time (`fn` reads each chunk in `direction`, returns true to stop). Do not write while walking. */
  walkChunks(direction: OrderDirection, fn: (postings: readonly Posting[]) => boolean): void {
    this.map.forEachChunk(direction === 'desc', fn);
  }

  /** Distinct keys with their ids, ascending (for tests, snapshots and aggregates). */
  entriesInOrder(): Iterable<[K, SortedIds]> {
    return this.map.entries();
  }

  private bound(
    b: { readonly value: ScalarValue; readonly inclusive: boolean } | undefined,
  ): { value: K; inclusive: boolean } | undefined | null {
    if (b === undefined) return undefined;
    const key = this.keyOf(b.value);
    return key === undefined ? null : { value: key, inclusive: b.inclusive };
  }
}
