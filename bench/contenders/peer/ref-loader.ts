// `Post.ref` for the peers, the way a competent user batches a per-item upstream field: a DataLoader-
// style loader per request (keyed by the request's context object) collects every post the request
// resolves in one pass, then makes one POST of the whole list through undici's keep-alive pool.

import { Agent, request } from 'undici';
import type { Post } from './post-store.js';

interface Pending {
  readonly posts: Post[];
  readonly waiters: { resolve(value: string | null): void; reject(error: unknown): void }[];
}

export type RefResolver = (post: Post, args: unknown, context: object) => Promise<string | null>;

export function refResolver(upstreamUrl: string): RefResolver {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 128 });
  const batches = new WeakMap<object, Pending>();

  const flush = async (context: object, pending: Pending): Promise<void> => {
    batches.delete(context);
    try {
      const body = JSON.stringify(pending.posts.map((p) => ({ slug: p.slug, score: p.score })));
      const response = await request(upstreamUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body, dispatcher: agent });
      const values = (await response.body.json()) as unknown;
      if (response.statusCode !== 200 || !Array.isArray(values) || values.length !== pending.posts.length) throw new Error(`upstream answered ${response.statusCode}`);
      pending.waiters.forEach((w, i) => w.resolve(typeof values[i] === 'string' ? (values[i] as string) : null));
    } catch (error) {
      for (const w of pending.waiters) w.reject(error);
    }
  };

  return (post, _args, context) =>
    new Promise((resolve, reject) => {
      let pending = batches.get(context);
      if (pending === undefined) {
        const created: Pending = { posts: [], waiters: [] };
        batches.set(context, created);
        pending = created;
        // As DataLoader schedules: after the promise jobs already queued, so every sibling resolver is in.
        void Promise.resolve().then(() => process.nextTick(() => void flush(context, created)));
      }
      pending.posts.push(post);
      pending.waiters.push({ resolve, reject });
    });
}
