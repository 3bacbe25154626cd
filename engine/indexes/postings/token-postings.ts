// Token → posting: the TokenStore of the term, ngram and trigram indexes (fulltext keeps its postings
// in flexsearch). Postings are ./posting.ts's (a bare id, a small copy-on-write array or a PostingList),
// so every list handed out is a snapshot.

import { PostingList } from './posting-list.js';
import { SMALL_MAX, postingAdd, postingIds, postingRemove, postingSize, type Posting } from './posting.js';
import type { TokenStore } from './token-store.js';
import { packPostings, unpackPostings, type StoredPostings } from './stored-postings.js';
import type { SortedIds } from '../../util/sorted-ids.js';

export class TokenPostings implements TokenStore<Posting> {
  private readonly map = new Map<string, Posting>();
  private entries = 0;

  /** `smallMax`: see postingAdd (1 for trigrams: most of their lists collect many ids one by one). */
  constructor(private readonly smallMax = SMALL_MAX) {}

  get entryCount(): number {
    return this.entries;
  }

  get tokenCount(): number {
    return this.map.size;
  }

  /** Adds `id` under `token`; false when it was already there. */
  add(token: string, id: number): boolean {
    const prev = this.map.get(token);
    const next = postingAdd(prev, id, this.smallMax);
    if (next === null) return false;
    if (next !== prev) this.map.set(token, next); // a PostingList grows in place
    this.entries++;
    return true;
  }

  /** Removes `id` from `token`; false when it was not there. */
  remove(token: string, id: number): boolean {
    const prev = this.map.get(token);
    const next = postingRemove(prev, id, this.smallMax);
    if (next === null) return false;
    if (next === undefined) this.map.delete(token);
    else if (next !== prev) this.map.set(token, next);
    this.entries--;
    return true;
  }

  put(id: number, tokens: readonly string[]): void {
    for (const t of tokens) this.add(t, id);
  }

  drop(id: number, tokens: readonly string[]): void {
    for (const t of tokens) this.remove(t, id);
  }

  list(token: string): Posting | undefined {
    return this.map.get(token);
  }

  size(list: Posting): number {
    return postingSize(list);
  }

  ids(list: Posting): SortedIds {
    return postingIds(list);
  }

  snapshot(list: Posting): SortedIds {
    return postingIds(list);
  }

  bitset(list: Posting, build = true): Uint32Array | undefined {
    return list instanceof PostingList ? list.bitset(build) : undefined;
  }

  exportPostings(): StoredPostings {
    return packPostings((add) => {
      // Read at once (packed into typed arrays): peeked, not handed out (toArray would make each list's next write copy it).
      for (const [token, posting] of this.map) add(token, posting instanceof PostingList ? posting.peek() : posting);
    });
  }

  /** Each list in the form postingAdd would have grown it to: a bare id, a small array up to smallMax, a PostingList. */
  importPostings(stored: StoredPostings): void {
    if (this.map.size !== 0) throw new Error('importPostings needs an empty store');
    const smallMax = this.smallMax;
    unpackPostings(stored, (token, ids) => {
      const n = ids.length;
      this.map.set(token, n === 1 ? (ids[0] as number) : n <= smallMax ? Array.from(ids) : new PostingList(Array.from(ids)));
    });
    this.entries = stored.ids.length;
  }
}
