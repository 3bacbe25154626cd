// The state digest's two cost sides (issue #16): on demand, a walk of the whole store at 100k and 1M
// nodes; incremental, what each write would pay to keep a running digest (the facts an add of one node
// creates, hashed), next to what an add of one node costs through the engine (logged, fsync no).
// Run: node --import tsx bench/state-digest.ts [100000,1000000]

import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../engine/index.js';
import { readFrames, KIND_MUTATION } from '../engine/persist/log-format.js';
import { GraphStore, type StoredValue } from '../engine/store/graph-store.js';
import { R_CREATE, R_EDGE_ADD, R_SET, R_TYPES, redoWidth, type RedoOps } from '../engine/store/redo.js';
import { digestStore, digestValue } from '../engine/store/store-digest.js';
import { FactDigest, nameKey } from '../engine/util/fact-digest.js';

const scales = (process.argv[2] ?? '100000,1000000').split(',').map(Number);

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** N posts (title, text, score, tags, a DateTime) with an author each (N/10 authors, name). */
function buildStore(n: number): GraphStore {
  const store = new GraphStore();
  const txn = store.begin();
  const authors: number[] = [];
  for (let i = 0; i < n / 10; i++) {
    const id = store.createNode();
    store.addType(id, 'Author');
    store.scalar('Author.name').set(id, `author number ${i}`);
    authors.push(id);
  }
  for (let i = 0; i < n; i++) {
    const id = store.createNode();
    store.addType(id, 'Post');
    store.scalar('Post.title').set(id, `a post title ${i}`);
    store.scalar('Post.text').set(id, `some longer text of the post number ${i}, with a few more words in it`);
    store.scalar('Post.score').set(id, i * 0.5);
    store.scalar('Post.tags').set(id, ['news', `t${i % 100}`]);
    store.scalar('Post.at').set(id, '2026-11-29T03:00:00Z');
    store.edges('Post.author').add(id, authors[i % authors.length] as number);
  }
  txn.commit();
  return store;
}

for (const n of scales) {
  const store = buildStore(n);
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    const digest = new FactDigest();
    digestStore(store, digest);
    times.push(performance.now() - started);
  }
  console.log(`on demand: ${n} posts (+${n / 10} authors): ${median(times).toFixed(0)} ms (median of 3)`);
}

// Incremental: the facts of each add's redo, hashed (an add removes nothing, so this is all it would pay).
function hashRedo(ops: RedoOps, into: FactDigest): void {
  for (let i = 0; i < ops.length; i += redoWidth[ops[i] as number] as number) {
    const code = ops[i];
    if (code === R_CREATE) into.begin(2).int(ops[i + 1] as number).end();
    else if (code === R_TYPES) {
      // The node's fact with its types (a real incremental digest would also take the typeless one out).
      into.begin(2).int(ops[i + 1] as number);
      for (const name of ops[i + 2] as readonly string[]) into.int(nameKey(name));
      into.end();
    }
    else if (code === R_SET) digestValue(into.begin(4).int(nameKey(ops[i + 1] as string)).int(ops[i + 2] as number), ops[i + 3] as StoredValue).end();
    else if (code === R_EDGE_ADD) into.begin(5).int(nameKey(ops[i + 1] as string)).int(ops[i + 2] as number).int(ops[i + 3] as number).end();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'digest-bench-'));
const options = { fsync: 'no', snapshotIntervalSeconds: 0, maxQueryTokens: 50_000, maxQueryDepth: 200, debug: false } as const;
const engine = await Engine.open({ ...options, dataDir: dir });
const published: Buffer[] = [];
engine.onLogRecords((frames) => published.push(Buffer.from(frames)));
await engine.updateSchema('type Author { name: String! @id posts: [Post] @hasInverse(field: author) }\ntype Post { id: ID! title: String! @search(by: [term]) text: String score: Float tags: [String] at: DateTime author: Author }');
await engine.execute({ method: 'POST', query: 'mutation { addAuthor(input: [{ name: "ann" }]) { numUids } }', headers: {} });
const add = 'mutation ($t: String!) { addPost(input: [{ title: $t, text: "some longer text of the post, with a few more words in it", score: 1.5, tags: ["news", "x"], at: "2026-11-29T03:00:00Z", author: { name: "ann" } }]) { numUids } }';
const adds = 3000;
const addTimes: number[] = [];
for (let round = 0; round < 5; round++) {
  const started = performance.now();
  for (let i = 0; i < adds; i++) await engine.execute({ method: 'POST', query: add, variables: { t: `post ${round} ${i}` }, headers: {} });
  addTimes.push(((performance.now() - started) * 1000) / adds);
}
const check = JSON.parse((await engine.execute({ method: 'POST', query: '{ aggregatePost { count } }', headers: {} })).body) as { data: { aggregatePost: { count: number } } };
if (check.data.aggregatePost.count !== adds * 5) throw new Error(`the adds failed: ${JSON.stringify(check)}`);
const records = published.flatMap((frames) => readFrames(frames)).filter((r) => r.kind === KIND_MUTATION);
const hashTimes: number[] = [];
for (let round = 0; round < 5; round++) {
  const digest = new FactDigest();
  const started = performance.now();
  for (const record of records) if (record.kind === KIND_MUTATION) hashRedo(record.ops, digest);
  hashTimes.push(((performance.now() - started) * 1000) / records.length);
}
console.log(`add of one post through the engine (logged, fsync no): ${median(addTimes).toFixed(1)} µs; its facts hashed (incremental digest): ${median(hashTimes).toFixed(2)} µs (${records.length} records)`);

// A replica fed the writer's records in memory (Engine.replicate): its apply rate, and that it agrees.
const replica = await Engine.open({ ...options, dataDir: '', replica: true });
const applyStarted = performance.now();
for (const frames of published) {
  const applied = await replica.replicate(frames);
  if (!applied.ok) throw new Error(applied.message);
}
const applyMs = performance.now() - applyStarted;
const total = published.reduce((n, frames) => n + readFrames(frames).length, 0);
if (replica.digest() !== engine.digest() || replica.lsn !== engine.lsn) throw new Error('the replica does not agree with the writer');
console.log(`replica (in memory) applied ${total} records in ${applyMs.toFixed(0)} ms: ${Math.round((total * 1000) / applyMs)} records/s; digests agree`);
await replica.close();
await engine.close();
rmSync(dir, { recursive: true, force: true });
