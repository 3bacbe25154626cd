// What engine/indexes/flexsearch-postings.ts relies on that flexsearch (0.8.212) does not document,
// pinned against flexsearch itself, so that an upgrade that changes any of it fails here, loudly,
// rather than as wrong search answers. Documented and relied on too (not pinned here): `Index`,
// `tokenize: 'strict'`, `resolution`, `fastupdate`, a custom `encode` function, `remove`, `cleanup`
// (our put writes the map as flexsearch's `add` does: pinned below against `add` itself).

import FlexSearch from 'flexsearch';
import { describe, expect, it } from 'vitest';
import { FulltextIndex } from '../../../engine/indexes/fulltext-index.js';
import { FlexsearchPostings } from '../../../engine/indexes/flexsearch-postings.js';

interface Internals {
  readonly map: Map<string, number[][]>;
  readonly reg: unknown;
  add(id: number, content: unknown): unknown;
  remove(id: number): unknown;
  cleanup(): unknown;
}

type Call = readonly [string, ...unknown[]];

/** A fastupdate register that records how flexsearch uses it (a Map, as flexsearch's default is). */
class RecordingRegister extends Map<number, number[][]> {
  readonly calls: Call[] = [];
  override has(id: number): boolean {
    this.calls.push(['has', id]);
    return super.has(id);
  }
  override get(id: number): number[][] | undefined {
    this.calls.push(['get', id]);
    return super.get(id);
  }
  override set(id: number, refs: number[][]): this {
    this.calls.push(['set', id, refs.length]);
    return super.set(id, refs);
  }
  override delete(id: number): boolean {
    this.calls.push(['delete', id]);
    return super.delete(id);
  }
}

/** An index configured as flexsearch-postings.ts configures it, with `encode` passing content through. */
function flexIndex(register: RecordingRegister, encoded: unknown[] = []): Internals {
  const Index = FlexSearch.Index as unknown as new (options: object, register: RecordingRegister) => Internals;
  const encode = (content: unknown): unknown => {
    encoded.push(content);
    return content;
  };
  return new Index({ tokenize: 'strict', resolution: 1, fastupdate: true, encode }, register);
}

describe('flexsearch contract (undocumented behaviour flexsearch-postings.ts relies on)', () => {
  it('the constructor takes the fastupdate register as its second argument and keeps it as `reg`', () => {
    const reg = new RecordingRegister();
    const index = flexIndex(reg);
    expect(index.reg).toBe(reg);
    expect(index.map).toBeInstanceOf(Map);
    expect(index.map.size).toBe(0);
  });

  it('add hands `encode` the content as given (an array of tokens) and files each distinct token once', () => {
    const encoded: unknown[] = [];
    const index = flexIndex(new RecordingRegister(), encoded);
    const tokens = ['pie', 'appl', 'pie'];
    index.add(7, tokens);
    expect(encoded).toEqual([tokens]);
    expect(encoded[0]).toBe(tokens);
    expect([...index.map.entries()]).toEqual([
      ['pie', [[7]]],
      ['appl', [[7]]],
    ]);
  });

  it('`map` holds one id array per token (resolution 1: slot 0 only); add appends the id at its end', () => {
    const index = flexIndex(new RecordingRegister());
    for (const id of [5, 9, 2]) index.add(id, ['appl', 'pie']);
    index.add(4, ['pie']);
    const apple = index.map.get('appl') as number[][];
    expect(apple).toEqual([[5, 9, 2]]);
    expect(index.map.get('pie')).toEqual([[5, 9, 2, 4]]);
  });

  it('add asks the register `has(id)`, then per token `get(id)`: `set(id, [first array])` when undefined, else pushes the rest into `get(id)`', () => {
    const reg = new RecordingRegister();
    const index = flexIndex(reg);
    index.add(3, ['a', 'b', 'c']);
    expect(reg.calls).toEqual([['has', 3], ['get', 3], ['set', 3, 1], ['get', 3], ['get', 3]]);
    const refs = reg.get(3) as number[][];
    expect(refs).toHaveLength(3);
    expect(refs[0]).toBe(index.map.get('a')?.[0]);
    expect(refs[2]).toBe(index.map.get('c')?.[0]);
  });

  it('remove reads `size` and `get(id)`, takes the id out of exactly those arrays keeping their order, then `delete(id)`', () => {
    const reg = new RecordingRegister();
    const index = flexIndex(reg);
    for (const id of [1, 2, 3]) index.add(id, ['a', 'b']);
    index.add(4, ['b']);
    reg.calls.length = 0;
    reg.set(2, [index.map.get('a')?.[0] as number[]]); // lend only the array of 'a'
    reg.calls.length = 0;
    index.remove(2);
    expect(reg.calls).toEqual([['get', 2], ['delete', 2]]);
    expect(index.map.get('a')).toEqual([[1, 3]]);
    expect(index.map.get('b')).toEqual([[1, 2, 3, 4]]); // not lent: untouched
    index.remove(4); // the last element: popped
    expect(index.map.get('b')).toEqual([[1, 2, 3]]);
  });

  it('remove with no arrays lent (`get(id)` is []) touches no array and still unregisters the id', () => {
    const reg = new RecordingRegister();
    const index = flexIndex(reg);
    for (const id of [1, 2, 3]) index.add(id, ['a']);
    reg.set(2, []);
    reg.calls.length = 0;
    index.remove(2);
    expect(reg.calls).toEqual([['get', 2], ['delete', 2]]);
    expect(index.map.get('a')).toEqual([[1, 2, 3]]);
  });

  it('remove of an id the register does not hold does nothing, and an empty register is not asked', () => {
    const reg = new RecordingRegister();
    const index = flexIndex(reg);
    index.remove(1);
    expect(reg.calls).toEqual([]);
    index.add(1, ['a']);
    reg.calls.length = 0;
    index.remove(9);
    expect(reg.calls).toEqual([['get', 9]]);
    expect(index.map.get('a')).toEqual([[1]]);
  });

  it('cleanup deletes exactly the tokens whose id arrays are empty', () => {
    const index = flexIndex(new RecordingRegister());
    index.add(1, ['a', 'b']);
    index.add(2, ['b']);
    index.remove(1);
    expect(index.map.get('a')).toEqual([[]]);
    index.cleanup();
    expect([...index.map.keys()]).toEqual(['b']);
    expect(index.map.get('b')).toEqual([[2]]);
  });

  it("our put leaves `map` as flexsearch's own add does (token order, each distinct token once, the id at each array's end)", () => {
    const ours = new FlexsearchPostings();
    const theirs = flexIndex(new RecordingRegister());
    let seed = 7;
    const words = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', '12', '0'];
    for (let id = 1; id <= 200; id++) {
      const tokens: string[] = [];
      for (let n = 1 + (id % 30); n > 0; n--) {
        seed = (seed * 1_103_515_245 + 12_345) >>> 0;
        tokens.push(words[seed % words.length] as string); // repeats, and more than distinct()'s 24 at times
      }
      ours.put(id, tokens);
      theirs.add(id, tokens);
    }
    const map = (ours as unknown as { flex: Internals }).flex.map;
    expect([...map.entries()]).toEqual([...theirs.map.entries()]);
    // flexsearch's remove and cleanup work on what put made: a removed node's arrays lose it, empty ones go.
    for (let id = 1; id <= 200; id++) ours.drop(id, undefined);
    expect([...map.values()].every((slots) => slots[0]?.length === 0)).toBe(true);
  });

  it('through FulltextIndex: arrays stay ascending by node id, and our register counts them per node', () => {
    const i = new FulltextIndex();
    for (const id of [5, 9, 2, 7, 1]) i.add('apple pie', id);
    const flex = (i as unknown as { store: { flex: { map: Map<string, number[][]>; reg: { has(id: number): boolean; count(id: number): number } } } }).store.flex;
    expect([...flex.map.keys()].sort()).toEqual(['appl', 'pie']);
    const apple = flex.map.get('appl') as number[][];
    expect(apple).toEqual([[1, 2, 5, 7, 9]]);
    expect(flex.reg.count(7)).toBe(2);
    i.remove('apple pie', 5);
    // A removal marks the id gone (no splice); the next read of the array takes it out.
    expect(apple[0]).toEqual([1, 2, 5, 7, 9]);
    expect(i.anyOfText('apple')).toEqual([1, 2, 7, 9]);
    expect(apple[0]).toEqual([1, 2, 7, 9]);
    expect(flex.reg.has(5)).toBe(false);
    expect(flex.reg.has(7)).toBe(true);
    // First, middle, last: the last is popped, the others go on the read, never another id.
    for (const id of [1, 7, 9]) i.remove('apple pie', id);
    expect(apple[0]).toEqual([1, 2, 7]);
    expect(i.allOfText('apple pie')).toEqual([2]);
    expect(apple[0]).toEqual([2]);
    expect(flex.map.get('pie')).toEqual([[2]]);
    i.remove('apple pie', 2);
    expect(apple[0]).toEqual([]);
    expect(flex.reg.has(2)).toBe(false);
  });
});
