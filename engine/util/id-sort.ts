// Unordered node ids (integers 0 ≤ id < 2^31) put in ascending order: a bitset over the id space when
// the ids are dense in it (no comparisons), a radix sort (two passes of up to 11 bits) when they are many
// but sparse in a space of 2^19 to 2^22 ids, a two-level bitset (one bit per non-empty word on top, so
// the scan skips 1,024 ids per empty top bit) when they are sparse but the space is not much larger
// than 1,024 × ids, else the typed array's own native sort. The work is done in place in a typed array
// (`sortDistinctInPlace`) and the bitsets' words are reused between calls: a typed array allocated per
// call cost more than sorting 1,000 ids (~2 µs each, outside V8's heap).

/** Below this many ids an insertion sort is cheapest. */
const insertionMax = 24;
/** A bitset pays while its words (32 ids each) are at most this many per id (measured: 1,000 ids sort in a third of the native time at 0.3 words per id, a fifth more at 3.4). */
const wordsPerId = 2;
/**
 * The two-level bitset pays while its top words (1,024 ids each) are at most this many per id
 * (measured, ids in 1.1M: 1,000 ids in 0.7x the native time, 100 ids even, 30 ids 2.5x).
 */
const topWordsPerId = 8;
/** Ids below this use the two-level bitset, and bitsets of at most this many ids reuse their words (the scratch is then at most 16 MB). */
const twoLevelSpan = 2 ** 27;
/** At most this many bits per radix digit: two passes sort ids below 2^22 (4M nodes). */
const digitBits = 11;
const radixSpan = 2 ** (2 * digitBits);
/**
 * From this many ids, in a space of at least `radixFrom`, a radix sort beats the two-level bitset (measured,
 * ids in 1.1M: 1,000 in ~13 µs vs ~20, 500 in 11 vs 18, 150 even: its counts are a fixed cost a few ids do
 * not pay back; in 110k, where the bitset's words stay in the cache, 1,000 in ~11 µs vs 9-14: no gain).
 */
const radixMin = 256;
const radixFrom = 2 ** 19;

/** The words of the bitsets, kept all zero between uses (reading out clears what it reads), so a use allocates and clears nothing. */
let lowBits = new Int32Array(0);
let topBits = new Int32Array(0);
/** `sortedDistinctArray`'s copy of its input. */
let copyScratch = new Int32Array(0);
/** The radix sort's bucket counts (both digits, at their widest) and its first pass's output. */
const radixCounts = new Int32Array(2 << digitBits);
let radixScratch = new Int32Array(0);

/** The ids ascending, repeats dropped, as a new Int32Array (`ids` is left as it was); `bound`, if given, exceeds every id. */
export function sortedDistinct(ids: ArrayLike<number>, bound?: number): Int32Array {
  const out = new Int32Array(ids);
  const m = sortDistinctInPlace(out, out.length, bound);
  return m === out.length ? out : out.slice(0, m);
}

/** `sortedDistinct` as a plain array (SortedIds). */
export function sortedDistinctArray(ids: ArrayLike<number>, bound?: number): number[] {
  const n = ids.length;
  if (copyScratch.length < n) copyScratch = new Int32Array(Math.max(n, 2 * copyScratch.length));
  const sorted = copyScratch;
  for (let i = 0; i < n; i++) sorted[i] = ids[i] as number;
  const m = sortDistinctInPlace(sorted, n, bound);
  const out: number[] = [];
  for (let i = 0; i < m; i++) out.push(sorted[i] as number);
  return out;
}

/**
 * `buf[0, n)` ascending with repeats dropped, written over `buf[0, m)`; returns m. `bound`, if given,
 * exceeds every id. Nothing is allocated unless the id space is very large (the native sort's own).
 */
export function sortDistinctInPlace(buf: Int32Array, n: number, bound?: number): number {
  if (n <= insertionMax) return insertionInPlace(buf, n);
  let max = bound === undefined ? 0 : bound - 1;
  if (bound === undefined) for (let i = 0; i < n; i++) if ((buf[i] as number) > max) max = buf[i] as number;
  const words = (max >>> 5) + 1;
  if (words <= wordsPerId * n) return bitsetInPlace(buf, n, words);
  if (n >= radixMin && max >= radixFrom && max < radixSpan) return radixInPlace(buf, n, max + 1);
  if (max >= twoLevelSpan || (words >>> 5) + 1 > topWordsPerId * n) return nativeInPlace(buf, n);
  return twoLevelInPlace(buf, n, words);
}

function insertionInPlace(buf: Int32Array, n: number): number {
  let m = 0;
  // buf[0, m) is sorted and m ≤ i: the writes land on ids already read.
  for (let i = 0; i < n; i++) {
    const x = buf[i] as number;
    let j = m;
    while (j > 0 && (buf[j - 1] as number) > x) j--;
    if (j > 0 && buf[j - 1] === x) continue;
    buf.copyWithin(j + 1, j, m);
    buf[j] = x;
    m++;
  }
  return m;
}

/** Words for `words` × 32 ids, all zero: the shared ones unless the space is very large (then its own, dropped after). */
function lowWords(words: number): Int32Array {
  if (words > twoLevelSpan >>> 5) return new Int32Array(words);
  if (lowBits.length < words) lowBits = new Int32Array(Math.max(words, Math.min(2 * lowBits.length, twoLevelSpan >>> 5)));
  return lowBits;
}

function bitsetInPlace(buf: Int32Array, n: number, words: number): number {
  const bits = lowWords(words);
  for (let i = 0; i < n; i++) {
    const id = buf[i] as number;
    if (id >>> 5 >= words) return outOfBound(id, words, bits);
    bits[id >>> 5] = (bits[id >>> 5] as number) | (1 << (id & 31));
  }
  let m = 0;
  for (let w = 0; w < words; w++) {
    let word = bits[w] as number;
    if (word === 0) continue;
    bits[w] = 0;
    while (word !== 0) {
      const low = word & -word;
      buf[m++] = (w << 5) | (31 - Math.clz32(low));
      word ^= low;
    }
  }
  return m;
}

/** One bit per id, and on top one bit per non-empty word of 32 ids: reading out visits the top words (one per 1,024 ids of the space) and the marked words only. */
function twoLevelInPlace(buf: Int32Array, n: number, words: number): number {
  const topWords = (words + 31) >>> 5;
  const low = lowWords(words);
  if (topBits.length < topWords) topBits = new Int32Array(Math.max(topWords, Math.min(2 * topBits.length, twoLevelSpan >>> 10)));
  const top = topBits;
  for (let i = 0; i < n; i++) {
    const id = buf[i] as number;
    const w = id >>> 5;
    if (w >= words) return outOfBound(id, words, low, top);
    low[w] = (low[w] as number) | (1 << (id & 31));
    top[w >>> 5] = (top[w >>> 5] as number) | (1 << (w & 31));
  }
  let m = 0;
  for (let t = 0; t < topWords; t++) {
    let tw = top[t] as number;
    if (tw === 0) continue;
    top[t] = 0;
    while (tw !== 0) {
      const tb = tw & -tw;
      tw ^= tb;
      const w = (t << 5) | (31 - Math.clz32(tb));
      let word = low[w] as number;
      low[w] = 0;
      while (word !== 0) {
        const bit = word & -word;
        buf[m++] = (w << 5) | (31 - Math.clz32(bit));
        word ^= bit;
      }
    }
  }
  return m;
}

/**
 * Least significant digit first, two digits of half the span's bits each (fewer buckets to clear and
 * add up in a smaller space): both counted in one read, then two stable passes (the second back into `buf`).
 */
function radixInPlace(buf: Int32Array, n: number, span: number): number {
  const bits = (33 - Math.clz32(span - 1)) >>> 1;
  const mask = (1 << bits) - 1;
  const high = 1 << bits;
  const counts = radixCounts;
  counts.fill(0, 0, 2 * high);
  for (let i = 0; i < n; i++) {
    const id = buf[i] as number;
    if (id < 0 || id >= span) throw new RangeError(`id ${id} outside [0, ${span})`);
    counts[id & mask] = (counts[id & mask] as number) + 1;
    counts[high + (id >>> bits)] = (counts[high + (id >>> bits)] as number) + 1;
  }
  // Counts to start positions, both digits in one loop.
  let low = 0;
  let top = 0;
  for (let d = 0; d < high; d++) {
    const a = counts[d] as number;
    counts[d] = low;
    low += a;
    const b = counts[high + d] as number;
    counts[high + d] = top;
    top += b;
  }
  if (radixScratch.length < n) radixScratch = new Int32Array(Math.max(n, 2 * radixScratch.length));
  const tmp = radixScratch;
  for (let i = 0; i < n; i++) {
    const id = buf[i] as number;
    const at = counts[id & mask] as number;
    counts[id & mask] = at + 1;
    tmp[at] = id;
  }
  for (let i = 0; i < n; i++) {
    const id = tmp[i] as number;
    const at = counts[high + (id >>> bits)] as number;
    counts[high + (id >>> bits)] = at + 1;
    buf[at] = id;
  }
  let m = 1;
  for (let i = 1; i < n; i++) if (buf[i] !== buf[m - 1]) buf[m++] = buf[i] as number;
  return m;
}

/** An id at or above the bound (or negative): the words marked so far are cleared, so the next use starts from zero. */
function outOfBound(id: number, words: number, low: Int32Array, top?: Int32Array): never {
  low.fill(0, 0, words);
  top?.fill(0, 0, (words + 31) >>> 5);
  throw new RangeError(`id ${id} outside [0, ${words * 32})`);
}

/** Sparse ids: the typed array's own sort (native), then repeats dropped. */
function nativeInPlace(buf: Int32Array, n: number): number {
  buf.subarray(0, n).sort();
  let m = 1;
  for (let i = 1; i < n; i++) if (buf[i] !== buf[m - 1]) buf[m++] = buf[i] as number;
  return m;
}
