// One token index alone, two builds A/B (issue #20's delete: what a post's value costs each token index to drop and
// put back). Each build builds the index of one bench field (ngram: summary, fulltext: body, term: title, trigram:
// code) from the generated data set; an op removes a random live post's value and adds it back under a new id (as
// the matrix's delete + add back does), in alternating rounds; CPU µs per op, B/A the median of the rounds' ratios.
// Both builds answer every query token of the removed values the same afterwards (checked at the end).
// Run: taskset -c 1 node dist/bench/micro/token-index-ab.js <distA> <distB> [--posts 10000] [--kinds ngram,fulltext,term,trigram] [--rounds 12] [--ops 2000]

import { resolve } from 'node:path';
import type * as DatasetModule from '../data/dataset.js';
import type { PostRecord } from '../data/dataset.js';

interface TokenIndexLike {
  add(value: string, id: number): void;
  remove(value: string, id: number): void;
  anyOf(text: string): readonly number[];
}

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const [distA, distB] = argv;
if (distA === undefined || distB === undefined) throw new Error('usage: token-index-ab.js <distA> <distB> [--posts n] [--kinds a,b] [--rounds n] [--ops n]');
const posts = Number(flag('--posts') ?? 10_000);
const kinds = (flag('--kinds') ?? 'ngram,fulltext,term,trigram').split(',');
const rounds = Number(flag('--rounds') ?? 12);
const ops = Number(flag('--ops') ?? 2_000);

const kindSpec: Readonly<Record<string, { field: keyof PostRecord; file: string; cls: string }>> = {
  ngram: { field: 'summary', file: 'ngram-index.js', cls: 'NgramIndex' },
  fulltext: { field: 'body', file: 'fulltext-index.js', cls: 'FulltextIndex' },
  term: { field: 'title', file: 'term-index.js', cls: 'TermIndex' },
  trigram: { field: 'code', file: 'trigram-index.js', cls: 'TrigramIndex' },
};

const { generateDataset } = (await import(resolve(distA, 'bench/data/dataset.js'))) as typeof DatasetModule;
const data = generateDataset({ posts, authors: Math.max(100, posts / 100) });

/** A fresh copy of `s` (no hash computed yet), as a value read back from the store is. */
const fresh = (s: string): string => ` ${s}`.slice(1);

async function driver(dist: string, kind: string): Promise<{ round: (n: number) => number; index: TokenIndexLike }> {
  const spec = kindSpec[kind];
  if (spec === undefined) throw new Error(`unknown kind ${kind}`);
  const module = (await import(resolve(dist, 'engine/indexes', spec.file))) as Record<string, new () => TokenIndexLike>;
  const Index = module[spec.cls];
  if (Index === undefined) throw new Error(`no ${spec.cls} in ${dist}`);
  const index = new Index();
  const live: [number, string][] = [];
  data.posts.forEach((p, i) => {
    const value = p[spec.field];
    if (typeof value !== 'string') return;
    index.add(value, i + 1);
    live.push([i + 1, value]);
  });
  let next = posts + 1;
  let seed = 7; // the same posts in the same order for both builds
  const round = (n: number): number => {
    const t0 = process.cpuUsage();
    for (let k = 0; k < n; k++) {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      const entry = live[seed % live.length] as [number, string];
      index.remove(fresh(entry[1]), entry[0]);
      entry[0] = next++;
      index.add(fresh(entry[1]), entry[0]);
    }
    const used = process.cpuUsage(t0);
    return (used.user + used.system) / n;
  };
  return { round, index };
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;

console.log(`${posts} posts; CPU µs per remove + add back (median of ${rounds} alternating rounds of ${ops}), B/A the median of the rounds' ratios`);
for (const kind of kinds) {
  const a = await driver(resolve(distA), kind);
  const b = await driver(resolve(distB), kind);
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const x = a.round(ops);
    const y = b.round(ops);
    as.push(x);
    bs.push(y);
    ratios.push(y / x);
  }
  const spec = kindSpec[kind] as { field: keyof PostRecord };
  for (const p of data.posts.slice(0, 200)) {
    const text = p[spec.field];
    if (typeof text !== 'string') continue;
    if (JSON.stringify(a.index.anyOf(text)) !== JSON.stringify(b.index.anyOf(text))) throw new Error(`${kind}: the builds answer ${JSON.stringify(text)} differently`);
  }
  console.log(`${kind.padEnd(9)} A ${median(as).toFixed(2).padStart(7)}  B ${median(bs).toFixed(2).padStart(7)}  B/A ${median(ratios).toFixed(3)}`);
}
