// The fulltext index three ways, on the same documents and queries (issue #4 asks for "fulltext with
// flexsearch"):
//   (a) own postings: the token index with the fulltext tokenizer over TokenPostings (the postings of
//       the term, ngram and trigram indexes);
//   (b) FulltextIndex: flexsearch stores the postings and documents, our exact set algebra answers;
//   (c) flexsearch's own search, our analyzer as its `encode` (same tokens), asked for every match
//       (`limit: n`) and sorted by id, because it ranks and caps by relevance.
// Every answer must be the full set of matching ids, ascending, as the engine needs it before
// ordering/paging; 200 queries (alloftext and anyoftext, 1 and 2 words) are checked against a scan.
// Each (index, size) runs in a fresh child process, so heap and RSS per document are its own.
//
// Run: node --expose-gc dist/bench/micro/fulltext-vs-flexsearch.js [--quick]
//      (--child <a|b|c> <docs> runs one cell and prints JSON)

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import FlexSearch from 'flexsearch';
import { analyzeFulltext, fulltextTokenizer } from '../../engine/indexes/fulltext-analyzer.js';
import { FulltextIndex } from '../../engine/indexes/fulltext-index.js';
import { TokenPostings } from '../../engine/indexes/postings/token-postings.js';
import { TokenIndex } from '../../engine/indexes/token-index.js';
import type { SortedIds } from '../../engine/util/sorted-ids.js';
import { body, bodyVocabulary as bodyWords } from './fulltext-bodies.js';
import { timeSync } from './timing.js';
const gc = (globalThis as { gc?: () => void }).gc;

interface Contender {
  readonly name: string;
  add(id: number, text: string): void;
  /** Replaces the text of an indexed node. */
  update(id: number, before: string, after: string): void;
  allOf(text: string): SortedIds;
  /** undefined: no exact equivalent. */
  anyOf?(text: string): SortedIds;
}

/** (a) Own postings: the token index of term/ngram/trigram (TokenPostings) with the fulltext tokenizer. */
function ownPostings(): Contender {
  const index = new TokenIndex(fulltextTokenizer, new TokenPostings());
  return {
    name: '(a) own postings (TokenIndex on TokenPostings)',
    add: (id, text) => index.add(text, id),
    update: (id, before, after) => {
      index.remove(before, id);
      index.add(after, id);
    },
    allOf: (text) => index.allOf(text),
    anyOf: (text) => index.anyOf(text),
  };
}

/** (b) The new FulltextIndex on flexsearch. */
function flexBacked(): Contender {
  const index = new FulltextIndex();
  return {
    name: '(b) FulltextIndex on flexsearch',
    add: (id, text) => index.add(text, id),
    update: (id, before, after) => {
      index.remove(before, id);
      index.add(after, id);
    },
    allOf: (text) => index.allOfText(text),
    anyOf: (text) => index.anyOfText(text),
  };
}

/** (c) flexsearch's own search with our analyzer (or its default encoder): every match, then sorted by id. */
function flexSearch(n: number, ownEncoder = false): Contender {
  const index = new FlexSearch.Index({ tokenize: 'strict', resolution: 1, fastupdate: true, ...(ownEncoder ? {} : { encode: analyzeFulltext }) });
  return {
    name: "(c) flexsearch's search, our analyzer",
    add: (id, text) => void index.add(id, text),
    update: (id, _before, after) => void index.update(id, after),
    allOf: (text) => (index.search(text, { limit: n }) as number[]).slice().sort((a, b) => a - b),
  };
}

const makers: Record<string, (n: number) => Contender> = { a: ownPostings, b: flexBacked, c: (n) => flexSearch(n) };

interface Row {
  readonly contender: string;
  readonly n: number;
  readonly addUsPerDoc: number;
  readonly heapBPerDoc: number;
  readonly rssBPerDoc: number;
  readonly all1Us: number;
  readonly all2Us: number;
  readonly any1Us: number | null;
  readonly any2Us: number | null;
  readonly updateUs: number;
  readonly writeReadUs: number;
  readonly matches1: number;
  readonly matches2: number;
  readonly wrong: number;
  readonly checked: number;
}

function settled(): NodeJS.MemoryUsage {
  for (let i = 0; i < 3; i++) gc?.();
  return process.memoryUsage();
}

const ids = (a: readonly number[]): string => a.join(',');

/** Tokens of every document as small ints (12 per document), for the reference scan. */
function tokenTable(n: number): { of: (token: string) => number; docs: Uint16Array } {
  const codes = new Map<string, number>();
  const of = (t: string): number => {
    let c = codes.get(t);
    if (c === undefined) codes.set(t, (c = codes.size + 1));
    return c;
  };
  const docs = new Uint16Array((n + 1) * 12);
  for (let id = 1; id <= n; id++) {
    let k = 0;
    for (const t of analyzeFulltext(body(id))) docs[id * 12 + k++] = of(t);
  }
  return { of, docs };
}

function scan(table: ReturnType<typeof tokenTable>, n: number, query: string, all: boolean): number[] {
  const q = [...new Set(analyzeFulltext(query))].map(table.of);
  const out: number[] = [];
  if (q.length === 0) return out;
  for (let id = 1; id <= n; id++) {
    let hits = 0;
    for (const c of q) {
      let found = false;
      for (let k = 0; k < 12 && !found; k++) found = table.docs[id * 12 + k] === c;
      if (found) hits++;
    }
    if (all ? hits === q.length : hits > 0) out.push(id);
  }
  return out;
}

function measure(key: string, n: number, quick: boolean): Row {
  const before = settled();
  const c = (makers[key] as (n: number) => Contender)(n);
  const started = process.hrtime.bigint();
  for (let id = 1; id <= n; id++) c.add(id, body(id));
  const addUsPerDoc = Number(process.hrtime.bigint() - started) / 1e3 / n;
  const after = settled();
  const timing = quick ? { rounds: 5, roundMs: 40 } : { rounds: 9, roundMs: 150 };
  const w1 = bodyWords[0] as string;
  const w2 = `${w1} ${bodyWords[5] as string}`;
  const all1Us = timeSync(() => c.allOf(w1), timing).usPerOp;
  const all2Us = timeSync(() => c.allOf(w2), timing).usPerOp;
  const any1Us = c.anyOf === undefined ? null : timeSync(() => c.anyOf?.(w1), timing).usPerOp;
  const any2Us = c.anyOf === undefined ? null : timeSync(() => c.anyOf?.(w2), timing).usPerOp;
  // A node among the first tenth gets a new text and then its old one back: a rewrite of an older node.
  const updateUs = timeSync((i) => {
    const id = 1 + ((i * 7919) % Math.max(1, Math.floor(n / 10)));
    c.update(id, body(id), body(id, 1));
    c.update(id, body(id, 1), body(id));
  }, timing).usPerOp / 2;
  // A write touching the 1-word query's token, then that query: the first read after a write (a copy, one
  // way or the other: (a) copies the shared list on the write, (b) copies flexsearch's array on the read).
  const last = n;
  const withW1 = `${w1} ${body(last)}`;
  let lastText = body(last);
  const writeReadUs = timeSync(() => {
    const next = lastText === withW1 ? body(last) : withW1;
    c.update(last, lastText, next);
    lastText = next;
    return c.allOf(w1);
  }, timing).usPerOp;
  if (lastText !== body(last)) c.update(last, lastText, body(last));
  const table = tokenTable(n);
  let wrong = 0;
  let checked = 0;
  for (let q = 0; q < 50; q++) {
    const a = bodyWords[(q * 7) % bodyWords.length] as string;
    const b = bodyWords[(q * 13 + 5) % bodyWords.length] as string;
    for (const query of [a, `${a} ${b}`]) {
      for (const all of [true, false]) {
        if (!all && c.anyOf === undefined) continue;
        checked++;
        const got = all ? c.allOf(query) : (c.anyOf?.(query) ?? []);
        if (ids(got) !== ids(scan(table, n, query, all))) wrong++;
      }
    }
  }
  return {
    contender: c.name,
    n,
    addUsPerDoc,
    heapBPerDoc: (after.heapUsed - before.heapUsed) / n,
    rssBPerDoc: (after.rss - before.rss) / n,
    all1Us,
    all2Us,
    any1Us,
    any2Us,
    updateUs,
    writeReadUs,
    matches1: c.allOf(w1).length,
    matches2: c.allOf(w2).length,
    wrong,
    checked,
  };
}

/** English text, where the analyzers differ: stemming, stop words, punctuation, case, accents. */
function englishMismatches(): number {
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
  const ours = flexBacked();
  const theirs = flexSearch(100, true);
  docs.forEach((d, i) => {
    ours.add(i + 1, d);
    theirs.add(i + 1, d);
  });
  return queries.filter((q) => ids(ours.allOf(q)) !== ids(theirs.allOf(q))).length;
}

const argv = process.argv.slice(2);
if (argv[0] === '--child') {
  if (gc === undefined) throw new Error('run with --expose-gc');
  console.log(JSON.stringify(measure(argv[1] as string, Number(argv[2]), argv.includes('--quick'))));
} else {
  const quick = argv.includes('--quick');
  const sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
  const self = fileURLToPath(import.meta.url);
  console.log(`English probe (13 queries over 10 sentences): flexsearch's default encoder answers ${englishMismatches()} differently from FulltextIndex (= Dgraph's tokens)\n`);
  const fmt = (x: number | null, digits = 1): string => (x === null ? 'n/a' : x.toFixed(digits));
  console.log('| index | docs | add µs/doc | heap B/doc | RSS B/doc | alloftext 1 word µs | alloftext 2 words µs | anyoftext 1 word µs | anyoftext 2 words µs | rewrite older node µs | write + 1-word read µs | wrong / checked |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const n of sizes) {
    for (const key of ['a', 'b', 'c']) {
      const out = execFileSync(process.execPath, ['--expose-gc', self, '--child', key, String(n), ...(quick ? ['--quick'] : [])], { encoding: 'utf8', maxBuffer: 1 << 20 });
      const r = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Row;
      console.log(
        `| ${r.contender} | ${n.toLocaleString('en')} | ${fmt(r.addUsPerDoc, 2)} | ${fmt(r.heapBPerDoc, 0)} | ${fmt(r.rssBPerDoc, 0)} | ${fmt(r.all1Us)} | ${fmt(r.all2Us)} | ${fmt(r.any1Us)} | ${fmt(r.any2Us)} | ${fmt(r.updateUs)} | ${fmt(r.writeReadUs)} | ${r.wrong} / ${r.checked} |`,
      );
    }
  }
  console.log(`\n(1-word query: ${bodyWords[0] as string}; 2 words: ${bodyWords[0] as string} ${bodyWords[5] as string})`);
}
