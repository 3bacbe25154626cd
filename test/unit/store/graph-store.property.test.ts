// Differential test: random operations (with transactions) on the store and its indexes versus a naive
// model of Maps and full scans.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GraphStore, type Transaction } from '../../../engine/store/graph-store.js';
import type { ExactIndex } from '../../../engine/indexes/exact-index.js';
import type { HashIndex } from '../../../engine/indexes/hash-index.js';
import type { OrderedIndex } from '../../../engine/indexes/ordered-index.js';
import type { TermIndex } from '../../../engine/indexes/term-index.js';
import { termTokens } from '../../../engine/indexes/term-tokenizer.js';
import { compareCodePoints } from '../../../engine/indexes/exact-index.js';

/** The store's error for a write that names a node that does not exist. */
const missingNode = (id: number): Error => new Error(`node 0x${id.toString(16)} does not exist`);

type Val = string | number | readonly string[];
interface Model {
  next: number;
  alive: Set<number>;
  types: Map<number, string[]>;
  scalars: Map<string, Map<number, Val>>;
  edges: Map<string, Set<string>>;
}

const PREDS = ['name', 'n', 'tags'] as const;
const EDGES = ['e1', 'e2'] as const;
const WORDS = ['ab', 'Ab', 'b', 'zz', 'é', '𝔸x', 'ab cd', 'cd-ab', ''];
const id = fc.integer({ min: 0, max: 8 });
const valFor = (p: (typeof PREDS)[number]): fc.Arbitrary<Val> =>
  p === 'n' ? fc.integer({ min: -3, max: 3 }) : p === 'name' ? fc.constantFrom(...WORDS) : fc.array(fc.constantFrom(...WORDS), { maxLength: 3 });

const opArb = fc.oneof(
  { arbitrary: fc.constant({ k: 'create' as const }), weight: 4 },
  { arbitrary: fc.record({ k: fc.constant('delete' as const), id }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('type' as const), id, t: fc.constantFrom('A', 'B') }), weight: 2 },
  {
    arbitrary: fc
      .constantFrom(...PREDS)
      .chain((p) => fc.record({ k: fc.constant('set' as const), p: fc.constant(p), id, v: valFor(p) })),
    weight: 5,
  },
  { arbitrary: fc.record({ k: fc.constant('unset' as const), p: fc.constantFrom(...PREDS), id }), weight: 1 },
  { arbitrary: fc.record({ k: fc.constant('link' as const), p: fc.constantFrom(...EDGES), a: id, b: id }), weight: 4 },
  { arbitrary: fc.record({ k: fc.constant('unlink' as const), p: fc.constantFrom(...EDGES), a: id, b: id }), weight: 2 },
  { arbitrary: fc.constant({ k: 'begin' as const }), weight: 2 },
  { arbitrary: fc.constant({ k: 'commit' as const }), weight: 1 },
  { arbitrary: fc.constant({ k: 'rollback' as const }), weight: 2 },
  { arbitrary: fc.constant({ k: 'check' as const }), weight: 1 },
);

function clone(m: Model): Model {
  return {
    next: m.next,
    alive: new Set(m.alive),
    types: new Map([...m.types].map(([k, v]) => [k, [...v]])),
    scalars: new Map([...m.scalars].map(([k, v]) => [k, new Map(v)])),
    edges: new Map([...m.edges].map(([k, v]) => [k, new Set(v)])),
  };
}

const asc = (a: Iterable<number>): number[] => [...new Set(a)].sort((x, y) => x - y);
const elems = (v: Val): readonly (string | number)[] => (Array.isArray(v) ? v : [v as string | number]);

function check(s: GraphStore, m: Model): void {
  expect(s.maxNodeId).toBe(m.next - 1);
  for (let i = 0; i <= m.next; i++) {
    expect(s.nodeExists(i)).toBe(m.alive.has(i));
    expect(s.typesOf(i)).toEqual(m.types.get(i) ?? []);
  }
  for (const t of ['A', 'B']) expect(s.nodesOfType(t)).toEqual(asc([...m.types].filter(([, ts]) => ts.includes(t)).map(([i]) => i)));
  for (const p of PREDS) {
    const col = s.scalar(p);
    const mv = m.scalars.get(p) ?? new Map<number, Val>();
    expect(col.ids()).toEqual(asc(mv.keys()));
    expect(col.size).toBe(mv.size);
    for (let i = 0; i <= m.next; i++) expect(col.get(i)).toEqual(mv.get(i));
  }
  const names = m.scalars.get('name') ?? new Map<number, Val>();
  const tags = m.scalars.get('tags') ?? new Map<number, Val>();
  const ns = m.scalars.get('n') ?? new Map<number, Val>();
  const hash = s.scalar('name').index('hash') as HashIndex;
  const exact = s.scalar('tags').index('exact') as ExactIndex;
  const term = s.scalar('tags').index('term') as TermIndex;
  const ord = s.scalar('n').index('int') as OrderedIndex;
  const where = (mv: Map<number, Val>, f: (x: string | number) => boolean): number[] =>
    asc([...mv].filter(([, v]) => elems(v).some(f)).map(([i]) => i));
  for (const w of WORDS) {
    expect(hash.eq(w)).toEqual(where(names, (x) => x === w));
    expect(exact.eq(w)).toEqual(where(tags, (x) => x === w));
    expect(exact.range({ lower: { value: w, inclusive: false } })).toEqual(where(tags, (x) => compareCodePoints(x as string, w) > 0));
    const toks = termTokens(w);
    const tokensOf = (x: string | number): string[] => termTokens(x as string);
    expect(term.allOf(w)).toEqual(
      toks.length === 0 ? [] : asc([...tags].filter(([, v]) => toks.every((t) => elems(v).some((x) => tokensOf(x).includes(t)))).map(([i]) => i)),
    );
    expect(term.anyOf(w)).toEqual(where(tags, (x) => tokensOf(x).some((t) => toks.includes(t))));
  }
  expect(hash.in(['ab', 'b'])).toEqual(where(names, (x) => x === 'ab' || x === 'b'));
  for (let lo = -4; lo <= 4; lo++) {
    expect(ord.eq(lo)).toEqual(where(ns, (x) => x === lo));
    expect(ord.range({ lower: { value: lo, inclusive: true }, upper: { value: lo + 2, inclusive: false } })).toEqual(
      where(ns, (x) => (x as number) >= lo && (x as number) < lo + 2),
    );
  }
  const byValue = [...ns].sort(([ia, a], [ib, b]) => (a as number) - (b as number) || ia - ib).map(([i]) => i);
  expect([...ord.ordered('asc')]).toEqual(byValue);
  const byValueDesc = [...ns].sort(([ia, a], [ib, b]) => (b as number) - (a as number) || ia - ib).map(([i]) => i);
  expect([...ord.ordered('desc')]).toEqual(byValueDesc);
  let entries = names.size + ns.size;
  for (const v of tags.values()) entries += new Set(elems(v)).size;
  let termEntries = 0;
  for (const v of tags.values()) termEntries += new Set(elems(v).flatMap((x) => termTokens(x as string))).size;
  expect(s.stats().indexEntries).toBe(entries + termEntries);
  for (const p of EDGES) {
    const e = s.edges(p);
    const pairs = [...(m.edges.get(p) ?? new Set<string>())].map((k) => k.split(',').map(Number) as [number, number]);
    expect(e.size).toBe(pairs.length);
    expect(e.sources()).toEqual(asc(pairs.map(([a]) => a)));
    for (let i = 0; i <= m.next; i++) {
      expect(e.out(i)).toEqual(asc(pairs.filter(([a]) => a === i).map(([, b]) => b)));
      expect(e.in(i)).toEqual(asc(pairs.filter(([, b]) => b === i).map(([a]) => a)));
    }
  }
}

describe('GraphStore vs naive model', () => {
  it('agrees after random operations, transactions and rollbacks', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 10, maxLength: 150 }), (ops) => {
        const s = new GraphStore();
        s.scalar('name').ensureIndex('hash');
        s.scalar('tags').ensureIndex('exact');
        s.scalar('tags').ensureIndex('term');
        s.scalar('n').ensureIndex('int');
        let m: Model = { next: 1, alive: new Set(), types: new Map(), scalars: new Map(), edges: new Map() };
        let tx: Transaction | undefined;
        let saved: Model | undefined;
        for (const op of ops) {
          switch (op.k) {
            case 'create':
              expect(s.createNode()).toBe(m.next);
              m.alive.add(m.next++);
              break;
            case 'delete':
              s.deleteNode(op.id);
              if (m.alive.delete(op.id)) {
                m.types.delete(op.id);
                for (const mv of m.scalars.values()) mv.delete(op.id);
                for (const es of m.edges.values()) for (const k of [...es]) if (k.split(',').map(Number).includes(op.id)) es.delete(k);
              }
              break;
            case 'type':
              if (!m.alive.has(op.id)) expect(() => s.addType(op.id, op.t)).toThrow(missingNode(op.id));
              else {
                s.addType(op.id, op.t);
                const ts = m.types.get(op.id) ?? [];
                if (!ts.includes(op.t)) m.types.set(op.id, [...ts, op.t]);
              }
              break;
            case 'set': {
              const empty = Array.isArray(op.v) && op.v.length === 0;
              if (!m.alive.has(op.id) && !empty) expect(() => s.scalar(op.p).set(op.id, op.v)).toThrow(missingNode(op.id));
              else {
                s.scalar(op.p).set(op.id, op.v);
                const mv = m.scalars.get(op.p) ?? new Map<number, Val>();
                if (empty) mv.delete(op.id);
                else mv.set(op.id, op.v);
                m.scalars.set(op.p, mv);
              }
              break;
            }
            case 'unset':
              s.scalar(op.p).delete(op.id);
              m.scalars.get(op.p)?.delete(op.id);
              break;
            case 'link': {
              const es = m.edges.get(op.p) ?? new Set<string>();
              m.edges.set(op.p, es);
              const key = `${op.a},${op.b}`;
              if (es.has(key)) expect(s.edges(op.p).add(op.a, op.b)).toBe(false);
              else if (!m.alive.has(op.a) || !m.alive.has(op.b)) expect(() => s.edges(op.p).add(op.a, op.b)).toThrow(missingNode(m.alive.has(op.a) ? op.b : op.a));
              else {
                expect(s.edges(op.p).add(op.a, op.b)).toBe(true);
                es.add(key);
              }
              break;
            }
            case 'unlink':
              expect(s.edges(op.p).remove(op.a, op.b)).toBe(m.edges.get(op.p)?.delete(`${op.a},${op.b}`) ?? false);
              break;
            case 'begin':
              if (tx === undefined) {
                tx = s.begin();
                saved = clone(m);
              } else expect(() => s.begin()).toThrow(new Error('a transaction is already open'));
              break;
            case 'commit':
              tx?.commit();
              tx = undefined;
              break;
            case 'rollback':
              if (tx !== undefined && saved !== undefined) {
                tx.rollback();
                m = saved;
                check(s, m);
              }
              tx = undefined;
              break;
            case 'check':
              check(s, m);
              break;
          }
        }
        check(s, m);
      }),
      { numRuns: 400 },
    );
  });
});
