// queryPost(filter, order, first, offset) over the PostStore: pick the smallest posting list as the
// candidate stream, test the rest of the filter per post, stop early when the order is the stream's.

import type { Post, PostStore } from './post-store.js';
import { tokenize } from './post-store.js';

export interface PostFilter {
  readonly id?: readonly string[] | null;
  readonly slug?: { readonly eq?: string | null; readonly in?: readonly (string | null)[] | null } | null;
  readonly title?: { readonly allofterms?: string | null; readonly anyofterms?: string | null } | null;
  readonly body?: { readonly alloftext?: string | null; readonly anyoftext?: string | null } | null;
  readonly score?: { readonly eq?: number | null; readonly le?: number | null; readonly lt?: number | null; readonly ge?: number | null; readonly gt?: number | null } | null;
  readonly and?: readonly (PostFilter | null)[] | null;
}

export interface PostOrder {
  readonly asc?: 'slug' | 'title' | 'score' | null;
  readonly desc?: 'slug' | 'title' | 'score' | null;
  readonly then?: PostOrder | null;
}

export interface QueryArgs {
  readonly filter?: PostFilter | null;
  readonly order?: PostOrder | null;
  readonly first?: number | null;
  readonly offset?: number | null;
}

type Predicate = (post: Post) => boolean;

export function queryPosts(store: PostStore, args: QueryArgs): Post[] {
  const filter = args.filter ?? {};
  const offset = args.offset ?? 0;
  const limit = args.first ?? Infinity;
  const { stream, scoreOrdered } = candidates(store, filter);
  const test = predicate(filter);
  const order = args.order ?? null;
  const streamOrder = order === null || (order.desc === 'score' && !order.then && scoreOrdered);
  const out: Post[] = [];
  for (const post of stream) {
    if (!test(post)) continue;
    out.push(post);
    if (streamOrder && out.length >= offset + limit) break;
  }
  if (!streamOrder && order !== null) out.sort(comparator(order));
  return out.slice(offset, offset + limit);
}

/** The smallest posting list the filter allows (all lists are kept by score descending). */
function candidates(store: PostStore, filter: PostFilter): { stream: readonly Post[]; scoreOrdered: boolean } {
  if (filter.id) return { stream: filter.id.flatMap((id) => store.postsById.get(id) ?? []), scoreOrdered: false };
  const slug = filter.slug?.eq;
  if (typeof slug === 'string') {
    const found = store.postsBySlug.get(slug);
    return { stream: found === undefined ? [] : [found], scoreOrdered: true };
  }
  const lists: (readonly Post[])[] = [];
  if (filter.title?.allofterms) lists.push(...tokenize(filter.title.allofterms).map((w) => store.titleIndex.get(w) ?? []));
  if (filter.body?.alloftext) lists.push(...tokenize(filter.body.alloftext).map((w) => store.bodyIndex.get(w) ?? []));
  let best: readonly Post[] = store.byScore;
  for (const list of lists) if (list.length < best.length) best = list;
  return { stream: best, scoreOrdered: true };
}

function predicate(filter: PostFilter): Predicate {
  const tests: Predicate[] = [];
  if (filter.id) {
    const ids = new Set(filter.id);
    tests.push((p) => ids.has(p.id));
  }
  if (filter.slug) {
    const { eq, in: among } = filter.slug;
    if (typeof eq === 'string') tests.push((p) => p.slug === eq);
    if (among) tests.push((p) => among.includes(p.slug));
  }
  const t = filter.title;
  if (t?.allofterms) tests.push(allOf((p) => p.titleWords, tokenize(t.allofterms)));
  if (t?.anyofterms) tests.push(anyOf((p) => p.titleWords, tokenize(t.anyofterms)));
  const b = filter.body;
  if (b?.alloftext) tests.push(allOf((p) => p.bodyWords, tokenize(b.alloftext)));
  if (b?.anyoftext) tests.push(anyOf((p) => p.bodyWords, tokenize(b.anyoftext)));
  const s = filter.score;
  if (s) {
    if (s.eq != null) tests.push((p) => p.score === s.eq);
    if (s.le != null) tests.push((p) => p.score <= (s.le ?? 0));
    if (s.lt != null) tests.push((p) => p.score < (s.lt ?? 0));
    if (s.ge != null) tests.push((p) => p.score >= (s.ge ?? 0));
    if (s.gt != null) tests.push((p) => p.score > (s.gt ?? 0));
  }
  for (const sub of filter.and ?? []) if (sub) tests.push(predicate(sub));
  if (tests.length === 1 && tests[0]) return tests[0];
  return (p) => tests.every((test) => test(p));
}

const allOf = (get: (p: Post) => ReadonlySet<string>, words: string[]): Predicate => (p) => words.every((w) => get(p).has(w));
const anyOf = (get: (p: Post) => ReadonlySet<string>, words: string[]): Predicate => (p) => words.some((w) => get(p).has(w));

function comparator(order: PostOrder): (a: Post, b: Post) => number {
  const key = order.asc ?? order.desc;
  const sign = order.asc ? 1 : -1;
  const next = order.then ? comparator(order.then) : null;
  return (a, b) => {
    const x = key ? a[key] : 0;
    const y = key ? b[key] : 0;
    const c = x < y ? -sign : x > y ? sign : 0;
    return c !== 0 || next === null ? c : next(a, b);
  };
}
