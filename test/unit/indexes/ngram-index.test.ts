import { describe, expect, it } from 'vitest';
import { NgramIndex } from '../../../engine/indexes/ngram-index.js';
import { wordNgrams } from '../../../engine/indexes/ngram-tokenizer.js';

function indexOf(values: readonly string[]): NgramIndex {
  const idx = new NgramIndex();
  values.forEach((v, i) => idx.add(v, i + 1));
  return idx;
}

describe('NgramIndex', () => {
  const idx = indexOf([
    'The quick brown fox jumps over the lazy dog', // 1
    'A brown quick fox', // 2
    'Quick brown foxes are running', // 3
    'Lazy dogs sleep', // 4
  ]);

  it('builds word 1..3-grams', () => {
    expect([...wordNgrams(['a', 'b', 'c'], 1, 3)]).toEqual(['a', 'b', 'c', 'a b', 'b c', 'a b c']);
  });
  it('single words match like fulltext (stemmed, case-insensitive)', () => {
    expect(idx.ngram('FOX')).toEqual([1, 2, 3]);
    expect(idx.ngram('dog')).toEqual([1, 4]);
  });
  it('several words must appear in order and adjacent (up to stop words)', () => {
    expect(idx.ngram('quick brown')).toEqual([1, 3]);
    expect(idx.ngram('brown quick')).toEqual([2]);
    expect(idx.ngram('quick brown fox')).toEqual([1, 3]);
    expect(idx.ngram('fox jumps over the lazy dog')).toEqual([1]);
    expect(idx.ngram('jumps lazy')).toEqual([1]); // "over the" are stop words
  });
  it('a phrase of more than three tokens matches any of its trigrams (union, as Dgraph)', () => {
    // "brown quick fox" (2), "quick fox jump" (none), "fox jump lazi" (1)
    expect(idx.ngram('brown quick fox jumps lazy')).toEqual([1, 2]);
    expect(idx.ngram('quick fox jumps')).toEqual([]);
  });
  it("stop words are bleve's stop_en: 'is the best' is the unigram 'best'", () => {
    const i = indexOf(['the best day', 'a good day']);
    expect(i.ngram('is the best')).toEqual([1]);
    expect(i.ngram('first day')).toEqual([]);
  });
  it('a query of only stop words matches nothing', () => {
    expect(idx.ngram('the over')).toEqual([]);
    expect(idx.ngram('')).toEqual([]);
  });
  it('remove / update', () => {
    const i = indexOf(['quick brown fox']);
    i.remove('quick brown fox', 1);
    i.add('slow brown bear', 1);
    expect(i.ngram('quick brown')).toEqual([]);
    expect(i.ngram('brown bear')).toEqual([1]);
    expect(i.entryCount).toBe(6);
  });
});
