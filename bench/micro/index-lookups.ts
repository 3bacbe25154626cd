// Engine micro-benchmarks below the facade (issue #7): planning and each index lookup, at several
// sizes, so the table shows how each cost grows. Indexes are built directly (createIndex) from
// generated values; each case checks its answer once against a linear scan, then is timed.
//
// Run: node dist/bench/micro/index-lookups.js [--quick] (sizes 10k, 100k, 1M; --quick: 10k, 100k)

import { createIndex } from '../../engine/indexes/create-index.js';
import type { IndexKindName } from '../../engine/indexes/index-kind.js';
import type { HashIndex } from '../../engine/indexes/hash-index.js';
import type { ExactIndex } from '../../engine/indexes/exact-index.js';
import type { OrderedIndex } from '../../engine/indexes/ordered-index.js';
import type { BoolIndex } from '../../engine/indexes/bool-index.js';
import type { TermIndex } from '../../engine/indexes/term-index.js';
import type { FulltextIndex } from '../../engine/indexes/fulltext-index.js';
import type { TrigramIndex } from '../../engine/indexes/trigram-index.js';
import type { NgramIndex } from '../../engine/indexes/ngram-index.js';
import type { GeoIndex } from '../../engine/indexes/geo-index.js';
import type { ScalarValue, ValueIndex } from '../../engine/indexes/value-index.js';
import { compileSchema } from '../../engine/schema/compile-schema.js';
import type { Estimates } from '../../engine/plan/estimates.js';
import { planQuery } from '../../engine/plan/query-plan.js';
import type { SortedIds } from '../../engine/util/sorted-ids.js';
import { vocabularies } from '../data/dataset.js';
import { serviceSdl } from '../schema.js';
import { timeSync, type TimingOptions } from './timing.js';

export interface LookupCase {
  readonly name: string;
  /** Values by id (index = id; id 0 unused). */
  readonly kind: IndexKindName;
  value(i: number): ScalarValue;
  /** The lookup; `i` varies the argument so no single answer is cached by the CPU. */
  lookup(index: ValueIndex, i: number, n: number): SortedIds;
  /** The expected answer by a linear scan (checked once, for i = 0). */
  expected(values: readonly ScalarValue[], n: number): number[];
}

const { titleWords, bodyWords } = vocabularies(7);
const words = (vocab: readonly string[], count: number, seed: number): string => {
  const out: string[] = [];
  let s = seed;
  for (let k = 0; k < count; k++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out.push(vocab[(s >>> 8) % vocab.length] as string);
  }
  return out.join(' ');
};
const pad = (i: number): string => String(i).padStart(8, '0');
const title = (i: number): string => words(titleWords, 6, i * 2 + 1);
const body = (i: number): string => words(bodyWords, 12, i * 2 + 2);
const scan = (values: readonly ScalarValue[], match: (v: ScalarValue) => boolean): number[] => {
  const out: number[] = [];
  values.forEach((v, id) => {
    if (id > 0 && match(v)) out.push(id);
  });
  return out;
};
const wordsOf = (v: ScalarValue): Set<string> => new Set(String(v).split(' '));
const term = titleWords[3] as string;
const [textA, textB] = [bodyWords[5] as string, bodyWords[9] as string];
const geoPoint = (i: number): ScalarValue => ({ type: 'Point', coordinates: [((i * 7919) % 36000) / 100 - 180, ((i * 104729) % 17000) / 100 - 85] });

export const lookupCases: readonly LookupCase[] = [
  {
    name: 'hash eq (1 of n)',
    kind: 'hash',
    value: (i) => `v-${i}`,
    lookup: (x, i, n) => (x as HashIndex).eq(`v-${1 + (i % n)}`),
    expected: () => [1],
  },
  {
    name: 'exact range (10 of n)',
    kind: 'exact',
    value: (i) => `k${pad(i)}`,
    lookup: (x, i, n) => {
      const lo = 1 + ((i * 7) % (n - 10));
      return (x as ExactIndex).range({ lower: { value: `k${pad(lo)}`, inclusive: true }, upper: { value: `k${pad(lo + 10)}`, inclusive: false } });
    },
    expected: () => [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  },
  {
    name: 'int range between (10 of n)',
    kind: 'int',
    value: (i) => i * 3,
    lookup: (x, i, n) => {
      const lo = 1 + ((i * 7) % (n - 10));
      return (x as OrderedIndex).range({ lower: { value: lo * 3, inclusive: true }, upper: { value: (lo + 9) * 3, inclusive: true } });
    },
    expected: () => [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  },
  {
    name: 'bool eq (n/2 ids, no copy)',
    kind: 'bool',
    value: (i) => i % 2 === 0,
    lookup: (x, i) => (x as BoolIndex).eq(i % 2 === 0),
    expected: (values) => scan(values, (v) => v === true),
  },
  {
    name: 'term allofterms, 1 term (~4% of n)',
    kind: 'term',
    value: title,
    lookup: (x) => (x as TermIndex).allOf(term),
    expected: (values) => scan(values, (v) => wordsOf(v).has(term)),
  },
  {
    name: 'term allofterms, 2 terms',
    kind: 'term',
    value: title,
    lookup: (x) => (x as TermIndex).allOf(`${term} ${titleWords[7] as string}`),
    expected: (values) => scan(values, (v) => wordsOf(v).has(term) && wordsOf(v).has(titleWords[7] as string)),
  },
  {
    name: 'fulltext alloftext, 2 words (~0.1% of n)',
    kind: 'fulltext',
    value: body,
    lookup: (x) => (x as FulltextIndex).allOfText(`${textA} ${textB}`),
    expected: (values) => scan(values, (v) => wordsOf(v).has(textA) && wordsOf(v).has(textB)),
  },
  {
    name: 'trigram regexp /^k0000123/',
    kind: 'trigram',
    value: (i) => `k${pad(i)}`,
    lookup: (x) => (x as TrigramIndex).regexp('^k0000123', ''),
    expected: (values) => scan(values, (v) => String(v).startsWith('k0000123')),
  },
  {
    name: 'ngram, 2-word phrase',
    kind: 'ngram',
    value: body,
    lookup: (x) => (x as NgramIndex).ngram(`${textA} ${textB}`),
    expected: (values) => scan(values, (v) => ` ${String(v)} `.includes(` ${textA} ${textB} `)),
  },
  {
    name: 'geo near (100 km)',
    kind: 'geo',
    value: geoPoint,
    lookup: (x) => (x as GeoIndex).near({ type: 'Point', coordinates: [10, 45] }, 100_000),
    expected: (values) =>
      scan(values, (v) => {
        const [lon, lat] = (v as unknown as { coordinates: [number, number] }).coordinates;
        return haversine(lon, lat, 10, 45) <= 100_000;
      }),
  },
];

function haversine(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const r = (d: number): number => (d * Math.PI) / 180;
  const a = Math.sin(r(lat2 - lat1) / 2) ** 2 + Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin(r(lon2 - lon1) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

export interface LookupResult {
  readonly name: string;
  readonly n: number;
  readonly usPerOp: number;
  readonly results: number;
}

/** Builds the case's index over n values and times its lookup. */
export function timeLookup(c: LookupCase, n: number, options: TimingOptions): LookupResult {
  const index = createIndex(c.kind);
  const values: ScalarValue[] = [0];
  for (let id = 1; id <= n; id++) {
    const v = c.value(id);
    values.push(v);
    index.add(v, id);
  }
  const got = [...c.lookup(index, 0, n)];
  const want = c.expected(values, n);
  // A near query's boundary may differ from a plain haversine by rounding: compare within 0.5%.
  const close = c.kind === 'geo' ? Math.abs(got.length - want.length) <= Math.max(1, want.length / 200) : JSON.stringify(got) === JSON.stringify(want);
  if (!close) throw new Error(`${c.name} at ${n}: ${got.length} ids, expected ${want.length}`);
  const timing = timeSync((i) => c.lookup(index, i, n), options);
  return { name: c.name, n, usPerOp: timing.usPerOp, results: got.length };
}

/** Planning a filtered, ordered, paged root query (no data read: estimates only, scaled to n). */
export function timePlanning(n: number, options: TimingOptions): LookupResult {
  const compiled = compileSchema(serviceSdl);
  if (!compiled.ok) throw new Error('bench schema rejected');
  const post = compiled.compiled.model.types.get('Post');
  if (post === undefined) throw new Error('no Post type');
  const estimates: Estimates = {
    typeCount: () => n,
    indexSize: (_predicate, kind) => (kind === 'term' ? { entries: n * 6, keys: 150 } : kind === 'fulltext' ? { entries: n * 12, keys: 400 } : { entries: n, keys: n }),
  };
  const args = {
    filter: { title: { allofterms: 'gabodo' }, and: [{ body: { alloftext: 'kala mipo' } }, { score: { gt: 10 } }] },
    order: { desc: 'score' },
    first: 10,
  };
  const plan = planQuery('queryPost', post, args, estimates);
  if (plan.filter.op !== 'and') throw new Error(`unexpected plan ${JSON.stringify(plan)}`);
  const timing = timeSync(() => planQuery('queryPost', post, args, estimates), options);
  return { name: 'plan: 3-condition filter + order + first', n, usPerOp: timing.usPerOp, results: 0 };
}

const isMain = process.argv[1]?.endsWith('index-lookups.js') === true;
if (isMain) {
  const quick = process.argv.includes('--quick');
  const sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
  const options = quick ? { rounds: 5, roundMs: 40 } : { rounds: 9, roundMs: 150 };
  const rows = new Map<string, Map<number, LookupResult>>();
  const add = (r: LookupResult): void => {
    let row = rows.get(r.name);
    if (row === undefined) rows.set(r.name, (row = new Map()));
    row.set(r.n, r);
  };
  for (const n of sizes) {
    add(timePlanning(n, options));
    for (const c of lookupCases) add(timeLookup(c, n, options));
    console.error(`index lookups: ${n} done`);
  }
  const first = sizes[0] as number;
  const last = sizes[sizes.length - 1] as number;
  console.log(`| lookup (µs/op; ids returned at ${last.toLocaleString('en')}) | ${sizes.map((n) => n.toLocaleString('en')).join(' | ')} | growth |`);
  console.log(`|---|${sizes.map(() => '---|').join('')}---|`);
  for (const [name, row] of rows) {
    const cells = sizes.map((n) => row.get(n)?.usPerOp.toFixed(2) ?? '–');
    const growth = (row.get(last)?.usPerOp ?? NaN) / (row.get(first)?.usPerOp ?? NaN);
    console.log(`| ${name} (${row.get(last)?.results ?? 0}) | ${cells.join(' | ')} | ${growth.toFixed(2)}x |`);
  }
}
