// Ngram index (`@search(by: [ngram])` → `StringNgramFilter { ngram: String }`, new in Dgraph v25).
// Dgraph's ngram index ("shingles", dgraph-io/dgraph#9463) runs the fulltext analysis (lower-case,
// NFKC, English stop words, stemming) and indexes overlapping word n-grams. Its exact n-gram sizes
// and query rule are not documented; this implementation chooses:
//   - index: every word n-gram of the analysed token sequence for n = 1..3 (stop words removed
//     first, so "quick the fox" yields the bigram "quick fox");
//   - query: the query text is analysed the same way; a value matches when it holds every n-gram of
//     the query of size min(3, number of query tokens) — i.e. the query's words appear in the value
//     in that order, adjacent up to stop words (exactly for queries of up to three words; longer
//     queries need each of their overlapping word triples). A query of only stop words matches
//     nothing.

import type { ScalarValue, ValueIndex } from './value-index.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { analyzeFulltext } from './fulltext-analyzer.js';
import { IdValues, TokenPostings } from './fulltext-postings.js';

export const MAX_NGRAM = 3;
const SEP = ' ';
const sameString = (a: string, b: string): boolean => a === b;

/** All word n-grams (n = minN..maxN) of a token sequence, distinct. */
export function wordNgrams(tokens: readonly string[], minN: number, maxN: number): Set<string> {
  const out = new Set<string>();
  for (let n = minN; n <= maxN; n++) {
    for (let i = 0; i + n <= tokens.length; i++) out.add(tokens.slice(i, i + n).join(SEP));
  }
  return out;
}

function asText(value: ScalarValue): string {
  if (typeof value !== 'string') throw new TypeError(`ngram index expects string values, got ${typeof value}`);
  return value;
}

export class NgramIndex implements ValueIndex {
  private readonly postings = new TokenPostings<string>();
  private readonly values = new IdValues<string>();

  get entryCount(): number {
    return this.postings.entryCount;
  }

  add(value: ScalarValue, id: number): void {
    const text = asText(value);
    this.values.add(id, text);
    for (const g of wordNgrams(analyzeFulltext(text), 1, MAX_NGRAM)) this.postings.add(g, id);
  }

  remove(value: ScalarValue, id: number): void {
    const text = asText(value);
    if (!this.values.remove(id, text, sameString)) return;
    const kept = new Set<string>();
    for (const other of this.values.get(id)) for (const g of wordNgrams(analyzeFulltext(other), 1, MAX_NGRAM)) kept.add(g);
    for (const g of wordNgrams(analyzeFulltext(text), 1, MAX_NGRAM)) if (!kept.has(g)) this.postings.delete(g, id);
  }

  /** Nodes whose value contains the query's word n-grams (see the header for the exact rule). */
  ngram(text: string): SortedIds {
    const tokens = analyzeFulltext(text);
    if (tokens.length === 0) return [];
    const n = Math.min(MAX_NGRAM, tokens.length);
    return this.postings.intersect([...wordNgrams(tokens, n, n)]);
  }
}
