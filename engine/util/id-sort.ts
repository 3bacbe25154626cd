// Unordered node ids (integers 0 ≤ id < 2^31) put in ascending order: a bitset over the id space when
// the ids are dense in it (no comparisons), a two-level bitset (`markedAscending`: one bit per non-empty
// word on top, so the scan skips 1,024 ids per empty top bit) when they are sparse but the space is not
// much larger than 1,024 × ids, else the typed array's own native sort. `markedAscending` also serves
// callers that have no list of the ids (a range walk marks them as it goes).

/** Below this many ids an insertion sort is cheapest. */
const insertionMax = 24;
/** A bitset pays while its words (32 ids each) are at most this many per id (measured: 1,000 ids sort in a third of the native time at 0.3 words per id, a fifth more at 3.4). */
const wordsPerId = 2;
/**
 * The two-level bitset pays while its top words (1,024 ids each) are at most this many per id
 * (measured, ids in 1.1M: 1,000 ids in 0.7x the native time, 100 ids even, 30 ids 2.5x).
 */
const topWordsPerId = 8;
/** Ids below this use the two-level bitset (its scratch is then at most 16 MB). */
const twoLevelSpan = 2 ** 27;
/** The ids ascending, repeats dropped, as a new Int32Array (`ids` is left as it was); `bound`, if given, exceeds every id. */
export function sortedDistinct(ids: ArrayLike<number>, bound?: number): Int32Array {
  const n = ids.length;
  if (n <= insertionMax) return insertionSorted(ids);
  let max = bound === undefined ? 0 : bound - 1;
  if (bound === undefined) for (let i = 0; i < n; i++) if ((ids[i] as number) > max) max = ids[i] as number;
  const words = (max >>> 5) + 1;
  if (words <= wordsPerId * n) return bitsetSorted(ids, words);
  if (max >= twoLevelSpan || (words >>> 5) + 1 > topWordsPerId * n) return nativeSorted(ids);
  return markedAscending(max + 1, (add) => {
    for (let i = 0; i < n; i++) add(ids[i] as number);
  });
}

/** `sortedDistinct` as a plain array (SortedIds). */
export function sortedDistinctArray(ids: ArrayLike<number>, bound?: number): number[] {
  const sorted = sortedDistinct(ids, bound);
  const out: number[] = [];
  for (let i = 0; i < sorted.length; i++) out.push(sorted[i] as number);
  return out;
}

function insertionSorted(ids: ArrayLike<number>): Int32Array {
  const out = new Int32Array(ids.length);
  let m = 0;
  for (let i = 0; i < ids.length; i++) {
    const x = ids[i] as number;
    let j = m;
    while (j > 0 && (out[j - 1] as number) > x) j--;
    if (j > 0 && out[j - 1] === x) continue;
    out.copyWithin(j + 1, j, m);
    out[j] = x;
    m++;
  }
  return m === out.length ? out : out.slice(0, m);
}

function bitsetSorted(ids: ArrayLike<number>, words: number): Int32Array {
  const bits = new Int32Array(words);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    bits[id >>> 5] = (bits[id >>> 5] as number) | (1 << (id & 31));
  }
  const out = new Int32Array(ids.length);
  let m = 0;
  for (let w = 0; w < words; w++) {
    let word = bits[w] as number;
    while (word !== 0) {
      const low = word & -word;
      out[m++] = (w << 5) | (31 - Math.clz32(low));
      word ^= low;
    }
  }
  return m === out.length ? out : out.slice(0, m);
}

/** The words of `markedAscending`, kept all zero between uses (reading out clears what it reads), so a use allocates and clears nothing; `marking` while one runs. */
let lowBits = new Int32Array(0);
let topBits = new Int32Array(0);
let marking = false;

/**
 * The node ids `mark` passes to `add` (any order, repeats too; every id below `bound`), ascending and
 * distinct, with no list of them and no sort: one bit per id, and on top one bit per non-empty word of
 * 32 ids, so reading out visits the top words (one per 1,024 ids of the space) and the marked words only.
 */
export function markedAscending(bound: number, mark: (add: (id: number) => void) => void): Int32Array {
  const words = (bound + 31) >>> 5;
  const topWords = (words + 31) >>> 5;
  const shared = !marking;
  if (shared && lowBits.length < words) {
    lowBits = new Int32Array(words);
    topBits = new Int32Array(topWords);
  }
  // A mark inside `mark` (not done today) gets words of its own.
  const low = shared ? lowBits : new Int32Array(words);
  const top = shared ? topBits : new Int32Array(topWords);
  marking = true;
  let marks = 0;
  try {
    mark((id) => {
      if (!(id >= 0 && id < bound)) throw new RangeError(`id ${id} outside [0, ${bound})`);
      const w = id >>> 5;
      low[w] = (low[w] as number) | (1 << (id & 31));
      top[w >>> 5] = (top[w >>> 5] as number) | (1 << (w & 31));
      marks++;
    });
    return readOut(low, top, topWords, marks);
  } catch (e) {
    low.fill(0);
    top.fill(0);
    throw e;
  } finally {
    if (shared) marking = false;
  }
}

/** The marked ids ascending (at most `marks`), the words cleared as they are read. */
function readOut(low: Int32Array, top: Int32Array, topWords: number, marks: number): Int32Array {
  const out = new Int32Array(marks);
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
        out[m++] = (w << 5) | (31 - Math.clz32(bit));
        word ^= bit;
      }
    }
  }
  return m === marks ? out : out.slice(0, m);
}

/** Sparse ids: the typed array's own sort (native), then repeats dropped. */
function nativeSorted(ids: ArrayLike<number>): Int32Array {
  const sorted = new Int32Array(ids).sort();
  let m = 1;
  for (let i = 1; i < sorted.length; i++) if (sorted[i] !== sorted[m - 1]) sorted[m++] = sorted[i] as number;
  return m === sorted.length ? sorted : sorted.slice(0, m);
}
