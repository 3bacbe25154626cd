// Token → sorted id list postings shared by the trigram, ngram and geo indexes, plus the per-node
// value bags they need to undo one value of a multi-valued predicate. (Generic despite the file
// name, which is historical: the fulltext index now keeps its postings in flexsearch, see
// fulltext-index.ts; helpers under indexes/ must carry an index prefix.)

import type { SortedIds } from '../util/sorted-ids.js';
import { bitsetOf, intersectLists } from '../util/posting-list.js';

const EMPTY: SortedIds = Object.freeze([]) as SortedIds;

interface PostingList {
  ids: number[];
  /** Handed out to a caller: the next mutation copies first (copy-on-write snapshots). */
  shared: boolean;
  /** A bitset of `ids` built on demand for intersections (dropped on the next write). */
  bits?: Uint32Array | undefined;
}


/** Position of `id` in ascending `ids`, or the insertion point as `-(pos + 1)`. */
function search(ids: readonly number[], id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid] as number;
    if (v < id) lo = mid + 1;
    else if (v > id) hi = mid - 1;
    else return mid;
  }
  return -(lo + 1);
}

export class TokenPostings<K> {
  private readonly lists = new Map<K, PostingList>();
  private entries = 0;
  /** (token, id) pairs added more than once (by several values of one node): how many extra times. */
  private extra: Map<K, Map<number, number>> | undefined;

  /** Number of (token, id) pairs. */
  get entryCount(): number {
    return this.entries;
  }

  /** Number of distinct tokens. */
  get tokenCount(): number {
    return this.lists.size;
  }

  /** Adds `id` under `token`; false when it was already there. */
  add(token: K, id: number): boolean {
    const list = this.lists.get(token);
    if (list === undefined) {
      this.lists.set(token, { ids: [id], shared: false });
      this.entries++;
      return true;
    }
    const ids = list.ids;
    const last = ids[ids.length - 1] as number;
    if (last === id) return false;
    if (last < id) {
      this.writable(list).push(id);
    } else {
      const pos = search(ids, id);
      if (pos >= 0) return false;
      this.writable(list).splice(-(pos + 1), 0, id);
    }
    this.entries++;
    return true;
  }

  /**
   * Like `add`, but counts repeated adds of the same pair (several values of one node sharing a
   * token), so that `release` keeps the pair until every add is undone. No per-node value copies.
   */
  addCounted(token: K, id: number): void {
    if (this.add(token, id)) return;
    const extra = (this.extra ??= new Map());
    let ids = extra.get(token);
    if (ids === undefined) extra.set(token, (ids = new Map()));
    ids.set(id, (ids.get(id) ?? 0) + 1);
  }

  /** Undoes one `addCounted`. */
  release(token: K, id: number): void {
    const ids = this.extra?.get(token);
    const n = ids?.get(id);
    if (ids === undefined || n === undefined) {
      this.delete(token, id);
      return;
    }
    if (n > 1) ids.set(id, n - 1);
    else {
      ids.delete(id);
      if (ids.size === 0) this.extra?.delete(token);
    }
  }

  /** Removes `id` from `token`; false when it was not there. */
  delete(token: K, id: number): boolean {
    const list = this.lists.get(token);
    if (list === undefined) return false;
    const pos = search(list.ids, id);
    if (pos < 0) return false;
    if (list.ids.length === 1) this.lists.delete(token);
    else this.writable(list).splice(pos, 1);
    this.entries--;
    return true;
  }

  /** The ids under `token` (a snapshot: later mutations do not show through). */
  get(token: K): SortedIds {
    const list = this.lists.get(token);
    if (list === undefined) return EMPTY;
    list.shared = true;
    return list.ids;
  }

  size(token: K): number {
    return this.lists.get(token)?.ids.length ?? 0;
  }

  has(token: K): boolean {
    return this.lists.has(token);
  }

  /** Ids under every token (no tokens → none); see intersectLists (cached bitsets for dense lists). */
  intersect(tokens: readonly K[]): SortedIds {
    const lists: PostingList[] = [];
    for (const t of tokens) {
      const list = this.lists.get(t);
      if (list === undefined) return EMPTY;
      lists.push(list);
    }
    return intersectLists(lists, (list) => list.ids.length, shareIds, bitsOf);
  }

  /** Iterates over all tokens and their id lists (snapshots). */
  *entriesOf(): IterableIterator<[K, SortedIds]> {
    for (const [token, list] of this.lists) {
      list.shared = true;
      yield [token, list.ids];
    }
  }

  private writable(list: PostingList): number[] {
    list.bits = undefined;
    if (list.shared) {
      list.ids = list.ids.slice();
      list.shared = false;
    }
    return list.ids;
  }
}

/** The list's ids, handed out: the next write copies them first. */
function shareIds(list: PostingList): SortedIds {
  list.shared = true;
  return list.ids;
}

/** The list's membership bitset (built once until the next write), if the list is long and dense enough. */
function bitsOf(list: PostingList): Uint32Array | undefined {
  if (list.bits === undefined) list.bits = bitsetOf(list.ids);
  return list.bits;
}

/** Sorts and de-duplicates ids collected in any order. */
export function toSortedIds(ids: number[]): SortedIds {
  if (ids.length < 2) return ids;
  ids.sort((x, y) => x - y);
  let w = 1;
  for (let r = 1; r < ids.length; r++) {
    if (ids[r] !== ids[w - 1]) ids[w++] = ids[r] as number;
  }
  ids.length = w;
  return ids;
}

/**
 * The values each node holds in one index (a single value stored bare; several as an array), so
 * that removing one value of a list-valued predicate keeps the tokens its other values still need.
 */
export class IdValues<V extends string | object> {
  private isList(v: V | V[]): v is V[] {
    return Array.isArray(v);
  }

  private readonly byId = new Map<number, V | V[]>();

  get nodeCount(): number {
    return this.byId.size;
  }

  add(id: number, value: V): void {
    const cur = this.byId.get(id);
    if (cur === undefined) this.byId.set(id, value);
    else if (this.isList(cur)) cur.push(value);
    else this.byId.set(id, [cur, value]);
  }

  /** Removes one occurrence of a value equal to `value`; false when there was none. */
  remove(id: number, value: V, equal: (a: V, b: V) => boolean): boolean {
    const cur = this.byId.get(id);
    if (cur === undefined) return false;
    if (!this.isList(cur)) {
      if (!equal(cur, value)) return false;
      this.byId.delete(id);
      return true;
    }
    const pos = cur.findIndex((v) => equal(v, value));
    if (pos < 0) return false;
    cur.splice(pos, 1);
    if (cur.length === 1) this.byId.set(id, cur[0] as V);
    return true;
  }

  get(id: number): readonly V[] {
    const cur = this.byId.get(id);
    if (cur === undefined) return [];
    return this.isList(cur) ? cur : [cur];
  }

  *entries(): IterableIterator<[number, readonly V[]]> {
    for (const [id, cur] of this.byId) yield [id, this.isList(cur) ? cur : [cur]];
  }
}
