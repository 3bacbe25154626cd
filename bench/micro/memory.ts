// Resident memory and load rate through the engine (issue #4): posts with 4 scalar fields each are
// loaded through `add` mutations (batches of 1,000, authors referenced by @id), then `global.gc()`
// and process.memoryUsage().rss. Each variant runs in its own child process (a clean heap); the
// differences between variants give bytes per node, per edge and per index entry.
//
// Run: node --expose-gc dist/bench/micro/memory.js [posts] (default 1,000,000; authors = posts / 10)
//      node --expose-gc dist/bench/micro/memory.js 1000000 --variant issue4   (one variant, prints JSON)

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createPrng } from '../data/prng.js';
import { vocabularies } from '../data/dataset.js';
import { termTokens } from '../../engine/indexes/term-tokenizer.js';
import { analyzeFulltext } from '../../engine/indexes/fulltext-analyzer.js';
import { openEngine, run } from './engine-fixture.js';

type VariantName = 'nodes' | 'edges' | 'issue4' | 'bench';

interface Variant {
  readonly what: string;
  readonly sdl: string;
  /** Edges stored per post. */
  readonly edgesPerPost: number;
}

const author = (edges: boolean, nameIndex: boolean): string => `type Author {
  id: ID!
  handle: String! @id
  name: String!${nameIndex ? ' @search(by: [hash])' : ''}${edges ? '\n  posts: [Post] @hasInverse(field: author)' : ''}
}`;

const variants: Readonly<Record<VariantName, Variant>> = {
  nodes: {
    what: '4 scalars, no edges, no search index (only the @id hashes)',
    edgesPerPost: 0,
    sdl: `${author(false, false)}
type Post { id: ID! slug: String! @id title: String! body: String! score: Int! }`,
  },
  edges: {
    what: '+ 2 edges per post (author and its inverse Author.posts)',
    edgesPerPost: 2,
    sdl: `${author(true, false)}
type Post { id: ID! slug: String! @id title: String! body: String! score: Int! author: Author }`,
  },
  issue4: {
    what: '+ indexes on 3 fields (slug hash, title term, score int): the issue #4 shape',
    edgesPerPost: 2,
    sdl: `${author(true, false)}
type Post { id: ID! slug: String! @id title: String! @search(by: [term]) body: String! score: Int! @search author: Author }`,
  },
  bench: {
    what: 'the scale benchmark schema (+ body fulltext, author name hash; 1 edge per post)',
    edgesPerPost: 1,
    sdl: `${author(false, true)}
type Post { id: ID! slug: String! @id title: String! @search(by: [term]) body: String! @search(by: [fulltext]) score: Int! @search author: Author }`,
  },
};

interface Measured {
  readonly variant: VariantName;
  readonly posts: number;
  readonly authors: number;
  readonly baselineRss: number;
  /** Heap used + typed arrays right after the schema upload (the data's own bytes are measured from it). */
  readonly baselineData: number;
  readonly rss: number;
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly arrayBuffers: number;
  readonly loadSeconds: number;
  /** Process CPU time (all threads, GC helpers included) spent in the mutations: steadier than wall time on a busy machine. */
  readonly loadCpuSeconds: number;
  readonly indexEntries: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

function settledMemory(): NodeJS.MemoryUsage {
  for (let i = 0; i < 3; i++) gc?.();
  return process.memoryUsage();
}

/** The same shapes as data/dataset.ts (6-word titles, 12-word bodies, unique scores), generated per batch. */
function* batches(posts: number, authors: number, size: number): Generator<Record<string, unknown>[]> {
  const prng = createPrng(7);
  const { titleWords, bodyWords } = vocabularies(7);
  const words = (vocab: readonly string[], n: number): string => Array.from({ length: n }, () => prng.pick(vocab)).join(' ');
  for (let start = 0; start < posts; start += size) {
    const batch: Record<string, unknown>[] = [];
    for (let i = start; i < Math.min(posts, start + size); i++) {
      batch.push({
        slug: `post-${i}`,
        title: words(titleWords, 6),
        body: words(bodyWords, 12),
        score: ((i * 7919) % posts) + 1,
        author: { handle: `author-${prng.int(authors)}` },
      });
    }
    yield batch;
  }
}

async function measure(name: VariantName, posts: number): Promise<Measured> {
  const variant = variants[name];
  const authors = Math.max(100, Math.floor(posts / 10));
  const engine = await openEngine();
  const deployed = await engine.updateSchema(variant.sdl);
  if (!deployed.ok) throw new Error(`schema rejected: ${JSON.stringify(deployed.errors)}`);
  const baseline = settledMemory();
  const baselineRss = baseline.rss;
  const baselineData = baseline.heapUsed + baseline.arrayBuffers;
  // Only the mutations are timed (generating the input and counting entries are not).
  let loadNs = 0n;
  let loadCpuUs = 0;
  const timed = async (query: string, input: unknown[]): Promise<void> => {
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    await run(engine, query, { input });
    loadNs += process.hrtime.bigint() - started;
    const used = process.cpuUsage(cpu);
    loadCpuUs += used.user + used.system;
    // Let the event loop turn between requests, as a server does (deferred work such as webhook
    // dispatch holds each mutation's input until then).
    await new Promise((resolve) => setImmediate(resolve));
  };
  let indexEntries = 0;
  for (let i = 0; i < authors; i += 1000) {
    const input = Array.from({ length: Math.min(1000, authors - i) }, (_, k) => ({ handle: `author-${i + k}`, name: `Author ${i + k}` }));
    await timed('mutation ($input: [AddAuthorInput!]!) { addAuthor(input: $input) { numUids } }', input);
  }
  indexEntries += authors * (name === 'bench' ? 2 : 1); // handle @id hash (+ name hash)
  for (const batch of batches(posts, authors, 1000)) {
    const input = variant.edgesPerPost === 0 ? batch.map(({ author: _a, ...rest }) => rest) : batch;
    await timed('mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', input);
    for (const p of batch) {
      indexEntries += 1; // slug @id hash
      if (name === 'issue4' || name === 'bench') indexEntries += new Set(termTokens(String(p['title']))).size + 1; // term + score int
      if (name === 'bench') indexEntries += new Set(analyzeFulltext(String(p['body']))).size;
    }
  }
  const loadSeconds = Number(loadNs) / 1e9;
  const loadCpuSeconds = loadCpuUs / 1e6;
  const after = settledMemory();
  const check = await run(engine, 'query ($s: String!) { getPost(slug: $s) { slug score } }', { s: `post-${posts - 1}` });
  if (!check.includes(`"post-${posts - 1}"`)) throw new Error(`last post missing: ${check}`);
  await engine.close();
  return { variant: name, posts, authors, baselineRss, baselineData, rss: after.rss, heapUsed: after.heapUsed, heapTotal: after.heapTotal, arrayBuffers: after.arrayBuffers, loadSeconds, loadCpuSeconds, indexEntries };
}

function child(name: VariantName, posts: number): Measured {
  const out = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), String(posts), '--variant', name], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as Measured;
}

const MB = 2 ** 20;
const argv = process.argv.slice(2);
const posts = Number(argv.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const only = argv.includes('--variant') ? (argv[argv.indexOf('--variant') + 1] as VariantName) : undefined;

if (only !== undefined) {
  if (gc === undefined) throw new Error('run with --expose-gc');
  console.log(JSON.stringify(await measure(only, posts)));
} else {
  const results = (['nodes', 'edges', 'issue4', 'bench'] as const).map((v) => child(v, posts));
  const [nodes, edges, issue4, bench] = results as [Measured, Measured, Measured, Measured];
  const grown = (m: Measured): number => m.rss - m.baselineRss;

  const nodeCount = posts + nodes.authors;
  console.log(`| variant (${posts.toLocaleString('en')} posts + ${nodes.authors.toLocaleString('en')} authors) | RSS MiB | RSS growth MiB | heap used / total MiB | typed arrays MiB | load s (CPU s) | nodes/s (per CPU s) |`);
  console.log('|---|---|---|---|---|---|---|');
  for (const m of results) {
    const rate = `${Math.round(nodeCount / m.loadSeconds).toLocaleString('en')} (${Math.round(nodeCount / m.loadCpuSeconds).toLocaleString('en')})`;
    console.log(`| ${m.variant}: ${variants[m.variant].what} | ${(m.rss / MB).toFixed(0)} | ${(grown(m) / MB).toFixed(0)} | ${(m.heapUsed / MB).toFixed(0)} / ${(m.heapTotal / MB).toFixed(0)} | ${(m.arrayBuffers / MB).toFixed(0)} | ${m.loadSeconds.toFixed(1)} (${m.loadCpuSeconds.toFixed(1)}) | ${rate} |`);
  }
  // Bytes per item from heap used + typed arrays (steady; RSS also holds the heap's free pages).
  const data = (m: Measured): number => m.heapUsed + m.arrayBuffers - m.baselineData;
  const perNode = data(nodes) / nodeCount;
  const perEdge = (data(edges) - data(nodes)) / (posts * 2);
  const perEntry = (data(issue4) - data(edges)) / (issue4.indexEntries - edges.indexEntries);
  const perBenchEntry = (data(bench) - data(nodes) - perEdge * posts) / (bench.indexEntries - nodes.indexEntries);
  console.log(`\nB/node (4 scalars, @id hash included): ${perNode.toFixed(0)}; B/edge: ${perEdge.toFixed(1)}; B/index entry (term + int): ${perEntry.toFixed(1)}; B/index entry (bench: term + int + fulltext + hash): ${perBenchEntry.toFixed(1)}`);
  console.log(`issue #4 shape total: ${(issue4.rss / MB).toFixed(0)} MiB = ${(issue4.rss / 1e6).toFixed(0)} MB RSS (target < 600 MB)`);
}
