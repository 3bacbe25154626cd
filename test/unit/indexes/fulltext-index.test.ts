import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FulltextIndex } from '../../../engine/indexes/fulltext-index.js';
import { analyzeFulltext, splitWords } from '../../../engine/indexes/fulltext-analyzer.js';
import { porterStem } from '../../../engine/indexes/english-porter-stemmer.js';

function indexOf(values: readonly string[]): FulltextIndex {
  const idx = new FulltextIndex();
  values.forEach((v, i) => idx.add(v, i + 1));
  return idx;
}

describe('porterStem', () => {
  it.each([
    ['caresses', 'caress'], ['ponies', 'poni'], ['cats', 'cat'], ['agreed', 'agre'], ['plastered', 'plaster'],
    ['motoring', 'motor'], ['hopping', 'hop'], ['falling', 'fall'], ['filing', 'file'], ['happy', 'happi'],
    ['relational', 'relat'], ['generalizations', 'gener'], ['running', 'run'], ['distances', 'distanc'],
    ['distance', 'distanc'], ['adjustment', 'adjust'], ['effective', 'effect'], ['is', 'is'],
  ])('%s → %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });
});

describe('fulltext analyzer', () => {
  it('splits words like UAX #29 and drops punctuation', () => {
    expect(splitWords("Don't stop: 3.14, e.g. café_bar! 東京")).toEqual(["Don't", 'stop', '3.14', 'e.g', 'café_bar', '東', '京']);
  });
  it('lower-cases, NFKC-normalises, removes stop words and stems', () => {
    expect(analyzeFulltext('The Ｒｕｎｎｉｎｇ dogs are NOT barking')).toEqual(['run', 'dog', 'bark']);
  });
});

describe('FulltextIndex', () => {
  const idx = indexOf([
    'The quick brown fox jumps over the lazy dog', // 1
    'Running distances for runners', // 2
    'A runner runs a long distance', // 3
    'Brown bears', // 4
  ]);

  it('matches stems: run ~ running ~ runs, distance ~ distances', () => {
    expect(idx.allOfText('run')).toEqual([2, 3]);
    expect(idx.allOfText('distance')).toEqual([2, 3]);
    expect(idx.allOfText('RUNS distances')).toEqual([2, 3]);
  });
  it('alloftext needs every token, anyoftext one of them', () => {
    expect(idx.allOfText('brown fox')).toEqual([1]);
    expect(idx.anyOfText('brown fox')).toEqual([1, 4]);
    expect(idx.anyOfText('bear jumping')).toEqual([1, 4]);
  });
  it('ignores stop words in queries; an all-stop-word query matches nothing', () => {
    expect(idx.allOfText('the fox and the dog')).toEqual([1]);
    expect(idx.allOfText('the a over')).toEqual([]);
    expect(idx.anyOfText('the a over')).toEqual([]);
    expect(idx.allOfText('')).toEqual([]);
  });
  it('forgets old text on remove (update = remove + add)', () => {
    const i = indexOf(['red apples', 'green pears']);
    i.remove('red apples', 1);
    i.add('blue plums', 1);
    expect(i.allOfText('apple')).toEqual([]);
    expect(i.allOfText('plum')).toEqual([1]);
    expect(i.entryCount).toBe(4);
  });
  it('keeps tokens another value of the same node still has', () => {
    const i = new FulltextIndex();
    i.add('red apple', 7);
    i.add('green apple', 7);
    i.remove('red apple', 7);
    expect(i.allOfText('apple')).toEqual([7]);
    expect(i.allOfText('red')).toEqual([]);
    i.remove('never added', 7);
    expect(i.allOfText('green')).toEqual([7]);
  });
  it('returns snapshots that later mutations do not change', () => {
    const i = indexOf(['alpha', 'alpha']);
    const before = i.allOfText('alpha');
    i.add('alpha', 0);
    i.remove('alpha', 2);
    expect(before).toEqual([1, 2]);
    expect(i.allOfText('alpha')).toEqual([0, 1]);
  });
  it('agrees with a naive token-set scan', () => {
    const word = fc.constantFrom('run', 'running', 'runs', 'the', 'fox', 'Foxes', 'dog', 'of', 'distance', 'distances');
    const text = fc.array(word, { maxLength: 5 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 20 }), text, (values, query) => {
        const i = indexOf(values);
        const q = new Set(analyzeFulltext(query));
        const naive = (all: boolean): number[] =>
          values.flatMap((v, k) => {
            const t = new Set(analyzeFulltext(v));
            const hit = all ? q.size > 0 && [...q].every((x) => t.has(x)) : [...q].some((x) => t.has(x));
            return hit ? [k + 1] : [];
          });
        expect(i.allOfText(query)).toEqual(naive(true));
        expect(i.anyOfText(query)).toEqual(naive(false));
      }),
    );
  });
  it('adds 100k short sentences quickly', () => {
    const words = ['graph', 'database', 'query', 'running', 'node', 'edge', 'index', 'fast', 'search', 'value'];
    const i = new FulltextIndex();
    const t0 = performance.now();
    for (let k = 0; k < 100_000; k++) {
      i.add(`The ${words[k % 10]} ${words[(k * 7) % 10]} of ${words[(k * 3) % 10]} number ${k % 1000}.`, k);
    }
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(5000);
    const q0 = performance.now();
    expect(i.allOfText('database runs').length).toBe(20_000);
    expect(performance.now() - q0).toBeLessThan(200);
  });
});
