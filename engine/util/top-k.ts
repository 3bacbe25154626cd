// The k smallest (key, id) pairs seen, ties by smaller id: a bounded max-heap over two typed arrays,
// so offering a candidate allocates nothing (nearest-neighbour scans offer every stored vector).

export class TopK {
  private readonly keys: Float64Array;
  private readonly ids: Int32Array;
  private n = 0;
  /** Bound of the heap; `TopKScratch` lowers it to reuse the arrays. */
  k: number;

  constructor(k: number) {
    this.k = k;
    this.keys = new Float64Array(k);
    this.ids = new Int32Array(k);
  }

  /** Emptied and bounded to `k` (at most the size it was made with). */
  reset(k: number): this {
    this.k = k;
    this.n = 0;
    return this;
  }

  /** The largest bound `reset` takes. */
  get capacity(): number {
    return this.keys.length;
  }

  get size(): number {
    return this.n;
  }

  get full(): boolean {
    return this.n === this.k;
  }

  /** The largest key kept (the one a candidate must beat once full); Infinity while not full. */
  get worst(): number {
    return this.n === this.k && this.k > 0 ? (this.keys[0] as number) : Infinity;
  }

  /** Keeps (key, id) if it is among the k smallest so far; a NaN key is never kept. */
  offer(key: number, id: number): void {
    if (this.n < this.k) {
      if (key !== key) return;
      this.siftUp(this.n++, key, id);
      return;
    }
    if (this.k === 0) return;
    const top = this.keys[0] as number;
    if (key < top || (key === top && id < (this.ids[0] as number))) this.siftDown(key, id);
  }

  /** The kept pairs ascending by key, ties by id; the heap is left empty. */
  drain(): { ids: number[]; keys: number[] } {
    const count = this.n;
    const ids = new Array<number>(count);
    const keys = new Array<number>(count);
    for (let i = count - 1; i >= 0; i--) {
      ids[i] = this.ids[0] as number;
      keys[i] = this.keys[0] as number;
      const lastKey = this.keys[--this.n] as number;
      const lastId = this.ids[this.n] as number;
      if (this.n > 0) this.siftDown(lastKey, lastId);
    }
    return { ids, keys };
  }

  private above(ka: number, ia: number, kb: number, ib: number): boolean {
    return ka > kb || (ka === kb && ia > ib);
  }

  private siftUp(at: number, key: number, id: number): void {
    const { keys, ids } = this;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const pk = keys[parent] as number;
      const pi = ids[parent] as number;
      if (!this.above(key, id, pk, pi)) break;
      keys[at] = pk;
      ids[at] = pi;
      at = parent;
    }
    keys[at] = key;
    ids[at] = id;
  }

  /** Replaces the root with (key, id) and restores the heap over the first n entries. */
  private siftDown(key: number, id: number): void {
    const { keys, ids, n } = this;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= n) break;
      const right = child + 1;
      if (right < n && this.above(keys[right] as number, ids[right] as number, keys[child] as number, ids[child] as number)) child = right;
      const ck = keys[child] as number;
      const ci = ids[child] as number;
      if (!this.above(ck, ci, key, id)) break;
      keys[at] = ck;
      ids[at] = ci;
      at = child;
    }
    keys[at] = key;
    ids[at] = id;
  }
}

/** Largest k a scratch heap keeps its arrays for (a longer page is rare; its heap is not kept alive). */
const maxScratchK = 1024;

/**
 * One heap per call site, reused between calls: a typed array allocation costs 1-3 µs here, two per
 * heap (a tenth of a geo-near or similar request). Only for synchronous callers that drain the heap
 * before returning (a nested use would share it).
 */
export class TopKScratch {
  private top = new TopK(16);

  take(k: number): TopK {
    if (k > maxScratchK) return new TopK(k);
    if (k > this.top.capacity) this.top = new TopK(k);
    return this.top.reset(k);
  }
}
