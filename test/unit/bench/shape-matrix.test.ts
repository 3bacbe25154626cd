// The benchmark's shape matrix (bench/matrix/) against the engine in process: every shape's checked
// variants are answered as the linear scan over the data set says (the same check the suite makes
// before timing), a wrong answer is refused, the bodies vary per request, and a unique mutation body
// carries the request number where the load generator puts it.

import { buildSchema, defaultFieldResolver, graphql, type GraphQLFieldResolver } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostStore } from '../../../bench/contenders/peer/post-store.js';
import { peerResolvers } from '../../../bench/contenders/peer/resolvers.js';
import { peerSdl } from '../../../bench/schema.js';
import type { Engine } from '../../../engine/index.js';
import { generateDataset } from '../../../bench/data/dataset.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkAnswer, requestBodies } from '../../../bench/load/check-answer.js';
import { bodyOfRequest } from '../../../bench/load/autocannon-run.js';
import { checkedVariants, idPool } from '../../../bench/matrix/varied-shape.js';
import { loadedEngine, run } from '../../../bench/micro/engine-fixture.js';
import { buildScenarios, readScenarios, type ContenderIds } from '../../../bench/scenarios.js';

const data = generateDataset({ posts: 2_000, authors: 200 });
let engine: Engine;
let ids: ContenderIds;

const answer = async (document: string, variables: Record<string, unknown>): Promise<unknown> => (JSON.parse(await run(engine, document, variables)) as { data: unknown }).data;

beforeAll(async () => {
  engine = await loadedEngine(data);
  const found = (await answer('query ($s: [String]) { queryPost(filter: { slug: { in: $s } }) { id slug } }', { s: idPool(data) })) as { queryPost: { id: string; slug: string }[] };
  const bySlug = new Map(found.queryPost.map((p) => [p.slug, p.id]));
  ids = { idOf: (slug) => bySlug.get(slug) ?? 'missing' };
}, 60_000);
afterAll(async () => {
  await engine?.close();
});

describe('shape matrix', () => {
  it('has at least 20 read shapes covering the issue #20 list, plus add, update and delete', () => {
    const names = buildScenarios(data).map((s) => s.name);
    expect(readScenarios(data).length).toBeGreaterThanOrEqual(20);
    for (const name of ['get-by-id', 'get-by-xid', 'hash-eq', 'hash-in', 'term-all-2', 'term-all-3', 'term-any', 'fulltext', 'fulltext-any', 'regexp', 'ngram', 'int-between', 'int-gt', 'float-between', 'datetime-between', 'has', 'geo-near', 'and-or-not', 'nested-edge', 'inverse-list', 'interface', 'cascade', 'aggregate', 'count', 'nested-aggregate', 'similar', 'add', 'update', 'delete']) {
      expect(names, name).toContain(name);
    }
  });

  it('the engine answers every checked variant of every shape as the scan does', async () => {
    for (const scenario of buildScenarios(data)) {
      const count = scenario.numbered !== undefined ? 1 : checkedVariants;
      for (let n = 0; n < count; n++) {
        const got = await answer(scenario.document, scenario.variables(ids, n, 'test'));
        expect(scenario.check(got, ids, n, 'test'), `${scenario.name} request ${n}`).toBeNull();
      }
    }
  }, 120_000);

  it('refuses the answer to another variant (each read shape)', async () => {
    for (const scenario of readScenarios(data)) {
      let refused = false;
      for (let n = 1; n < checkedVariants && !refused; n++) {
        const other = await answer(scenario.document, scenario.variables(ids, n, 'test'));
        refused = scenario.check(other, ids, 0, 'test') !== null;
      }
      expect(refused, scenario.name).toBe(true);
    }
  }, 60_000);

  it('the peers answer every shape marked for them as the scan does (they run only those)', async () => {
    const schema = buildSchema(peerSdl);
    const resolvers = peerResolvers(PostStore.fromDataset(data), 'http://127.0.0.1:9/unused') as unknown as Record<string, Record<string, GraphQLFieldResolver<unknown, object>>>;
    const fieldResolver: GraphQLFieldResolver<unknown, object> = (source, args, context, info) =>
      (resolvers[info.parentType.name]?.[info.fieldName] ?? defaultFieldResolver)(source, args, context, info);
    const ask = async (source: string, variableValues: Record<string, unknown>): Promise<unknown> => {
      const result = await graphql({ schema, source, variableValues, contextValue: {}, fieldResolver });
      expect(result.errors).toBeUndefined();
      return result.data;
    };
    const pool = (await ask('query ($s: [String]) { queryPost(filter: { slug: { in: $s } }) { id slug } }', { s: idPool(data) })) as { queryPost: { id: string; slug: string }[] };
    const peerIds = new Map(pool.queryPost.map((p) => [p.slug, p.id]));
    const theirs: ContenderIds = { idOf: (slug) => peerIds.get(slug) ?? 'missing' };
    const marked = buildScenarios(data).filter((s) => s.peers);
    expect(marked.map((s) => s.name)).toEqual(['get-by-id', 'get-by-xid', 'filtered-list', 'fulltext', 'hash-eq', 'hash-in', 'term-all-3', 'term-any', 'fulltext-any', 'int-gt', 'and-tree', 'add']);
    for (const scenario of marked) {
      const count = scenario.numbered !== undefined ? 1 : checkedVariants;
      for (let n = 0; n < count; n++) {
        const got = await ask(scenario.document, scenario.variables(theirs, n, 'peer'));
        expect(scenario.check(got, theirs, n, 'peer'), `${scenario.name} request ${n}`).toBeNull();
      }
    }
  });

  it('the check before timing finds a contender that answers only the 20th checked request wrongly', async () => {
    const scenario = readScenarios(data).find((s) => s.name === 'int-between');
    if (scenario === undefined) throw new Error('no int-between shape');
    let served = 0;
    // The engine behind HTTP, with the last post of the 20th answer dropped.
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { query, variables } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string; variables: Record<string, unknown> };
        void run(engine, query, variables).then((body) => {
          const reply = JSON.parse(body) as { data: { queryPost: unknown[] } };
          if (++served === checkedVariants) reply.data.queryPost.pop();
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
      const wrong = await checkAnswer(url, scenario, ids, 'test');
      expect(served).toBe(checkedVariants);
      expect(wrong).toMatch(new RegExp(`^request ${checkedVariants - 1} \\(.*\\): data\\.queryPost: expected 10 items, got 9$`));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('varies the bodies: 1,000 per shape, most of them distinct', () => {
    for (const scenario of readScenarios(data)) {
      const bodies = requestBodies(scenario, ids, 'test');
      if (bodies.kind !== 'list') throw new Error(`${scenario.name}: not a list`);
      expect(bodies.bodies.length, scenario.name).toBe(1_000);
      // One title word of 150 is the least varied parameter (filtered-list, count).
      expect(new Set(bodies.bodies).size, scenario.name).toBeGreaterThanOrEqual(140);
    }
  });

  it('numbers each add body uniquely where the load generator counts', () => {
    const add = buildScenarios(data).find((s) => s.name === 'add');
    if (add === undefined) throw new Error('no add shape');
    const bodies = requestBodies(add, ids, 'tag');
    expect(bodies.kind).toBe('counter');
    const body = bodyOfRequest(bodies);
    expect(body(4)).toBe(JSON.stringify({ query: add.document, variables: add.variables(ids, 4, 'tag') }));
    const input = (JSON.parse(body(4)) as { variables: { input: { slug: string; score: number }[] } }).variables.input[0];
    expect(input).toMatchObject({ slug: 'bench-tag-5', score: -5 });
    expect(body(1004)).toBe(JSON.stringify({ query: add.document, variables: add.variables(ids, 1004, 'tag') }));
    // The author comes from the variant: consecutive adds do not all grow one author's inverse list.
    const authorOf = (n: number): unknown => (JSON.parse(body(n)) as { variables: { input: { author: unknown }[] } }).variables.input[0]?.author;
    expect(authorOf(5)).not.toEqual(authorOf(4));
    expect(authorOf(1004)).toEqual(authorOf(4));
  });
});
