import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { andBitsets, bitsetOf, probeBitsets } from '../../../../engine/indexes/postings/bitsets.js';
import { intersectPostings } from '../../../../engine/indexes/postings/intersect-lists.js';
import { PostingList } from '../../../../engine/indexes/postings/posting-list.js';
import type { Posting } from '../../../../engine/indexes/postings/posting.js';
import { FulltextIndex } from '../../../../engine/indexes/fulltext-index.js';
import { TermIndex } from '../../../../engine/indexes/term-index.js';
import { sortedKeys } from '../../../../engine/util/sorted-keys.js';

/** Ascending ids in [1, span] chosen by a seeded rule (dense enough for bitsets). */
function idsOf(seed: number, span: number, every: number): number[] {
  const out: number[] = [];
  for (let id = 1; id <= span; id++) if ((Math.imul(id, 2654435761 + seed) >>> 7) % every === 0) out.push(id);
  return out;
}

const naive = (sets: readonly (readonly number[])[]): number[] =>
  (sets[0] ?? []).filter((id) => sets.every((s) => s.includes(id)));

describe('bitset intersections', () => {
  it('bitsetOf skips short and sparse lists', () => {
    expect(bitsetOf([1, 2, 3])).toBeUndefined();
    expect(bitsetOf(Array.from({ length: 2000 }, (_, i) => i * 1000))).toBeUndefined();
    expect(bitsetOf(Array.from({ length: 2000 }, (_, i) => i + 1))).toBeInstanceOf(Uint32Array);
  });

  it('probe and AND agree with a naive intersection', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 2, max: 6 }), fc.integer({ min: 2, max: 3 }), (seed, every, count) => {
        const sets = Array.from({ length: count }, (_, k) => idsOf(seed + k * 17, 20_000, every + k));
        const bits = sets.map((s) => bitsetOf(s) as Uint32Array);
        const want = naive(sets);
        expect(andBitsets(bits)).toEqual(want);
        expect(probeBitsets(sets[0] as number[], bits.slice(1))).toEqual(want);
        expect(intersectPostings(sets.map((s) => new PostingList(s.slice()) as Posting))).toEqual(want);
      }),
      { numRuns: 30 },
    );
  });

  it('a cached bitset is dropped by the next write', () => {
    const list = new PostingList(idsOf(3, 10_000, 2));
    const other = new PostingList(idsOf(5, 10_000, 2));
    const before = intersectPostings([list, other]);
    list.add(10_001);
    other.add(10_001);
    list.remove(before[0] as number);
    expect(intersectPostings([list, other])).toEqual(naive([list.toArray(), other.toArray()]));
  });

  it('term and fulltext indexes answer large intersections like a scan, across writes', () => {
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
    const text = (id: number): string => words.filter((_, k) => (Math.imul(id, 2654435761 + k) >>> 9) % 2 === 0).join(' ');
    const term = new TermIndex();
    const full = new FulltextIndex();
    for (let id = 1; id <= 6000; id++) {
      term.add(text(id), id);
      full.add(text(id), id);
    }
    const scan = (a: string, b: string, limit: number): number[] => {
      const out: number[] = [];
      for (let id = 1; id <= limit; id++) {
        const w = text(id).split(' ');
        if (w.includes(a) && w.includes(b)) out.push(id);
      }
      return out;
    };
    expect(term.allOf('alpha bravo')).toEqual(scan('alpha', 'bravo', 6000));
    expect(full.allOfText('charlie delta')).toEqual(scan('charlie', 'delta', 6000));
    for (let id = 6001; id <= 6500; id++) {
      term.add(text(id), id);
      full.add(text(id), id);
    }
    expect(term.allOf('alpha bravo')).toEqual(scan('alpha', 'bravo', 6500));
    expect(full.allOfText('charlie delta')).toEqual(scan('charlie', 'delta', 6500));
  });
});

describe('sortedKeys', () => {
  it('equals Object.keys().sort() for repeated and differing key lists', () => {
    const objects = [{ b: 1, a: 2, c: 3 }, { b: 4, a: 5, c: 6 }, { z: 1, y: 2 }, { a: 1 }, { c: 1, b: 2, a: 3 }, { b: 1, a: 2, c: 3 }];
    for (const o of objects) expect(sortedKeys(o)).toEqual(Object.keys(o).sort());
  });
});
