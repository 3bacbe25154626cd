import { describe, expect, it } from 'vitest';
import { BoolIndex } from '../../../engine/indexes/bool-index.js';
import { createIndex } from '../../../engine/indexes/create-index.js';
import { ExactIndex, compareCodePoints } from '../../../engine/indexes/exact-index.js';
import { HashIndex } from '../../../engine/indexes/hash-index.js';
import { OrderedIndex } from '../../../engine/indexes/ordered-index.js';
import { TermIndex } from '../../../engine/indexes/term-index.js';
import { FulltextIndex } from '../../../engine/indexes/fulltext-index.js';
import { TrigramIndex } from '../../../engine/indexes/trigram-index.js';
import { NgramIndex } from '../../../engine/indexes/ngram-index.js';
import { GeoIndex } from '../../../engine/indexes/geo-index.js';
import { VectorIndex } from '../../../engine/indexes/vector-index.js';

describe('HashIndex', () => {
  it('eq / in / remove / entryCount', () => {
    const h = new HashIndex();
    h.add('a', 3);
    h.add('a', 1);
    h.add('a', 1);
    h.add('b', 2);
    h.add(5, 4);
    expect(h.eq('a')).toEqual([1, 3]);
    expect(h.eq('5')).toEqual([]);
    expect(h.eq(5)).toEqual([4]);
    expect(h.in(['a', 'b', 'zz'])).toEqual([1, 2, 3]);
    expect(h.entryCount).toBe(4);
    h.remove('a', 3);
    h.remove('a', 3);
    h.remove('nope', 3);
    expect(h.eq('a')).toEqual([1]);
    expect(h.entryCount).toBe(3);
    h.add({ type: 'Point', coordinates: [1, 2] }, 9);
    expect(h.entryCount).toBe(3);
  });

  it('handles many ids under one key', () => {
    const h = new HashIndex();
    for (let i = 1000; i >= 1; i--) h.add('x', i);
    for (let i = 1; i <= 1000; i += 3) h.remove('x', i);
    const want = Array.from({ length: 1000 }, (_, k) => k + 1).filter((i) => (i - 1) % 3 !== 0);
    expect(h.eq('x')).toEqual(want);
  });
});

describe('ExactIndex', () => {
  it('orders strings by code point like Go', () => {
    expect(compareCodePoints('a', 'b')).toBe(-1);
    expect(compareCodePoints('ab', 'a')).toBe(1);
    expect(compareCodePoints('a', 'a')).toBe(0);
    expect(compareCodePoints('Z', 'a')).toBe(-1);
    // U+FF21 (BMP, above the surrogate range) sorts before U+1D538 (astral) in UTF-8 byte order.
    expect(compareCodePoints('\uff21', '𝔸')).toBe(-1);
    expect('\uff21' < '𝔸').toBe(false); // UTF-16 order would disagree
  });

  it('eq, range with open/closed bounds, ordered asc/desc with ties by id', () => {
    const x = new ExactIndex();
    const data: [string, number][] = [['b', 4], ['a', 2], ['c', 1], ['b', 3], ['é', 5], ['B', 6]];
    for (const [v, id] of data) x.add(v, id);
    expect(x.eq('b')).toEqual([3, 4]);
    expect(x.range({ lower: { value: 'a', inclusive: false }, upper: { value: 'c', inclusive: true } })).toEqual([1, 3, 4]);
    expect(x.range({ lower: { value: 'b', inclusive: true } })).toEqual([1, 3, 4, 5]);
    expect(x.range({ upper: { value: 'b', inclusive: false } })).toEqual([2, 6]);
    expect(x.range({})).toEqual([1, 2, 3, 4, 5, 6]);
    expect(x.range({ lower: { value: 'c', inclusive: true }, upper: { value: 'a', inclusive: true } })).toEqual([]);
    expect([...x.ordered('asc')]).toEqual([6, 2, 3, 4, 1, 5]);
    expect([...x.ordered('desc')]).toEqual([5, 1, 3, 4, 2, 6]);
    expect(x.in(['a', 'c'])).toEqual([1, 2]);
  });
});

describe('OrderedIndex', () => {
  it('ints and floats', () => {
    const o = OrderedIndex.float();
    [3, -1, 2.5, 3, 0].forEach((v, i) => o.add(v, i + 1));
    expect(o.eq(3)).toEqual([1, 4]);
    expect(o.range({ lower: { value: 0, inclusive: true }, upper: { value: 3, inclusive: false } })).toEqual([3, 5]);
    expect(o.range({ lower: { value: 2.5, inclusive: false } })).toEqual([1, 4]);
    expect([...o.ordered('asc')]).toEqual([2, 5, 3, 1, 4]);
    expect([...o.ordered('desc')]).toEqual([1, 4, 3, 5, 2]);
    expect(o.entryCount).toBe(5);
    o.remove(3, 1);
    expect(o.eq(3)).toEqual([4]);
    expect(o.range({ lower: { value: 'x', inclusive: true } })).toEqual([]);
  });

  it('int64 as bigint, comparable with numbers', () => {
    const o = OrderedIndex.int64();
    o.add(9007199254740993n, 1);
    o.add(9007199254740992n, 2);
    o.add(-5n, 3);
    expect(o.eq(-5)).toEqual([3]);
    expect(o.range({ lower: { value: 9007199254740992n, inclusive: false } })).toEqual([1]);
    expect([...o.ordered('asc')]).toEqual([3, 2, 1]);
  });

  it('DateTime strings with offsets and fractions', () => {
    const o = OrderedIndex.dateTime();
    o.add('2020-01-01T00:00:00Z', 1);
    o.add('2020-01-01T01:00:00+02:00', 2); // 2019-12-31T23:00Z
    o.add('2020-01-01T00:00:00.5Z', 3);
    o.add('2019', 4);
    o.add('not a date', 5);
    expect([...o.ordered('asc')]).toEqual([4, 2, 1, 3]);
    expect(o.eq('2019-12-31T23:00:00Z')).toEqual([2]);
    expect(o.range({ lower: { value: '2020-01-01', inclusive: true } })).toEqual([1, 3]);
    expect(o.entryCount).toBe(4);
  });

  it('many keys across chunks', () => {
    const o = OrderedIndex.int();
    const n = 20_000;
    for (let i = 1; i <= n; i++) o.add((i * 7919) % 5003, i);
    const want = (lo: number, hi: number): number[] =>
      Array.from({ length: n }, (_, k) => k + 1).filter((i) => (i * 7919) % 5003 >= lo && (i * 7919) % 5003 <= hi);
    expect(o.range({ lower: { value: 100, inclusive: true }, upper: { value: 180, inclusive: true } })).toEqual(want(100, 180));
    expect(o.range({ lower: { value: 4000, inclusive: true } })).toEqual(want(4000, 1e9));
    const asc = [...o.ordered('asc')];
    expect(asc.length).toBe(n);
    const key = (i: number): number => (i * 7919) % 5003;
    for (let k = 1; k < asc.length; k++) {
      const a = asc[k - 1] as number;
      const b = asc[k] as number;
      expect(key(a) < key(b) || (key(a) === key(b) && a < b)).toBe(true);
    }
    for (let i = 1; i <= n; i++) o.remove((i * 7919) % 5003, i);
    expect(o.entryCount).toBe(0);
    expect([...o.ordered('desc')]).toEqual([]);
  });
});

describe('BoolIndex', () => {
  it('eq', () => {
    const b = new BoolIndex();
    b.add(true, 2);
    b.add(false, 1);
    b.add(true, 3);
    b.add('true', 4);
    expect(b.eq(true)).toEqual([2, 3]);
    expect(b.eq(false)).toEqual([1]);
    b.remove(true, 2);
    expect(b.eq(true)).toEqual([3]);
    expect(b.entryCount).toBe(2);
  });
});

describe('TermIndex', () => {
  it('allOf / anyOf', () => {
    const t = new TermIndex();
    t.add('The quick brown fox', 1);
    t.add('quick red fox', 2);
    t.add('Lazy dog', 3);
    expect(t.allOf('quick FOX')).toEqual([1, 2]);
    expect(t.allOf('brown fox')).toEqual([1]);
    expect(t.allOf('fox cat')).toEqual([]);
    expect(t.allOf('')).toEqual([]);
    expect(t.anyOf('dog brown')).toEqual([1, 3]);
    expect(t.anyOf('...')).toEqual([]);
    expect(t.entryCount).toBe(4 + 3 + 2);
    t.remove('quick red fox', 2);
    expect(t.allOf('quick')).toEqual([1]);
    expect(t.anyOf('red')).toEqual([]);
  });
});

describe('createIndex', () => {
  it('maps kinds to index classes', () => {
    expect(createIndex('hash')).toBeInstanceOf(HashIndex);
    expect(createIndex('exact')).toBeInstanceOf(ExactIndex);
    expect(createIndex('term')).toBeInstanceOf(TermIndex);
    expect(createIndex('bool')).toBeInstanceOf(BoolIndex);
    expect(createIndex('fulltext')).toBeInstanceOf(FulltextIndex);
    expect(createIndex('trigram')).toBeInstanceOf(TrigramIndex);
    expect(createIndex('ngram')).toBeInstanceOf(NgramIndex);
    expect(createIndex('geo')).toBeInstanceOf(GeoIndex);
    for (const k of ['int', 'int64', 'float', 'year', 'month', 'day', 'hour'] as const) expect(createIndex(k)).toBeInstanceOf(OrderedIndex);
    const dt = createIndex('day') as OrderedIndex<number>;
    dt.add('2021-05-05', 1);
    expect(dt.eq('2021-05-05T00:00:00Z')).toEqual([1]);
    expect(createIndex('hnsw')).toBeInstanceOf(VectorIndex);
  });
});
