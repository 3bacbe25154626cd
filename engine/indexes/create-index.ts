// Index kind → a fresh, empty index.

import { BoolIndex } from './bool-index.js';
import { ExactIndex } from './exact-index.js';
import { FulltextIndex } from './fulltext-index.js';
import { GeoIndex } from './geo-index.js';
import { HashIndex } from './hash-index.js';
import type { IndexKindName } from './index-kind.js';
import { NgramIndex } from './ngram-index.js';
import { OrderedIndex } from './ordered-index.js';
import { TermIndex } from './term-index.js';
import { TrigramIndex } from './trigram-index.js';
import type { KeyMatcher } from './postings/posting-table.js';
import type { ValueIndex } from './value-index.js';
import { VectorIndex } from './vector-index.js';

/** `matches` tests a node's stored value in the column being indexed (indexes that can use it keep no copy of the values). */
export function createIndex(kind: IndexKindName, matches?: KeyMatcher): ValueIndex {
  switch (kind) {
    case 'hash':
      return new HashIndex(matches);
    case 'exact':
      return new ExactIndex();
    case 'int':
      return OrderedIndex.int();
    case 'int64':
      return OrderedIndex.int64();
    case 'float':
      return OrderedIndex.float();
    case 'year':
    case 'month':
    case 'day':
    case 'hour':
      return OrderedIndex.dateTime();
    case 'bool':
      return new BoolIndex();
    case 'term':
      return new TermIndex();
    case 'fulltext':
      return new FulltextIndex();
    case 'trigram':
      return new TrigramIndex();
    case 'ngram':
      return new NgramIndex();
    case 'geo':
      return new GeoIndex();
    case 'hnsw':
      return new VectorIndex();
  }
}
