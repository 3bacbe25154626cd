// Ngram index (`@search(by: [ngram])` → `StringNgramFilter { ngram: String }`, new in Dgraph v25),
// with the rules of Dgraph's NGramTokenizer (tok/tok.go) and of its query (worker/task.go):
//   - analysis: the fulltext analysis (./fulltext-analyzer.ts: words, lower-case, NFKC, bleve's
//     English stop words removed, Porter stems), so "quick the fox" has the bigram "quick fox";
//   - index: every word n-gram of a value's tokens for n = 1..3 (Dgraph also indexes 4-grams, which
//     no query asks for); the grams of one value, never across the values of a list;
//   - query: the phrase's word n-grams of size min(3, number of its tokens), and a node matches
//     when it holds ANY of them: Dgraph intersects only for functions named allof*. A phrase of
//     only stop words has no gram and matches nothing.

import type { ScalarValue, ValueIndex } from './value-index.js';
import { unionMany, type SortedIds } from '../util/sorted-ids.js';
import { analyzeFulltext } from './fulltext-analyzer.js';
import { IdValues, TokenPostings } from './fulltext-postings.js';

const MAX_NGRAM = 3;
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

  /** Nodes with a value holding any of the query's word n-grams (see the header for the exact rule). */
  ngram(text: string): SortedIds {
    const tokens = analyzeFulltext(text);
    const n = Math.min(MAX_NGRAM, tokens.length);
    if (n === 0) return [];
    const grams = [...wordNgrams(tokens, n, n)];
    // One gram (phrases of up to three tokens): its list as is, no copy.
    if (grams.length === 1) return this.postings.get(grams[0] as string);
    return unionMany(grams.map((g) => this.postings.get(g)));
  }
}
