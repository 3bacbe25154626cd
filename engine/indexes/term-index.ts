// `term` index: `allofterms` / `anyofterms` over Dgraph's term tokens.

import { intersectPostings, postingAdd, postingIds, postingRemove, type Posting } from '../util/posting-list.js';
import { EMPTY_IDS, unionMany, type SortedIds } from '../util/sorted-ids.js';
import { termTokens } from './term-tokenizer.js';
import type { ScalarValue, ValueIndex } from './value-index.js';

export class TermIndex implements ValueIndex {
  private readonly map = new Map<string, Posting>();
  private entries = 0;

  get entryCount(): number {
    return this.entries;
  }

  add(value: ScalarValue, id: number): void {
    if (typeof value !== 'string') return;
    for (const token of termTokens(value)) {
      const prev = this.map.get(token);
      const next = postingAdd(prev, id);
      if (next === null) continue;
      if (next !== prev) this.map.set(token, next); // a PostingList grows in place
      this.entries++;
    }
  }

  remove(value: ScalarValue, id: number): void {
    if (typeof value !== 'string') return;
    for (const token of termTokens(value)) {
      const prev = this.map.get(token);
      const next = postingRemove(prev, id);
      if (next === null) continue;
      if (next === undefined) this.map.delete(token);
      else if (next !== prev) this.map.set(token, next);
      this.entries--;
    }
  }

  /** Ids whose value has every term of `text`; no terms → nothing. */
  allOf(text: string): SortedIds {
    const tokens = termTokens(text);
    if (tokens.length === 0) return EMPTY_IDS;
    const postings: Posting[] = [];
    for (const t of tokens) {
      const p = this.map.get(t);
      if (p === undefined) return EMPTY_IDS;
      postings.push(p);
    }
    return postings.length === 1 ? postingIds(postings[0]) : intersectPostings(postings);
  }

  /** Ids whose value has at least one term of `text`. */
  anyOf(text: string): SortedIds {
    const sets = termTokens(text).map((t) => postingIds(this.map.get(t)));
    return sets.length === 1 ? (sets[0] as SortedIds) : unionMany(sets);
  }
}
