// Our FulltextIndex vs flexsearch on the same documents and queries (issue #4 asks for "fulltext with
// flexsearch"; this measures whether it should do the work). The only file that imports flexsearch.
//
// Both get the benchmark's 12-word bodies; the query is a 2-word `alloftext` whose full answer (every
// matching id, ascending, as the engine needs it before ordering/paging) is checked against a scan.
// flexsearch runs twice: with our Dgraph-compatible analyzer as its `encode` (so the tokens are the
// same) and with its own default encoder (to count how its answers differ from Dgraph's semantics).
//
// Run: node --expose-gc dist/bench/micro/fulltext-vs-flexsearch.js [--quick]

import FlexSearch from 'flexsearch';
import { analyzeFulltext } from '../../engine/indexes/fulltext-analyzer.js';
import { FulltextIndex } from '../../engine/indexes/fulltext-index.js';
import { vocabularies } from '../data/dataset.js';
import { timeSync } from './timing.js';

const { bodyWords } = vocabularies(7);
const gc = (globalThis as { gc?: () => void }).gc;

function body(i: number): string {
  const out: string[] = [];
  let s = i * 2 + 2;
  for (let k = 0; k < 12; k++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out.push(bodyWords[(s >>> 8) % bodyWords.length] as string);
  }
  return out.join(' ');
}

function heapMB(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

interface Contender {
  readonly name: string;
  add(id: number, text: string): void;
  /** Every matching id, ascending. */
  allOf(text: string): readonly number[];
}

function ours(): Contender {
  const index = new FulltextIndex();
  return { name: 'FulltextIndex (ours)', add: (id, text) => index.add(text, id), allOf: (text) => index.allOfText(text) };
}

function flex(name: string, options: ConstructorParameters<typeof FlexSearch.Index>[0], limit: number): Contender {
  const index = new FlexSearch.Index(options);
  return {
    name,
    add: (id, text) => void index.add(id, text),
    // Results come relevance-ordered and capped: ask for all of them, then sort by id.
    allOf: (text) => (index.search(text, { limit }) as number[]).slice().sort((a, b) => a - b),
  };
}

interface Row {
  readonly contender: string;
  readonly n: number;
  readonly buildUsPerDoc: number;
  readonly heapMB: number;
  readonly queryUs: number;
  readonly matches: number;
  readonly expected: number;
  readonly wrongQueries: number;
}

function measure(make: () => Contender, n: number, quick: boolean): Row {
  const before = heapMB();
  const c = make();
  const started = process.hrtime.bigint();
  for (let id = 1; id <= n; id++) c.add(id, body(id));
  const buildUsPerDoc = Number(process.hrtime.bigint() - started) / 1e3 / n;
  const heap = heapMB() - before;
  // Correctness over 50 two-word queries against a token-set scan (Dgraph's alloftext semantics).
  const tokens: Set<string>[] = [new Set()];
  for (let id = 1; id <= n; id++) tokens.push(new Set(analyzeFulltext(body(id))));
  let wrongQueries = 0;
  let expected = 0;
  let matches = 0;
  for (let q = 0; q < 50; q++) {
    const a = bodyWords[(q * 7) % bodyWords.length] as string;
    const b = bodyWords[(q * 13 + 5) % bodyWords.length] as string;
    const want: number[] = [];
    for (let id = 1; id <= n; id++) if (tokens[id]?.has(a) === true && tokens[id]?.has(b) === true) want.push(id);
    const got = c.allOf(`${a} ${b}`);
    if (JSON.stringify(got) !== JSON.stringify(want)) wrongQueries++;
    if (q === 0) {
      expected = want.length;
      matches = got.length;
    }
  }
  const query = `${bodyWords[0] as string} ${bodyWords[5] as string}`;
  const timing = timeSync(() => c.allOf(query), quick ? { rounds: 5, roundMs: 40 } : { rounds: 9, roundMs: 150 });
  return { contender: c.name, n, buildUsPerDoc, heapMB: heap, queryUs: timing.usPerOp, matches, expected, wrongQueries };
}

/** English text, where the analyzers differ: stemming, stop words, punctuation, case, accents. */
function englishMismatches(make: () => Contender): number {
  const docs = [
    'The runners were running in the park',
    'She runs every morning',
    'A quick brown fox jumps over the lazy dog',
    "Don't stop believing",
    'Café au lait, s’il vous plaît',
    'Connected connections connecting',
    'The generous generation generates energy',
    'To be or not to be',
    'Universities and the universe',
    'He is happily happier than the happiest',
  ];
  const queries = ['run', 'running runners', 'fox dog', 'jumping', 'stop believe', 'cafe', 'café', 'connect', 'generous', 'to be', 'universe', 'happy', 'the'];
  const ourIndex = ours();
  const other = make();
  docs.forEach((d, i) => {
    ourIndex.add(i + 1, d);
    other.add(i + 1, d);
  });
  return queries.filter((q) => JSON.stringify(ourIndex.allOf(q)) !== JSON.stringify(other.allOf(q))).length;
}

const quick = process.argv.includes('--quick');
const sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
console.log(`English probe (13 queries over 10 sentences), answers differing from ours (= Dgraph's tokens):`);
console.log(`  flexsearch with our analyzer: ${englishMismatches(() => flex('', { tokenize: 'strict', encode: analyzeFulltext }, 100))}`);
console.log(`  flexsearch default encoder: ${englishMismatches(() => flex('', { tokenize: 'strict' }, 100))}\n`);
console.log('| index | docs | add µs/doc | heap MB | 2-word alloftext µs (full answer) | wrong answers / 50 queries |');
console.log('|---|---|---|---|---|---|');
for (const n of sizes) {
  const makers: (() => Contender)[] = [
    ours,
    () => flex('flexsearch, our analyzer as `encode`', { tokenize: 'strict', encode: analyzeFulltext }, n),
    () => flex('flexsearch, its default encoder', { tokenize: 'strict' }, n),
  ];
  for (const make of makers) {
    const r = measure(make, n, quick);
    console.log(
      `| ${r.contender} | ${n.toLocaleString('en')} | ${r.buildUsPerDoc.toFixed(2)} | ${r.heapMB.toFixed(0)} | ${r.queryUs.toFixed(1)} | ${r.wrongQueries} |`,
    );
  }
}
