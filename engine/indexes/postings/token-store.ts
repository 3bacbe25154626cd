// What a token index (../token-index.ts) needs of the place its postings live: one document per node
// (the tokens of its value, or of all its values for a list) written and removed whole, and per token a
// list that the shared set algebra (./intersect-lists.ts, unionMany) reads. TokenPostings is the store
// of term, ngram and trigram; ../flexsearch-postings.ts is fulltext's.

import type { SortedIds } from '../../util/sorted-ids.js';
import type { StoredPostings } from './stored-postings.js';

/** `L` is one token's list as the store holds it (a Posting, or flexsearch's id array). */
export interface TokenStore<L> {
  /** Number of (token, node) pairs. */
  readonly entryCount: number;
  /** Number of tokens some node holds. */
  readonly tokenCount: number;
  /** Files node `id` under `tokens` (repeats allowed); the node holds no document here. */
  put(id: number, tokens: readonly string[]): void;
  /** Undoes `put(id, tokens)` (the same tokens). */
  drop(id: number, tokens: readonly string[]): void;
  /** The token's list, read during the caller's call only; undefined when no node holds the token. */
  list(token: string): L | undefined;
  size(list: L): number;
  /** The list's ids ascending, read during the caller's call only. */
  ids(list: L): SortedIds;
  /** The list's ids ascending, as a snapshot later writes do not change. */
  snapshot(list: L): SortedIds;
  /** The list's cached membership bitset, when it is long and dense enough to have one (`build` false: only if already built). */
  bitset(list: L, build?: boolean): Uint32Array | undefined;
  /** Every token's ids, packed (a copy: a snapshot's). */
  exportPostings(): StoredPostings;
  /** Fills this empty store with exported postings (a restore: nothing tokenised). */
  importPostings(stored: StoredPostings): void;
}
