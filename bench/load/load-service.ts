// Prepares the service for a run through its own HTTP API: upload the schema (with `Post.ref` on the
// upstream), then add the authors and the posts in batches (posts reference their author by `handle`).

import type { Dataset } from '../data/dataset.js';
import { serviceSdlWithRef } from '../schema.js';
import { dataOf, post, postJson } from './graphql-client.js';

const batchSize = 1_000;

export async function loadService(baseUrl: string, data: Dataset, upstreamUrl: string): Promise<void> {
  const upload = await post(`${baseUrl}/admin/schema`, serviceSdlWithRef(upstreamUrl), 'application/octet-stream');
  if (upload.status !== 200 || upload.text.includes('"errors"')) throw new Error(`schema upload failed: ${upload.text.slice(0, 300)}`);
  const authors = data.authors.map((a) => ({ handle: a.handle, name: a.name }));
  await addInBatches(baseUrl, 'mutation ($input: [AddAuthorInput!]!) { addAuthor(input: $input) { numUids } }', authors);
  const posts = data.posts.map((p) => ({ ...p, author: { handle: data.authors[p.author]?.handle ?? '' } }));
  await addInBatches(baseUrl, 'mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', posts);
}

async function addInBatches(baseUrl: string, query: string, items: readonly unknown[]): Promise<void> {
  for (let i = 0; i < items.length; i += batchSize) {
    const input = items.slice(i, i + batchSize);
    const data = dataOf(await postJson(`${baseUrl}/graphql`, { query, variables: { input } }));
    const count = Object.values(data as Record<string, { numUids?: unknown }>)[0]?.numUids;
    if (count !== input.length) throw new Error(`batch at ${i}: numUids ${String(count)}, expected ${input.length}`);
  }
}
