// An in-process engine (no HTTP) loaded with a generated data set of a given size, through the facade.

import { Engine } from '../../engine/index.js';
import type { Dataset } from '../data/dataset.js';
import { serviceSdl } from '../schema.js';

export async function openEngine(): Promise<Engine> {
  return Engine.open({ dataDir: '', maxQueryTokens: 50000, maxQueryDepth: 200, debug: false });
}

/** Executes one request and returns its body, throwing on GraphQL errors. */
export async function run(engine: Engine, query: string, variables: Record<string, unknown>): Promise<string> {
  const response = await engine.execute({ method: 'POST', query, variables, headers: {} });
  if (response.kind !== 'ok' || response.body.includes('"errors"')) throw new Error(`${query}: ${response.body.slice(0, 300)}`);
  return response.body;
}

/** Lets the event loop turn between requests, as a server does (deferred work such as webhook dispatch runs then). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function loadedEngine(data: Dataset, batch = 1_000): Promise<Engine> {
  const engine = await openEngine();
  const result = await engine.updateSchema(serviceSdl);
  if (!result.ok) throw new Error(`schema rejected: ${JSON.stringify(result.errors)}`);
  const authors = data.authors.map((a) => ({ handle: a.handle, name: a.name }));
  for (let i = 0; i < authors.length; i += batch) {
    await run(engine, 'mutation ($input: [AddAuthorInput!]!) { addAuthor(input: $input) { numUids } }', { input: authors.slice(i, i + batch) });
    await turn();
  }
  for (let i = 0; i < data.posts.length; i += batch) {
    const input = data.posts.slice(i, i + batch).map((p) => ({ ...p, author: { handle: data.authors[p.author]?.handle ?? '' } }));
    await run(engine, 'mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', { input });
    await turn();
  }
  return engine;
}
