// Fulltext index (`@search(by: [fulltext])` → alloftext / anyoftext) with the semantics of Dgraph's
// default English fulltext tokenizer: a node matches `alloftext` when the tokens of its value (of all
// its values, for a list) include every token of the query, `anyoftext` when they include at least
// one; a query whose tokens are all stop words matches nothing.
//
// A token index over our analyzer's tokens (./fulltext-analyzer.ts: flexsearch's default encoder
// answers 7 of 13 English probe queries differently from Dgraph's tokens), with its postings in
// flexsearch (./flexsearch-postings.ts).

import { FlexsearchPostings } from './flexsearch-postings.js';
import { fulltextTokenizer } from './fulltext-analyzer.js';
import { TokenIndex } from './token-index.js';
import type { SortedIds } from '../util/sorted-ids.js';

export class FulltextIndex extends TokenIndex<number[]> {
  constructor() {
    super(fulltextTokenizer, new FlexsearchPostings());
  }

  /** Nodes whose tokens include every (non-stop-word) token of `text`. */
  allOfText(text: string): SortedIds {
    return this.allOf(text);
  }

  /** Nodes whose tokens include at least one (non-stop-word) token of `text`. */
  anyOfText(text: string): SortedIds {
    return this.anyOf(text);
  }

  /** Estimated result size of `allOfText` without computing it (the smallest posting). */
  estimateAllOfText(text: string): number {
    return this.estimateAllOf(text);
  }
}
