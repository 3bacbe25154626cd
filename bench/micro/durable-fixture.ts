// An engine of one build's dist/ with a data directory (no automatic snapshots, fsync off), loaded with
// the generated data set through the facade: what the snapshot benchmarks start from.

import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type * as EngineModule from '../../engine/index.js';
import type * as DatasetModule from '../data/dataset.js';
import type * as SchemaModule from '../schema.js';

type Engine = EngineModule.Engine;

export interface DurableFixture {
  readonly engine: Engine;
  /** Executes one request, throwing on GraphQL errors. */
  run(query: string, variables: Record<string, unknown>): Promise<void>;
  /** The data set loaded (empty when only opened: generating 1M posts would count in a restore's memory). */
  readonly data: DatasetModule.Dataset;
}

const quiet = { info: () => undefined, warn: console.warn, error: console.error };

/** Opens (restores) the engine of `dist` on `dataDir`; `load`: also uploads the schema and adds the data set. */
export async function openDurable(dist: string, dataDir: string, posts: number, load: boolean): Promise<DurableFixture> {
  const from = (path: string): string => resolve(dist, path);
  const { Engine } = (await import(from('engine/index.js'))) as typeof EngineModule;
  const { generateDataset } = (await import(from('bench/data/dataset.js'))) as typeof DatasetModule;
  const { serviceSdl } = (await import(from('bench/schema.js'))) as typeof SchemaModule;
  const data = load ? generateDataset({ posts, authors: Math.max(100, posts / 10) }) : { seed: 0, posts: [], authors: [] };
  const engine = await Engine.open({ dataDir, fsync: 'no', snapshotEveryMutations: 0, snapshotIntervalSeconds: 0, maxQueryTokens: 50_000, maxQueryDepth: 200, debug: false, log: quiet });
  const run = async (query: string, variables: Record<string, unknown>): Promise<void> => {
    const body = String((await engine.execute({ method: 'POST', query, variables, headers: {} })).body);
    if (body.includes('"errors"')) throw new Error(body.slice(0, 300));
  };
  if (load) {
    if (!(await engine.updateSchema(serviceSdl)).ok) throw new Error('schema rejected');
    await run('mutation ($input: [AddAuthorInput!]!) { addAuthor(input: $input) { numUids } }', { input: data.authors.map((a) => ({ handle: a.handle, name: a.name })) });
    for (let i = 0; i < data.posts.length; i += 1_000) {
      const input = data.posts.slice(i, i + 1_000).map((p) => ({ ...p, author: { handle: data.authors[p.author]?.handle ?? '' } }));
      await run('mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', { input });
    }
  }
  return { engine, run, data };
}

/** LSN of the newest snapshot in `dir` (undefined: none, or no directory). */
export function newestSnapshotLsn(dir: string): number | undefined {
  const names = existsSync(dir) ? readdirSync(dir).filter((n) => /^snap-\d+\.msgpack$/.test(n)) : [];
  return names.length === 0 ? undefined : Math.max(...names.map((n) => Number(/\d+/.exec(n)?.[0])));
}

/**
 * A data directory made once and kept (the generated data set of `posts` through the facade, then one
 * snapshot; ~250 s at 1M), so every later run and build reads the same file; returns its snapshot's LSN.
 */
export async function keptDataDir(dist: string, dir: string, posts: number): Promise<number> {
  const kept = newestSnapshotLsn(dir);
  if (kept !== undefined) return kept;
  const t = performance.now();
  const { engine } = await openDurable(dist, dir, posts, true);
  console.log(`loaded ${posts} posts in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const result = await engine.snapshot();
  if (!result.ok) throw new Error(result.message);
  await engine.close();
  return newestSnapshotLsn(dir) as number;
}
