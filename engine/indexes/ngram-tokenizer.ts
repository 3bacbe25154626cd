// Ngram tokens (`@search(by: [ngram])`, new in Dgraph v25), with the rules of Dgraph's NGramTokenizer
// (tok/tok.go) and of its query (worker/task.go):
//   - analysis: the fulltext analysis (./fulltext-analyzer.ts: words, lower-case, NFKC, bleve's
//     English stop words removed, Porter stems), so "quick the fox" has the bigram "quick fox";
//   - index: every word n-gram of a value's tokens for n = 1..3 (Dgraph also indexes 4-grams, which
//     no query asks for); the grams of one value, never across the values of a list;
//   - query: the phrase's word n-grams of size min(3, number of its tokens), and a node matches
//     when it holds ANY of them (Dgraph intersects only for functions named allof*). A phrase of
//     only stop words has no gram and matches nothing.

import { analyzeFulltext } from './fulltext-analyzer.js';
import type { Tokenizer } from './token-index.js';

export const MAX_NGRAM = 3;
const SEP = ' ';

/** All word n-grams (n = minN..maxN) of a token sequence, distinct. */
export function wordNgrams(tokens: readonly string[], minN: number, maxN: number): Set<string> {
  const out = new Set<string>();
  for (let n = minN; n <= maxN; n++) {
    for (let i = 0; i + n <= tokens.length; i++) out.add(tokens.slice(i, i + n).join(SEP));
  }
  return out;
}

export const ngramTokenizer: Tokenizer = {
  name: 'ngram',
  index: (text) => [...wordNgrams(analyzeFulltext(text), 1, MAX_NGRAM)],
  query: (text) => {
    const tokens = analyzeFulltext(text);
    const n = Math.min(MAX_NGRAM, tokens.length);
    return n === 0 ? [] : [...wordNgrams(tokens, n, n)];
  },
};
