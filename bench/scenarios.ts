// The load scenarios: one document text for every contender, the variables, and the expected answer
// computed from the generated data set (a plain linear scan, independent of every contender's code).

import type { Dataset, PostRecord } from './data/dataset.js';

/** Ids differ per contender; the runner looks them up (by @id) before checking and timing. */
export interface ContenderIds {
  readonly postId: string;
}

export type ScenarioName = 'get-by-id' | 'get-by-xid' | 'filtered-list' | 'fulltext' | 'add' | 'batch-custom';

export interface Scenario {
  readonly name: ScenarioName;
  readonly description: string;
  readonly document: string;
  readonly isMutation: boolean;
  /** The variables of request number `n` (mutations make each one unique). */
  variables(ids: ContenderIds, n: number, runTag: string): Record<string, unknown>;
  /** `null` if `data` is the right answer to request `n`, else what is wrong. */
  check(data: unknown, ids: ContenderIds, n: number, runTag: string): string | null;
  /** A representative answer, for the ceiling's fixed body. */
  sample(ids: ContenderIds): unknown;
  /** Outgoing upstream calls one request must make (checked before timing); absent = none expected. */
  readonly upstreamCallsPerRequest?: number;
}

/** Scenarios the suite cannot run yet, listed in the report (none at the moment). */
export const pendingScenarios: readonly { readonly name: string; readonly reason: string }[] = [];

/** Posts in the batch-custom page. */
export const customPageSize = 20;

/** What the upstream computes for `Post.ref` (bench/upstream/mock-upstream.ts: values in key order). */
export const expectedRef = (p: PostRecord): string => `up:${p.score}:${p.slug}`;

/**
 * batch-custom: a page of posts with `ref`, a field answered by the loopback upstream in one BATCH call
 * per request (the service's `@custom(http: {mode: BATCH})`, the peers' per-request batch loader).
 */
export function batchCustomScenario(data: Dataset): Scenario {
  const answer = {
    queryPost: topByScore(data, () => true, customPageSize).map((p) => ({ slug: p.slug, score: p.score, ref: expectedRef(p) })),
  };
  return {
    name: 'batch-custom',
    description: `queryPost(order desc score, first ${customPageSize}) { slug score ref }, ref from one BATCH upstream call`,
    document: 'query BatchCustom($first: Int) { queryPost(order: { desc: score }, first: $first) { slug score ref } }',
    isMutation: false,
    variables: () => ({ first: customPageSize }),
    check: (got) => compare(got, answer),
    sample: () => answer,
    upstreamCallsPerRequest: 1,
  };
}

/** Every scenario of a load run: the stored-data ones plus batch-custom (which needs the upstream). */
export function buildLoadScenarios(data: Dataset): Scenario[] {
  return [...buildScenarios(data), batchCustomScenario(data)];
}

/** The post the single-item scenarios read, and whose words the filters search for. */
const probeIndex = (data: Dataset): number => 1234 % data.posts.length;
const post = (data: Dataset, i: number): PostRecord => {
  const found = data.posts[i];
  if (found === undefined) throw new Error(`no post ${i}`);
  return found;
};
const authorName = (data: Dataset, p: PostRecord): string => data.authors[p.author]?.name ?? '';

const itemFields = 'id slug title score author { name }';

export function titleTerm(data: Dataset): string {
  return post(data, probeIndex(data)).title.split(' ')[0] ?? '';
}

export function bodyText(data: Dataset): string {
  const words = post(data, probeIndex(data)).body.split(' ');
  return `${words[2] ?? ''} ${words[7] ?? ''}`;
}

const words = (text: string): Set<string> => new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== ''));

function topByScore(data: Dataset, matches: (p: PostRecord) => boolean, first: number): PostRecord[] {
  return data.posts.filter(matches).sort((a, b) => b.score - a.score).slice(0, first);
}

/** The scenarios over stored data alone (also the engine micro-benchmarks' cases). */
export function buildScenarios(data: Dataset): Scenario[] {
  const probe = post(data, probeIndex(data));
  const single = (ids: ContenderIds): unknown => ({
    getPost: { id: ids.postId, slug: probe.slug, title: probe.title, score: probe.score, author: { name: authorName(data, probe) } },
  });
  const term = titleTerm(data);
  const listAnswer = {
    queryPost: topByScore(data, (p) => words(p.title).has(term), 10).map((p) => ({
      slug: p.slug,
      title: p.title,
      score: p.score,
      author: { name: authorName(data, p) },
    })),
  };
  const text = [...words(bodyText(data))];
  const textAnswer = {
    queryPost: topByScore(data, (p) => { const w = words(p.body); return text.every((t) => w.has(t)); }, 10).map((p) => ({ slug: p.slug, title: p.title, score: p.score })),
  };
  const addInput = (n: number, tag: string): Record<string, unknown> => ({
    slug: `bench-${tag}-${n}`,
    title: `benchadd ${tag} ${n}`,
    body: `benchmark insert number ${n}`,
    score: -1 - n,
    author: { handle: data.authors[n % data.authors.length]?.handle ?? '' },
  });
  return [
    {
      name: 'get-by-id',
      description: 'getPost(id) with a nested author',
      document: `query GetById($id: ID!) { getPost(id: $id) { ${itemFields} } }`,
      isMutation: false,
      variables: (ids) => ({ id: ids.postId }),
      check: (got, ids) => compare(got, single(ids)),
      sample: single,
    },
    {
      name: 'get-by-xid',
      description: 'getPost(slug) by the @id field, nested author',
      document: `query GetBySlug($slug: String!) { getPost(slug: $slug) { ${itemFields} } }`,
      isMutation: false,
      variables: () => ({ slug: probe.slug }),
      check: (got, ids) => compare(got, single(ids)),
      sample: single,
    },
    {
      name: 'filtered-list',
      description: `queryPost(title allofterms "${term}", order desc score, first 10) { ... author { name } }`,
      document:
        'query Filtered($terms: String!) { queryPost(filter: { title: { allofterms: $terms } }, order: { desc: score }, first: 10) { slug title score author { name } } }',
      isMutation: false,
      variables: () => ({ terms: term }),
      check: (got) => compare(got, listAnswer),
      sample: () => listAnswer,
    },
    {
      name: 'fulltext',
      description: `queryPost(body alloftext "${text.join(' ')}", order desc score, first 10)`,
      document: 'query Fulltext($text: String!) { queryPost(filter: { body: { alloftext: $text } }, order: { desc: score }, first: 10) { slug title score } }',
      isMutation: false,
      variables: () => ({ text: text.join(' ') }),
      check: (got) => compare(got, textAnswer),
      sample: () => textAnswer,
    },
    {
      name: 'add',
      description: 'addPost of one new post (unique slug per request) referencing an author by @id',
      document: 'mutation Add($input: [AddPostInput!]!) { addPost(input: $input) { post { id slug title score } numUids } }',
      isMutation: true,
      variables: (_ids, n, tag) => ({ input: [addInput(n, tag)] }),
      check: (got, _ids, n, tag) => checkAdd(got, addInput(n, tag)),
      sample: (ids) => ({ addPost: { post: [{ id: ids.postId, slug: 'bench-sample-0', title: 'benchadd sample 0', score: -1 }], numUids: 1 } }),
    },
  ];
}

function checkAdd(got: unknown, input: Record<string, unknown>): string | null {
  const payload = field(field(got, 'addPost'), 'post');
  if (field(field(got, 'addPost'), 'numUids') !== 1) return `numUids is not 1: ${JSON.stringify(got)}`;
  if (!Array.isArray(payload) || payload.length !== 1) return `addPost.post is not one item: ${JSON.stringify(got)}`;
  const item: unknown = payload[0];
  if (typeof field(item, 'id') !== 'string') return `addPost.post[0].id is not a string: ${JSON.stringify(got)}`;
  for (const key of ['slug', 'title', 'score']) {
    if (field(item, key) !== input[key]) return `addPost.post[0].${key} is ${JSON.stringify(field(item, key))}, expected ${JSON.stringify(input[key])}`;
  }
  return null;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** Deep equality of JSON values (object key order ignored); returns the first difference. */
export function compare(got: unknown, want: unknown, path = 'data'): string | null {
  if (Array.isArray(want)) {
    if (!Array.isArray(got)) return `${path}: expected a list, got ${JSON.stringify(got)}`;
    if (got.length !== want.length) return `${path}: expected ${want.length} items, got ${got.length}`;
    for (let i = 0; i < want.length; i++) {
      const diff = compare(got[i], want[i], `${path}[${i}]`);
      if (diff !== null) return diff;
    }
    return null;
  }
  if (typeof want === 'object' && want !== null) {
    if (typeof got !== 'object' || got === null || Array.isArray(got)) return `${path}: expected an object, got ${JSON.stringify(got)}`;
    const g = got as Record<string, unknown>;
    const w = want as Record<string, unknown>;
    const keys = new Set([...Object.keys(g), ...Object.keys(w)]);
    for (const key of keys) {
      const diff = compare(g[key], w[key], `${path}.${key}`);
      if (diff !== null) return diff;
    }
    return null;
  }
  return Object.is(got, want) ? null : `${path}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
}
