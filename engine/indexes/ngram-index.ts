// Ngram index: a token index over ./ngram-tokenizer.ts's word n-grams (see there for Dgraph's rules).

import { ngramTokenizer } from './ngram-tokenizer.js';
import type { Posting } from './postings/posting.js';
import { TokenPostings } from './postings/token-postings.js';
import { TokenIndex } from './token-index.js';
import type { SortedIds } from '../util/sorted-ids.js';

export class NgramIndex extends TokenIndex<Posting> {
  constructor() {
    super(ngramTokenizer, new TokenPostings());
  }

  /** Nodes with a value holding any of the query's word n-grams of size min(3, its tokens). */
  ngram(text: string): SortedIds {
    return this.anyOf(text);
  }
}
