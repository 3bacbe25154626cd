// `term` index: `allofterms` / `anyofterms`, a token index over Dgraph's term tokens.

import type { Posting } from './postings/posting.js';
import { TokenPostings } from './postings/token-postings.js';
import { termTokenizer } from './term-tokenizer.js';
import { TokenIndex } from './token-index.js';

export class TermIndex extends TokenIndex<Posting> {
  constructor() {
    super(termTokenizer, new TokenPostings());
  }
}
