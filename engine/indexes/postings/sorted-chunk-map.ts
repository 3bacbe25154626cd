// An ordered map from keys to posting lists, kept as a list of sorted chunks (a one-level B-tree):
// O(log n + CHUNK) insert/remove, binary-searchable ranges, in-order iteration in both directions.

import { postingAdd, postingIds, postingRemove, type Posting } from './posting.js';
import type { SortedIds } from '../../util/sorted-ids.js';

/**
 * Keys per chunk before it splits. A range walk reads one chunk object and two arrays per chunk, each a
 * cache miss once chunks lie scattered in a large heap (1M keys added in random order): 1,000 keys of a
 * range took 20 µs over ~23 chunks of 64, 9 µs over ~6 of 256; random adds cost no more (1M: ~1.1-1.9
 * µs each either way, shifting 256 slots is cheap) and the index is ~15% smaller (fewer arrays).
 */
const CHUNK_MAX = 256;

interface Chunk<K> {
  keys: K[];
  vals: Posting[];
}

export type Compare<K> = (a: K, b: K) => number;

/** One end of a key range. */
export interface Bound<K> {
  readonly value: K;
  readonly inclusive: boolean;
}

/** A position: chunk index and offset inside it. */
interface Pos {
  c: number;
  i: number;
}

export class SortedChunkMap<K> {
  private chunks: Chunk<K>[] = [];
  /** The first key of each chunk (contiguous, so finding a chunk touches no chunk object). */
  private firsts: K[] = [];
  private keyCount = 0;
  /** Changes whenever a key is added or removed (positions move); a posting's change under its key does not. */
  private layout = 0;
  /** The last span found and what it was found for: a request seeks the same range for its estimate, its check and its walk. */
  private lastSpan: SpanMemo<K> | undefined;

  constructor(private readonly cmp: Compare<K>) {}

  /** Number of distinct keys. */
  get size(): number {
    return this.keyCount;
  }

  /** Adds `id` under `key`; false if it was already there. */
  add(key: K, id: number): boolean {
    if (this.chunks.length === 0) {
      this.chunks.push({ keys: [key], vals: [id] });
      this.firsts.push(key);
      this.keyCount++;
      this.layout++;
      return true;
    }
    const c = this.chunkFor(key);
    const chunk = this.chunks[c] as Chunk<K>;
    const i = this.lowerIn(chunk, key);
    if (i < chunk.keys.length && this.cmp(chunk.keys[i] as K, key) === 0) {
      const next = postingAdd(chunk.vals[i], id);
      if (next === null) return false;
      chunk.vals[i] = next;
      return true;
    }
    if (i === chunk.keys.length) {
      chunk.keys.push(key);
      chunk.vals.push(id);
    } else {
      insertAt(chunk.keys, i, key);
      insertAt(chunk.vals, i, id);
      if (i === 0) this.firsts[c] = key;
    }
    this.keyCount++;
    this.layout++;
    if (chunk.keys.length > CHUNK_MAX) this.split(c);
    return true;
  }

  /** Removes `id` from `key`; false if it was not there. */
  remove(key: K, id: number): boolean {
    if (this.chunks.length === 0) return false;
    const c = this.chunkFor(key);
    const chunk = this.chunks[c] as Chunk<K>;
    const i = this.lowerIn(chunk, key);
    if (i >= chunk.keys.length || this.cmp(chunk.keys[i] as K, key) !== 0) return false;
    const next = postingRemove(chunk.vals[i], id);
    if (next === null) return false;
    if (next !== undefined) {
      chunk.vals[i] = next;
      return true;
    }
    removeAt(chunk.keys, i);
    removeAt(chunk.vals, i);
    this.keyCount--;
    this.layout++;
    if (chunk.keys.length === 0) {
      this.chunks.splice(c, 1);
      this.firsts.splice(c, 1);
    } else if (i === 0) this.firsts[c] = chunk.keys[0] as K;
    return true;
  }

  get(key: K): Posting | undefined {
    if (this.chunks.length === 0) return undefined;
    const chunk = this.chunks[this.chunkFor(key)] as Chunk<K>;
    const i = this.lowerIn(chunk, key);
    if (i < chunk.keys.length && this.cmp(chunk.keys[i] as K, key) === 0) return chunk.vals[i];
    return undefined;
  }

  /** Postings of keys within the bounds, in key order (ascending or descending). */
  *postings(
    lower: { value: K; inclusive: boolean } | undefined,
    upper: { value: K; inclusive: boolean } | undefined,
    desc = false,
  ): Generator<Posting> {
    const span = this.span(lower, upper);
    if (span === undefined) return;
    const { start, end } = span;
    if (!desc) {
      for (let c = start.c; c <= end.c && c < this.chunks.length; c++) {
        const chunk = this.chunks[c] as Chunk<K>;
        const from = c === start.c ? start.i : 0;
        const to = c === end.c ? end.i : chunk.keys.length;
        for (let i = from; i < to; i++) yield chunk.vals[i] as Posting;
      }
    } else {
      for (let c = Math.min(end.c, this.chunks.length - 1); c >= start.c; c--) {
        const chunk = this.chunks[c] as Chunk<K>;
        const from = c === start.c ? start.i : 0;
        const to = c === end.c ? end.i : chunk.keys.length;
        for (let i = to - 1; i >= from; i--) yield chunk.vals[i] as Posting;
      }
    }
  }

  /** Every posting in key order (no generator: the hot path of ordered walks); `fn` returns true to stop. */
  forEachPosting(desc: boolean, fn: (p: Posting) => boolean): void {
    const chunks = this.chunks;
    if (!desc) {
      for (let c = 0; c < chunks.length; c++) {
        const vals = (chunks[c] as Chunk<K>).vals;
        for (let i = 0; i < vals.length; i++) if (fn(vals[i] as Posting)) return;
      }
      return;
    }
    for (let c = chunks.length - 1; c >= 0; c--) {
      const vals = (chunks[c] as Chunk<K>).vals;
      for (let i = vals.length - 1; i >= 0; i--) if (fn(vals[i] as Posting)) return;
    }
  }

  /**
   * Every chunk's postings in key order (chunks first to last, or last to first when `desc`; the caller
   * reads each chunk's postings in the same direction): one call per chunk of up to CHUNK_MAX keys
   * rather than one per posting, for walks testing each id. `fn` returns true to stop.
   */
  forEachChunk(desc: boolean, fn: (vals: readonly Posting[]) => boolean): void {
    const chunks = this.chunks;
    if (!desc) {
      for (let c = 0; c < chunks.length; c++) if (fn((chunks[c] as Chunk<K>).vals)) return;
      return;
    }
    for (let c = chunks.length - 1; c >= 0; c--) if (fn((chunks[c] as Chunk<K>).vals)) return;
  }

  /**
   * The postings of keys within the bounds as runs of one chunk's postings (`vals[from..to)`, in key
   * order; chunks first to last, or last to first when `desc`, the caller reading each run in the same
   * direction): one call per chunk, not per posting, for walks from a range bound. `fn` returns true to stop.
   */
  forEachRunIn(lower: Bound<K> | undefined, upper: Bound<K> | undefined, desc: boolean, fn: (vals: readonly Posting[], from: number, to: number) => boolean): void {
    const span = this.span(lower, upper);
    if (span === undefined) return;
    const { start, end } = span;
    const chunks = this.chunks;
    const last = Math.min(end.c, chunks.length - 1);
    for (let n = last - start.c, c = desc ? last : start.c; n >= 0; n--, c += desc ? -1 : 1) {
      const vals = (chunks[c] as Chunk<K>).vals;
      const from = c === start.c ? start.i : 0;
      const to = c === end.c ? end.i : vals.length;
      if (from < to && fn(vals, from, to)) return;
    }
  }

  /**
   * About how many keys lie within the bounds, from the chunk positions of the bounds (chunks hold a
   * similar number of keys, so a position is a quantile): O(log n), no key is visited.
   */
  estimateKeysIn(lower: Bound<K> | undefined, upper: Bound<K> | undefined): number {
    const span = this.span(lower, upper);
    if (span === undefined) return 0;
    const chunks = this.chunks;
    const perChunk = this.keyCount / chunks.length;
    const rank = (p: Pos): number => (p.c + p.i / Math.max(1, (chunks[p.c] as Chunk<K>).keys.length)) * perChunk;
    return Math.max(0, Math.round(rank(span.end) - rank(span.start)));
  }

  /** Start and end positions of the keys within the bounds; undefined when none can be. Not to be changed by the caller (it is kept for the next call). */
  private span(lower: Bound<K> | undefined, upper: Bound<K> | undefined): Span | undefined {
    const memo = this.lastSpan;
    if (memo !== undefined && memo.layout === this.layout && sameBound(memo.lower, lower) && sameBound(memo.upper, upper)) return memo.span;
    const span = this.findSpan(lower, upper);
    this.lastSpan = { layout: this.layout, lower, upper, span };
    return span;
  }

  private findSpan(lower: Bound<K> | undefined, upper: Bound<K> | undefined): Span | undefined {
    if (this.chunks.length === 0) return undefined;
    if (lower !== undefined && upper !== undefined) {
      const d = this.cmp(lower.value, upper.value);
      if (d > 0 || (d === 0 && !(lower.inclusive && upper.inclusive))) return undefined;
    }
    const start = lower === undefined ? { c: 0, i: 0 } : this.seek(lower.value, !lower.inclusive);
    const end = upper === undefined ? this.endPos() : this.seek(upper.value, upper.inclusive);
    return { start, end };
  }

  /** Keys in ascending order with their ids (for tests and snapshots). */
  *entries(): Generator<[K, SortedIds]> {
    for (const chunk of this.chunks) {
      for (let i = 0; i < chunk.keys.length; i++) yield [chunk.keys[i] as K, postingIds(chunk.vals[i])];
    }
  }

  /**
   * First position whose key is >= key (or > key when `after`). Positions may be one past a chunk's end.
   * The chunk is found among `firsts` (no chunk object read per probe: keys that are not small integers,
   * floats and DateTime instants, are each a heap object, so every probe there is a memory read more).
   */
  private seek(key: K, after: boolean): Pos {
    const firsts = this.firsts;
    const cmp = this.cmp;
    // the last chunk whose first key is < key (<= key when after): the position lies in it or just past it
    let lo = 0;
    let hi = firsts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      const d = cmp(firsts[mid] as K, key);
      if (d < 0 || (after && d === 0)) lo = mid;
      else hi = mid - 1;
    }
    const keys = (this.chunks[lo] as Chunk<K>).keys;
    let a = 0;
    let b = keys.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      const d = cmp(keys[mid] as K, key);
      if (d < 0 || (after && d === 0)) a = mid + 1;
      else b = mid;
    }
    return { c: lo, i: a };
  }

  private endPos(): Pos {
    const last = this.chunks.length - 1;
    return { c: last, i: (this.chunks[last] as Chunk<K>).keys.length };
  }

  /** Index of the chunk that holds, or would hold, `key`. */
  private chunkFor(key: K): number {
    const firsts = this.firsts;
    const cmp = this.cmp;
    let lo = 0;
    let hi = firsts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (cmp(firsts[mid] as K, key) <= 0) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private lowerIn(chunk: Chunk<K>, key: K): number {
    const keys = chunk.keys;
    const n = keys.length;
    if (n > 0 && this.cmp(keys[n - 1] as K, key) < 0) return n;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cmp(keys[mid] as K, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private split(c: number): void {
    const chunk = this.chunks[c] as Chunk<K>;
    const half = chunk.keys.length >>> 1;
    // Slices, not splice: both halves get exact-size arrays (a spliced left half keeps its old capacity).
    const right: Chunk<K> = { keys: chunk.keys.slice(half), vals: chunk.vals.slice(half) };
    chunk.keys = chunk.keys.slice(0, half);
    chunk.vals = chunk.vals.slice(0, half);
    this.chunks.splice(c + 1, 0, right);
    this.firsts.splice(c + 1, 0, right.keys[0] as K);
  }
}

interface Span {
  readonly start: Pos;
  readonly end: Pos;
}

interface SpanMemo<K> {
  readonly layout: number;
  readonly lower: Bound<K> | undefined;
  readonly upper: Bound<K> | undefined;
  readonly span: Span | undefined;
}

function sameBound<K>(a: Bound<K> | undefined, b: Bound<K> | undefined): boolean {
  return a === undefined ? b === undefined : b !== undefined && a.value === b.value && a.inclusive === b.inclusive;
}

/** `a.splice(i, 0, v)` without splice's generic path (chunks are short, so shifting is cheap). */
function insertAt<T>(a: T[], i: number, v: T): void {
  let k = a.length;
  a.push(v);
  for (; k > i; k--) a[k] = a[k - 1] as T;
  a[i] = v;
}

/** `a.splice(i, 1)` likewise. */
function removeAt<T>(a: T[], i: number): void {
  const n = a.length - 1;
  for (let k = i; k < n; k++) a[k] = a[k + 1] as T;
  a.pop();
}
