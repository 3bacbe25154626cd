// The one token index, under each of its tokenizers and both stores, against a scan of the nodes' token
// sets: values and lists written as the store writes them (the node's previous whole value removed, then
// the new one added), answers compared exactly, and every answer handed out must not change afterwards.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fulltextTokenizer } from '../../../engine/indexes/fulltext-analyzer.js';
import { FulltextIndex } from '../../../engine/indexes/fulltext-index.js';
import { NgramIndex } from '../../../engine/indexes/ngram-index.js';
import { ngramTokenizer } from '../../../engine/indexes/ngram-tokenizer.js';
import { TermIndex } from '../../../engine/indexes/term-index.js';
import { termTokenizer } from '../../../engine/indexes/term-tokenizer.js';
import type { TokenIndex, Tokenizer } from '../../../engine/indexes/token-index.js';
import { TrigramIndex } from '../../../engine/indexes/trigram-index.js';
import { trigramTokenizer } from '../../../engine/indexes/trigram-tokenizer.js';

type Value = string | string[];

const kinds: readonly (readonly [string, () => TokenIndex<unknown>, Tokenizer])[] = [
  ['term', () => new TermIndex() as TokenIndex<unknown>, termTokenizer],
  ['fulltext', () => new FulltextIndex() as TokenIndex<unknown>, fulltextTokenizer],
  ['ngram', () => new NgramIndex() as TokenIndex<unknown>, ngramTokenizer],
  ['trigram', () => new TrigramIndex() as TokenIndex<unknown>, trigramTokenizer],
];

const word = fc.constantFrom('red', 'apple', 'apples', 'car', 'the', 'Red', 'runs', 'running', 'abc', 'bcd');
const text = fc.array(word, { minLength: 0, maxLength: 4 }).map((ws) => ws.join(' '));
const value: fc.Arbitrary<Value> = fc.oneof(text, fc.array(text, { minLength: 1, maxLength: 3 }));
const op = fc.oneof(
  fc.record({ k: fc.constant('set' as const), id: fc.integer({ min: 0, max: 40 }), v: value }),
  fc.record({ k: fc.constant('del' as const), id: fc.integer({ min: 0, max: 40 }) }),
  fc.record({ k: fc.constantFrom('all' as const, 'any' as const), q: text }),
);

function write(index: TokenIndex<unknown>, id: number, v: Value, add: boolean): void {
  if (typeof v === 'string') {
    if (add) index.add(v, id);
    else index.remove(v, id);
  } else if (add) index.addList(v, id);
  else index.removeList(v, id);
}

/** The nodes whose token set (all of its values') holds every / some query token. */
function scan(nodes: ReadonlyMap<number, Value>, tokenizer: Tokenizer, q: string, all: boolean): number[] {
  const want = new Set(tokenizer.query(q));
  const out: number[] = [];
  for (const [id, v] of nodes) {
    const has = new Set((typeof v === 'string' ? [v] : v).flatMap((s) => tokenizer.index(s)));
    const hit = all ? want.size > 0 && [...want].every((t) => has.has(t)) : [...want].some((t) => has.has(t));
    if (hit) out.push(id);
  }
  return out.sort((a, b) => a - b);
}

describe('TokenIndex: every tokenizer and store against a scan', () => {
  for (const [name, make, tokenizer] of kinds) {
    it(`${name}: allOf / anyOf equal the scan, entryCount the pairs, answers are snapshots`, () => {
      fc.assert(
        fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
          const index = make();
          const nodes = new Map<number, Value>();
          const handedOut: [readonly number[], number[]][] = [];
          for (const o of ops) {
            if (o.k === 'set' || o.k === 'del') {
              const prev = nodes.get(o.id);
              if (prev !== undefined) write(index, o.id, prev, false);
              nodes.delete(o.id);
              if (o.k === 'set') {
                write(index, o.id, o.v, true);
                nodes.set(o.id, o.v);
              }
              continue;
            }
            const got = o.k === 'all' ? index.allOf(o.q) : index.anyOf(o.q);
            expect(got).toEqual(scan(nodes, tokenizer, o.q, o.k === 'all'));
            handedOut.push([got, [...got]]);
          }
          for (const [got, copy] of handedOut) expect(got).toEqual(copy);
          let pairs = 0;
          for (const v of nodes.values()) pairs += new Set((typeof v === 'string' ? [v] : v).flatMap((s) => tokenizer.index(s))).size;
          expect(index.entryCount).toBe(pairs);
        }),
        { numRuns: 150 },
      );
    });
  }

  for (const [name, make] of kinds) {
    it(`${name}: an answer over a large posting is a snapshot (later adds and removes do not show)`, () => {
      const index = make();
      for (let id = 0; id < 200; id += 2) index.add('red abc', id);
      const one = index.anyOf('red');
      const two = index.allOf('red abc');
      const before = [...one];
      index.add('red abc', 1001);
      index.remove('red abc', 0);
      index.add('red abc', 51);
      expect(one).toEqual(before);
      expect(two).toEqual(before);
      expect(index.anyOf('red')).toEqual([...before.slice(1, 26), 51, ...before.slice(26), 1001]);
    });
  }

  it('a list value keeps a token shared by two of its values when one of them goes (term)', () => {
    const index = new TermIndex();
    index.addList(['red apple', 'red car'], 1);
    index.add('red', 2);
    index.removeList(['red apple', 'red car'], 1);
    index.addList(['red apple'], 1);
    expect(index.allOf('red')).toEqual([1, 2]);
    expect(index.anyOf('car apple')).toEqual([1]);
    expect(index.entryCount).toBe(3);
  });

  it('rejects a non-string value with the index kind in the message', () => {
    expect(() => new NgramIndex().add(5, 1)).toThrow(new TypeError('ngram index expects string values, got number'));
  });
});
