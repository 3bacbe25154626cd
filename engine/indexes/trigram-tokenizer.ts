// Trigram tokens (`@search(by: [trigram])` / `[regexp]`): every run of three UTF-16 code units,
// case-sensitive, as Dgraph splits bytes. Regexp queries derive their trigrams from the pattern
// (./regexp-trigram-query.ts); `query` serves a literal substring.

import type { Tokenizer } from './token-index.js';

/** The trigrams of `s`, repeats kept (the postings skip them; no Set to build). */
function trigramList(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 3 <= s.length; i++) out.push(s.slice(i, i + 3));
  return out;
}

export const trigramTokenizer: Tokenizer = { name: 'trigram', index: trigramList, query: trigramList };
