// The one inverted index from tokens to node ids, parameterised by its tokenizer: term, fulltext, ngram
// and trigram differ only in how a value and a query become tokens (./term-tokenizer.ts,
// ./fulltext-analyzer.ts, ./ngram-tokenizer.ts, ./trigram-tokenizer.ts) and in where the postings live
// (./postings/token-postings.ts; flexsearch for fulltext, ./flexsearch-postings.ts).
//
// A node holds one document per index: the tokens of its value, or of all its values for a list
// (addList/removeList; the store removes a node's whole previous value before adding the new one), so
// removing a value never drops a token the node still holds, and no per-node copy of values is kept.

import { intersectLists } from './postings/intersect-lists.js';
import type { TokenStore } from './postings/token-store.js';
import { membershipOf, NO_MEMBERS, type Membership } from './postings/membership.js';
import { EMPTY_IDS, unionMany, type SortedIds } from '../util/sorted-ids.js';
import type { ScalarValue, ValueIndex } from './value-index.js';
import type { StoredPostings } from './postings/stored-postings.js';

/** How values and queries become tokens. */
export interface Tokenizer {
  /** The index kind, for errors. */
  readonly name: string;
  /** The tokens a stored value is filed under (repeats allowed). */
  index(text: string): readonly string[];
  /** The tokens a query text looks up (repeats allowed). */
  query(text: string): readonly string[];
}

export class TokenIndex<L> implements ValueIndex {
  constructor(
    protected readonly tokenizer: Tokenizer,
    protected readonly store: TokenStore<L>,
  ) {}

  /** Number of (token, node) pairs. */
  get entryCount(): number {
    return this.store.entryCount;
  }

  /** Number of distinct tokens some node holds. */
  get tokenCount(): number {
    return this.store.tokenCount;
  }

  /** Distinct keys, as every index reports them to the planner's estimates (entries per key = a token's average list). */
  get keyCount(): number {
    return this.store.tokenCount;
  }

  add(value: ScalarValue, id: number): void {
    this.store.put(id, this.tokenizer.index(this.text(value)));
  }

  addList(values: readonly ScalarValue[], id: number): void {
    this.store.put(id, this.listTokens(values));
  }

  remove(value: ScalarValue, id: number): void {
    this.store.drop(id, this.tokenizer.index(this.text(value)));
  }

  removeList(values: readonly ScalarValue[], id: number): void {
    this.store.drop(id, this.listTokens(values));
  }

  /** Nodes holding every token of the query `text`; a query without tokens matches nothing. */
  allOf(text: string): SortedIds {
    const lists: L[] = [];
    for (const token of distinct(this.tokenizer.query(text))) {
      const list = this.store.list(token);
      if (list === undefined) return EMPTY_IDS;
      lists.push(list);
    }
    if (lists.length === 1) return this.store.snapshot(lists[0] as L);
    // Two or more non-empty lists: intersectLists returns a fresh array.
    const s = this.store;
    return intersectLists(lists, (l) => s.size(l), (l) => s.ids(l), (l) => s.bitset(l));
  }

  /** Nodes holding at least one token of the query `text`. */
  anyOf(text: string): SortedIds {
    const lists: L[] = [];
    for (const token of distinct(this.tokenizer.query(text))) {
      const list = this.store.list(token);
      if (list !== undefined) lists.push(list);
    }
    if (lists.length === 0) return EMPTY_IDS;
    if (lists.length === 1) return this.store.snapshot(lists[0] as L);
    return unionMany(lists.map((l) => this.store.ids(l)));
  }

  /**
   * Per distinct token of the query `text`, a membership test of its list (NO_MEMBERS for a token no
   * node holds): `allOf`/`anyOf` checked per candidate without intersecting or merging the lists.
   * Valid during the caller's call only.
   */
  members(text: string): Membership[] {
    const out: Membership[] = [];
    for (const token of distinct(this.tokenizer.query(text))) {
      const list = this.store.list(token);
      const store = this.store;
      out.push(list === undefined ? NO_MEMBERS : membershipOf(store.ids(list), () => store.snapshot(list), (build) => store.bitset(list, build)));
    }
    return out;
  }

  /** Upper bound of `allOf(text)`'s size without computing it: its smallest list. */
  estimateAllOf(text: string): number {
    const tokens = distinct(this.tokenizer.query(text));
    if (tokens.length === 0) return 0;
    let min = Infinity;
    for (const t of tokens) {
      const list = this.store.list(t);
      min = Math.min(min, list === undefined ? 0 : this.store.size(list));
    }
    return min;
  }

  /** The nodes holding `token` (a snapshot). */
  ids(token: string): SortedIds {
    const list = this.store.list(token);
    return list === undefined ? EMPTY_IDS : this.store.snapshot(list);
  }

  storedPostings(): StoredPostings {
    return this.store.exportPostings();
  }

  loadPostings(stored: StoredPostings, _each?: (fn: (value: ScalarValue | readonly ScalarValue[], id: number) => void) => void): void {
    this.store.importPostings(stored);
  }

  protected text(value: ScalarValue): string {
    if (typeof value !== 'string') throw new TypeError(`${this.tokenizer.name} index expects string values, got ${typeof value}`);
    return value;
  }

  /** The tokens of all of a list's values (one document per node). */
  private listTokens(values: readonly ScalarValue[]): readonly string[] {
    if (values.length === 1) return this.tokenizer.index(this.text(values[0] as ScalarValue));
    const tokens: string[] = [];
    for (const v of values) for (const t of this.tokenizer.index(this.text(v))) tokens.push(t);
    return tokens;
  }
}

/** The distinct tokens, in first-seen order (a short list needs no Set). */
export function distinct(tokens: readonly string[]): readonly string[] {
  if (tokens.length < 2) return tokens;
  if (tokens.length > 24) return [...new Set(tokens)];
  const out: string[] = [];
  for (const t of tokens) if (!out.includes(t)) out.push(t);
  return out;
}
