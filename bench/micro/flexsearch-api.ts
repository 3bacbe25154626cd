// flexsearch through its documented API against the way the fulltext index uses it (its `map` and our
// fastupdate register, both undocumented; pinned by test/unit/indexes/flexsearch-contract.test.ts), in
// one process on the same documents: the index build of N documents and alloftext lookups of 1, 2 and
// 3 terms. Every answer must be the full set of matching ids, ascending (ordering and paging come after
// filtering), so the documented paths ask `search` for every match (`limit: N`) and sort by id, either
// for the whole query or per word (then intersected). All answers are compared before anything is timed.
//
// Run: node dist/bench/micro/flexsearch-api.js [--docs 100000] [--rounds 7]

import FlexSearch from 'flexsearch';
import { analyzeFulltext } from '../../engine/indexes/fulltext-analyzer.js';
import { FulltextIndex } from '../../engine/indexes/fulltext-index.js';
import { intersectMany, type SortedIds } from '../../engine/util/sorted-ids.js';
import { body, bodyVocabulary } from './fulltext-bodies.js';
import { timeSync } from './timing.js';

interface Way {
  readonly name: string;
  add(id: number, text: string): void;
  allOf(text: string): SortedIds;
}

function internals(): Way {
  const index = new FulltextIndex();
  return { name: 'as used: FulltextIndex (map + own register)', add: (id, text) => index.add(text, id), allOf: (text) => index.allOfText(text) };
}

function documented(n: number): Way {
  const index = new FlexSearch.Index({ tokenize: 'strict', resolution: 1, fastupdate: true, encode: analyzeFulltext });
  return {
    name: 'documented: add + search({ limit: n }) + sort',
    add: (id, text) => void index.add(id, text),
    allOf: (text) => (index.search(text, { limit: n }) as number[]).slice().sort((a, b) => a - b),
  };
}

/** Documented calls, exact set algebra ours: one `search` per query word for every match, sorted, intersected. */
function documentedPerWord(n: number): Way {
  const index = new FlexSearch.Index({ tokenize: 'strict', resolution: 1, fastupdate: true, encode: analyzeFulltext });
  const ascending = (ids: number[]): number[] => ids.slice().sort((a, b) => a - b);
  return {
    name: 'documented: add + search(word, { limit: n }) per word, sorted, intersected',
    add: (id, text) => void index.add(id, text),
    allOf: (text) => intersectMany(text.split(' ').map((w) => ascending(index.search(w, { limit: n }) as number[]))),
  };
}

/** `count` queries of `terms` distinct vocabulary words each (seeded). */
function queries(terms: number, count: number): string[] {
  const out: string[] = [];
  let s = terms * 7919;
  for (let q = 0; q < count; q++) {
    const words = new Set<string>();
    while (words.size < terms) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      words.add(bodyVocabulary[(s >>> 8) % bodyVocabulary.length] as string);
    }
    out.push([...words].join(' '));
  }
  return out;
}

const argv = process.argv.slice(2);
const arg = (name: string, fallback: number): number => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const n = arg('--docs', 100_000);
const options = { rounds: arg('--rounds', 7), roundMs: 100 };
const docs = Array.from({ length: n }, (_, k) => body(k + 1));
const ways = [internals(), documented(n), documentedPerWord(n)];
const builds: number[] = [];
for (const way of ways) {
  const start = process.hrtime.bigint();
  for (let id = 1; id <= n; id++) way.add(id, docs[id - 1] as string);
  builds.push(Number(process.hrtime.bigint() - start) / 1e6);
}

const sets = [1, 2, 3].map((terms) => queries(terms, 200));
for (const qs of sets) {
  for (const q of qs) {
    const want = ways[0]?.allOf(q).join(',');
    for (const way of ways) if (way.allOf(q).join(',') !== want) throw new Error(`${way.name}: answers differ for "${q}"`);
  }
}

console.log(`${n.toLocaleString('en')} documents of 12 words (400-word vocabulary); alloftext µs are medians of ${options.rounds} rounds`);
console.log('| way | build ms | 1 term µs | 2 terms µs | 3 terms µs |');
console.log('|---|---|---|---|---|');
ways.forEach((way, w) => {
  const cells = sets.map((qs) => timeSync((i) => way.allOf(qs[i % qs.length] as string), options).usPerOp.toFixed(1));
  console.log(`| ${way.name} | ${(builds[w] as number).toFixed(0)} | ${cells.join(' | ')} |`);
});
const hits = sets.map((qs) => (qs.reduce((sum, q) => sum + (ways[0]?.allOf(q).length ?? 0), 0) / qs.length).toFixed(1));
console.log(`matches per query (1, 2, 3 terms): ${hits.join(', ')}; every answer of every way checked equal`);
