// The first k of a stream of (key, id) pairs in (key, id) order, in a sorted buffer of k: a pair no
// better than the current k-th is rejected with one compare. For pages over matches that arrive in
// no useful order (a range walked in its own value order, paged by another key or by uid).

export class FirstK {
  private readonly keys: Float64Array;
  private readonly ids: number[] = [];
  private size = 0;

  constructor(private readonly k: number) {
    this.keys = new Float64Array(k);
  }

  offer(key: number, id: number): void {
    const { keys, ids, k } = this;
    if (this.size === k) {
      const worst = keys[k - 1] as number;
      if (key > worst || (key === worst && id > (ids[k - 1] as number))) return;
    }
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = keys[mid] as number;
      if (m < key || (m === key && (ids[mid] as number) < id)) lo = mid + 1;
      else hi = mid;
    }
    let j = this.size === k ? k - 1 : this.size++;
    for (; j > lo; j--) {
      keys[j] = keys[j - 1] as number;
      ids[j] = ids[j - 1] as number;
    }
    keys[lo] = key;
    ids[lo] = id;
  }

  /** The ids kept, best first. */
  result(): number[] {
    this.ids.length = this.size;
    return this.ids;
  }
}
