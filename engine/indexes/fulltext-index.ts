// Fulltext index (`@search(by: [fulltext])` → alloftext / anyoftext) with the semantics of Dgraph's
// default English fulltext tokenizer: a value matches `alloftext` when its token set holds every
// token of the query, `anyoftext` when it holds at least one; a query whose tokens are all stop
// words matches nothing. Tokens come from ./fulltext-analyzer.ts (UAX #29-style words,
// lower-case, NFKC, Dgraph's English stop words, Porter stemmer).
//
// flexsearch was measured for this job and is deliberately not used (bench/micro/fulltext-vs-flexsearch.ts,
// the one file that imports it; figures in bench/README.md): its default English encoder answers 7 of 13
// English probe queries differently from Dgraph's tokens; with our analyzer plugged in as its `encode`
// the answers agree, but a 2-word alloftext that must return every match (ordering and paging come
// after filtering) took 146 µs vs 3.6 µs here at 10k documents and 38 ms vs 0.14 ms at 1M, because it
// scores and caps results by relevance; it also removes whole documents, not one value of a list.
// Exact token postings answer both functions by sorted-list intersection/union; large postings get a
// cached membership bitset, so dense lists intersect word by word (see TokenPostings.intersect).

import type { ScalarValue, ValueIndex } from './value-index.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { analyzeFulltext } from './fulltext-analyzer.js';
import { unionMany } from '../util/sorted-ids.js';
import { TokenPostings } from './fulltext-postings.js';

/** The distinct tokens of a text, in first-seen order (a short text needs no Set). */
function distinctTokens(text: string): readonly string[] {
  const tokens = analyzeFulltext(text);
  if (tokens.length < 2) return tokens;
  if (tokens.length > 24) return [...new Set(tokens)];
  const out: string[] = [];
  for (const t of tokens) if (!out.includes(t)) out.push(t);
  return out;
}

function asText(value: ScalarValue): string {
  if (typeof value !== 'string') throw new TypeError(`fulltext index expects string values, got ${typeof value}`);
  return value;
}

/**
 * Each value adds its distinct tokens once, counted (see TokenPostings.addCounted), so removing one
 * value of a list keeps the tokens its other values still hold without keeping a copy of every value.
 * `remove` must be given a value previously added for that node (the store's contract).
 */
export class FulltextIndex implements ValueIndex {
  private readonly postings = new TokenPostings<string>();

  get entryCount(): number {
    return this.postings.entryCount;
  }

  /** Number of distinct tokens (for the planner and memory reports). */
  get tokenCount(): number {
    return this.postings.tokenCount;
  }

  add(value: ScalarValue, id: number): void {
    for (const token of distinctTokens(asText(value))) this.postings.addCounted(token, id);
  }

  remove(value: ScalarValue, id: number): void {
    for (const token of distinctTokens(asText(value))) this.postings.release(token, id);
  }

  /** Nodes whose value contains every (non-stop-word) token of `text`. */
  allOfText(text: string): SortedIds {
    const tokens = new Set(analyzeFulltext(text));
    if (tokens.size === 0) return [];
    return this.postings.intersect([...tokens]);
  }

  /** Nodes whose value contains at least one (non-stop-word) token of `text`. */
  anyOfText(text: string): SortedIds {
    const tokens = new Set(analyzeFulltext(text));
    return unionMany([...tokens].map((t) => this.postings.get(t)));
  }

  /** Estimated result size of `allOfText` without computing it (smallest posting list). */
  estimateAllOfText(text: string): number {
    const tokens = new Set(analyzeFulltext(text));
    if (tokens.size === 0) return 0;
    let min = Infinity;
    for (const t of tokens) min = Math.min(min, this.postings.size(t));
    return min;
  }
}
