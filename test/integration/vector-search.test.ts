// querySimilar<T>ByEmbedding / querySimilar<T>ById over HTTP, with Dgraph v25's semantics
// (graphql/resolve/query_rewriter.go rewriteAsSimilarBy*): the topK nearest nodes by the field's hnsw
// metric, then the filter, ordered by ascending vector_distance, where
//   euclidean  = sqrt(Σ (a−b)²)
//   cosine     = 1 − a·b / sqrt((a·a)(b·b))
//   dotproduct = 1 − a·b
// Expected answers are computed here, independently of the server.

import { rmSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { makeTempDir, startServer, startWithSchema, type ServerProcess } from './helpers/server-process.js';

const schema = `
type Doc {
  id: ID!
  title: String! @id
  kind: String @search(by: [hash])
  eu: [Float!] @embedding @search(by: ["hnsw(metric: euclidean, exponent: 4)"])
  co: [Float!] @embedding @search(by: ["hnsw(metric: cosine, exponent: 4)"])
  dp: [Float!] @embedding @search(by: ["hnsw(metric: dotproduct, exponent: 4)"])
}`;

interface Doc {
  title: string;
  kind: string;
  v: number[] | null;
}

/** One vector per doc, stored in all three embedding fields; values exact in float32. */
const docs: Doc[] = [
  { title: 'd1', kind: 'a', v: [1, 0, 0] },
  { title: 'd2', kind: 'b', v: [0.5, 0.5, 0] },
  { title: 'd3', kind: 'a', v: [0, 1, 0] },
  { title: 'd4', kind: 'b', v: [-1, 0.25, 0.5] },
  { title: 'd5', kind: 'a', v: [0.25, 0.25, 2] },
  { title: 'd6', kind: 'a', v: null },
];

type Metric = 'eu' | 'co' | 'dp';
const metrics: readonly Metric[] = ['eu', 'co', 'dp'];

function distance(metric: Metric, a: readonly number[], b: readonly number[]): number {
  const dot = (x: readonly number[], y: readonly number[]) => x.reduce((s, xi, i) => s + xi * (y[i] as number), 0);
  if (metric === 'eu') return Math.sqrt(a.reduce((s, ai, i) => s + (ai - (b[i] as number)) ** 2, 0));
  if (metric === 'co') return 1 - dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
  return 1 - dot(a, b);
}

/** [title, distance] of the topK docs nearest to `vector`, then `keep`, ascending. */
function expected(metric: Metric, vector: readonly number[], topK: number, set: readonly Doc[] = docs, keep: (d: Doc) => boolean = () => true): [string, number][] {
  return set
    .filter((d) => d.v !== null)
    .map((d) => ({ d, dist: distance(metric, vector, d.v as number[]) }))
    .sort((x, y) => x.dist - y.dist)
    .slice(0, topK)
    .filter((x) => keep(x.d))
    .map((x) => [x.d.title, x.dist]);
}

let server: ServerProcess;

interface Body {
  data?: Record<string, any> | null;
  errors?: { message: string; locations?: unknown; path?: unknown }[];
}

async function gql(query: string, variables?: Record<string, unknown>, on: ServerProcess = server): Promise<Body> {
  const answer = await postGraphql(on.url, { query, variables });
  expect(answer.status).toBe(200);
  return answer.json() as Body;
}

async function ok(query: string, variables?: Record<string, unknown>, on: ServerProcess = server): Promise<Record<string, any>> {
  const body = await gql(query, variables, on);
  expect(body.errors).toBeUndefined();
  return body.data as Record<string, any>;
}

const byEmbedding = `query ($by: DocEmbedding!, $k: Int!, $v: [Float!]!, $f: DocFilter) {
  querySimilarDocByEmbedding(by: $by, topK: $k, vector: $v, filter: $f) { title vector_distance } }`;
const byId = `query ($t: String!, $by: DocEmbedding!, $k: Int!, $f: DocFilter) {
  querySimilarDocById(title: $t, by: $by, topK: $k, filter: $f) { title vector_distance } }`;

function pairs(list: { title: string; vector_distance: number }[]): [string, number][] {
  return list.map((x) => [x.title, x.vector_distance]);
}

/** Same titles in the same order, distances equal to float32 precision. */
function expectNearest(actual: { title: string; vector_distance: number }[], want: [string, number][]): void {
  const got = pairs(actual);
  expect(got.map((p) => p[0])).toEqual(want.map((p) => p[0]));
  got.forEach(([, d], i) => expect(d).toBeCloseTo((want[i] as [string, number])[1], 6));
}

async function load(on: ServerProcess = server): Promise<void> {
  const input = docs.map((d) => ({ title: d.title, kind: d.kind, ...(d.v === null ? {} : { eu: d.v, co: d.v, dp: d.v }) }));
  await ok('mutation ($in: [AddDocInput!]!) { addDoc(input: $in) { numUids } }', { in: input }, on);
}

beforeAll(async () => {
  server = await startServer();
}, 30_000);

afterAll(async () => {
  await server?.stop();
});

beforeEach(async () => {
  expect(await uploadSchema(server.url, schema)).toEqual(uploadSucceeded);
  await ok('mutation { deleteDoc(filter: {}) { numUids } }');
  await load();
});

describe('querySimilar<T>ByEmbedding', () => {
  for (const metric of metrics) {
    it(`${metric}: the topK nearest, ascending by vector_distance`, async () => {
      const vector = [0.5, 0.25, 0.25];
      for (const k of [1, 3, 10]) {
        const data = await ok(byEmbedding, { by: metric, k, v: vector });
        expectNearest(data['querySimilarDocByEmbedding'], expected(metric, vector, k));
      }
    });
  }

  it('topK 0 returns nothing', async () => {
    expect(await ok(byEmbedding, { by: 'eu', k: 0, v: [1, 0, 0] })).toEqual({ querySimilarDocByEmbedding: [] });
  });

  it('the filter applies to the topK nearest (Dgraph filters after similar_to)', async () => {
    const vector = [1, 0.25, 0];
    const data = await ok(byEmbedding, { by: 'eu', k: 3, v: vector, f: { kind: { eq: 'a' }, or: { title: { eq: 'd4' } } } });
    const want = expected('eu', vector, 3, docs, (d) => d.kind === 'a' || d.title === 'd4');
    expect(want.length).toBeLessThan(3);
    expectNearest(data['querySimilarDocByEmbedding'], want);
  });

  it('a vector of another dimension is an error naming the metric, with locations and path', async () => {
    const body = await gql('{ querySimilarDocByEmbedding(by: co, topK: 2, vector: [1, 0]) { title } }');
    expect(body).toEqual({
      data: { querySimilarDocByEmbedding: null },
      errors: [
        {
          message: 'Dgraph execution failed because can not compute cosine distance on vectors of different lengths',
          locations: [{ line: 1, column: 3 }],
          path: ['querySimilarDocByEmbedding'],
        },
      ],
    });
  });

  it('vector_distance is null outside similarity queries', async () => {
    const data = await ok('{ getDoc(title: "d1") { title vector_distance } }');
    expect(data).toEqual({ getDoc: { title: 'd1', vector_distance: null } });
  });
});

describe('querySimilar<T>ById', () => {
  for (const metric of metrics) {
    it(`${metric}: the node itself (distance 0 or its own) and its nearest`, async () => {
      const data = await ok(byId, { t: 'd2', by: metric, k: 4 });
      expectNearest(data['querySimilarDocById'], expected(metric, [0.5, 0.5, 0], 4));
    });
  }

  it('a node without the embedding, or no such node, gives []', async () => {
    expect(await ok(byId, { t: 'd6', by: 'eu', k: 3 })).toEqual({ querySimilarDocById: [] });
    expect(await ok(byId, { t: 'nope', by: 'eu', k: 3 })).toEqual({ querySimilarDocById: [] });
  });

  it('filter after topK', async () => {
    const data = await ok(byId, { t: 'd1', by: 'dp', k: 3, f: { kind: { eq: 'b' } } });
    expectNearest(data['querySimilarDocById'], expected('dp', [1, 0, 0], 3, docs, (d) => d.kind === 'b'));
  });
});

describe('writes', () => {
  it('an updated embedding moves the node; a removed one drops it', async () => {
    await ok('mutation { updateDoc(input: { filter: { title: { eq: "d3" } }, set: { eu: [1, 0, 0.5] } }) { numUids } }');
    await ok('mutation { updateDoc(input: { filter: { title: { eq: "d1" } }, remove: { eu: [1, 0, 0] } }) { numUids } }');
    const now = docs.map((d) => (d.title === 'd3' ? { ...d, v: [1, 0, 0.5] } : d.title === 'd1' ? { ...d, v: null } : d));
    const data = await ok(byEmbedding, { by: 'eu', k: 3, v: [1, 0, 0] });
    expectNearest(data['querySimilarDocByEmbedding'], expected('eu', [1, 0, 0], 3, now));
    expect(await ok('{ getDoc(title: "d3") { eu } }')).toEqual({ getDoc: { eu: [1, 0, 0.5] } });
  });

  it('deleted nodes are no longer found', async () => {
    await ok('mutation { deleteDoc(filter: { kind: { eq: "a" } }) { numUids } }');
    const data = await ok(byEmbedding, { by: 'co', k: 10, v: [1, 1, 1] });
    expectNearest(data['querySimilarDocByEmbedding'], expected('co', [1, 1, 1], 10, docs.filter((d) => d.kind !== 'a')));
  });
});

describe('persistence', () => {
  it('embeddings survive a restart (snapshot and log replay)', async () => {
    const dir = makeTempDir();
    const args = ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir];
    try {
      let node = await startServer({ rawArgs: args });
      expect(await uploadSchema(node.url, schema)).toEqual(uploadSucceeded);
      await load(node);
      await node.stop(); // SIGTERM writes a snapshot
      node = await startServer({ rawArgs: args });
      await ok('mutation { updateDoc(input: { filter: { title: { eq: "d2" } }, set: { dp: [0, 0, 1] } }) { numUids } }', undefined, node);
      await node.stop(0); // killed at once: the update may live only in the log
      node = await startServer({ rawArgs: args });
      const now = docs.map((d) => (d.title === 'd2' ? { ...d, v: [0, 0, 1] } : d));
      const data = await ok(byEmbedding, { by: 'dp', k: 3, v: [0, 0.5, 1] }, node);
      expectNearest(data['querySimilarDocByEmbedding'], expected('dp', [0, 0.5, 1], 3, now));
      const eu = await ok(byId, { t: 'd1', by: 'eu', k: 2 }, node);
      expectNearest(eu['querySimilarDocById'], expected('eu', [1, 0, 0], 2));
      await node.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('many vectors: the exact index (k-d trees for euclidean, a scan otherwise), EXPLAINed', () => {
  // 700 docs (past the index's pending list, so trees are built, merged and partly deleted from) on a
  // coarse grid of eighths: every value is exact in float32, and equal distances (ties) are frequent.
  const many: Doc[] = Array.from({ length: 700 }, (_, i) => ({
    title: `m${i}`,
    kind: i % 3 === 0 ? 'a' : 'b',
    v: [((i * 7) % 17) / 8 - 1, ((i * 11) % 13) / 8 - 1, ((i * 5) % 9) / 8 - 1],
  }));
  let debug: ServerProcess;

  beforeAll(async () => {
    debug = await startWithSchema(schema, { args: ['--debug', '--threads', '1'] });
    const input = many.map((d) => ({ title: d.title, kind: d.kind, eu: d.v, co: d.v, dp: d.v }));
    await ok('mutation ($in: [AddDocInput!]!) { addDoc(input: $in) { numUids } }', { in: input }, debug);
  }, 30_000);

  afterAll(async () => {
    await debug?.stop();
  });

  /** The exact answer: distances as the server computes them, ties in uid (= insertion) order. */
  function exact(metric: Metric, vector: readonly number[], topK: number, set: readonly Doc[], keep: (d: Doc) => boolean = () => true): { title: string; vector_distance: number }[] {
    return set
      .map((d, i) => ({ d, i, dist: d.v === null ? NaN : distance(metric, vector, d.v) }))
      .filter((x) => !Number.isNaN(x.dist))
      .sort((x, y) => x.dist - y.dist || x.i - y.i)
      .slice(0, topK)
      .filter((x) => keep(x.d))
      .map((x) => ({ title: x.d.title, vector_distance: x.dist }));
  }

  async function explained(variables: Record<string, unknown>): Promise<{ list: unknown; explain: string }> {
    const answer = await postGraphql(debug.url, { query: byEmbedding, variables, extensions: { explain: true } });
    const body = (await answer.json()) as { data: { querySimilarDocByEmbedding: unknown }; extensions: { explain: string }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return { list: body.data.querySimilarDocByEmbedding, explain: body.extensions.explain };
  }

  it('euclidean: the exact nearest with exact distances, through the k-d trees, computing far fewer than all distances', async () => {
    for (const v of [[0, 0, 0], [0.125, -0.5, 0.25], [-1, -1, -1], [3, 3, 3]]) {
      const { list, explain } = await explained({ by: 'eu', k: 10, v });
      expect(list).toEqual(exact('eu', v, 10, many));
      const match = /^querySimilarDocByEmbedding: Doc\n {2}nearest 10 by eu \(euclidean\) via hnsw k-d trees over 700 vectors\n {2}ran: examined (\d+), got 10, 10 of the type after the filter$/.exec(explain);
      expect(match, explain).not.toBeNull();
      expect(Number(match?.[1])).toBeLessThan(350);
    }
  });

  it('cosine and dot product scan every vector, exactly', async () => {
    const v = [0.5, -0.25, 1];
    for (const [by, metric] of [['co', 'cosine'], ['dp', 'dotproduct']] as const) {
      const { list, explain } = await explained({ by, k: 7, v });
      expect(list).toEqual(exact(by, v, 7, many));
      expect(explain).toBe(`querySimilarDocByEmbedding: Doc\n  nearest 7 by ${by} (${metric}) via hnsw scan over 700 vectors\n  ran: examined 700, got 7, 7 of the type after the filter`);
    }
  });

  it('the filter applies to the exact topK; updated and deleted vectors are found at their new place only', async () => {
    const v = [0.25, 0.25, -0.5];
    const filtered = await explained({ by: 'eu', k: 12, v, f: { kind: { eq: 'a' } } });
    const want = exact('eu', v, 12, many, (d) => d.kind === 'a');
    expect(filtered.list).toEqual(want);
    expect(filtered.explain).toMatch(new RegExp(`got 12, ${want.length} of the type after the filter$`));
    // Move 300 docs onto the query point's neighbourhood, delete 100 others.
    const moved = many.map((d, i) => (i % 2 === 0 && i < 600 ? { ...d, v: [0.25 + (i % 5) / 8, 0.25, -0.5] } : d));
    for (let i = 0; i < 600; i += 2) {
      await ok('mutation ($t: String!, $v: [Float!]) { updateDoc(input: { filter: { title: { eq: $t } }, set: { eu: $v } }) { numUids } }', { t: `m${i}`, v: moved[i]?.v }, debug);
    }
    await ok('mutation { deleteDoc(filter: { kind: { eq: "a" } }) { numUids } }', undefined, debug);
    const now = moved.map((d) => (d.kind === 'a' ? { ...d, v: null } : d));
    for (const k of [1, 12, 700]) {
      const { list } = await explained({ by: 'eu', k, v });
      expect(list).toEqual(exact('eu', v, k, now));
    }
  }, 60_000);
});
