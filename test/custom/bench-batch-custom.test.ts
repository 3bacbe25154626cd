// The suite's batch-custom scenario end to end, before any timing depends on it: the loopback upstream
// (its own process), the service with `Post.ref` as a BATCH @custom field, and the peers' resolvers with
// their per-request batch loader must all give the scenario's expected answer in one upstream call.

import { join } from 'node:path';
import { buildSchema, defaultFieldResolver, graphql, type GraphQLFieldResolver } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostStore } from '../../bench/contenders/peer/post-store.js';
import { peerResolvers } from '../../bench/contenders/peer/resolvers.js';
import { generateDataset } from '../../bench/data/dataset.js';
import { checkAnswer, resolveIds } from '../../bench/load/check-answer.js';
import { loadService } from '../../bench/load/load-service.js';
import { ceilingIds } from '../../bench/matrix/varied-shape.js';
import { batchCustomScenario, customPageSize } from '../../bench/scenarios.js';
import { peerSdl, refPath } from '../../bench/schema.js';
import { startUpstream, type RunningUpstream } from '../../bench/upstream/upstream-client.js';
import { projectRoot, startServer, type ServerProcess } from '../integration/helpers/server-process.js';

const data = generateDataset({ posts: 300, authors: 30 });
const scenario = batchCustomScenario(data);
let upstream: RunningUpstream;
let server: ServerProcess;

beforeAll(async () => {
  [upstream, server] = await Promise.all([
    startUpstream({ pin: { pinned: false, note: '' }, core: 0, delayMs: 0, entry: join(projectRoot, 'dist/bench/upstream/mock-upstream.js') }),
    startServer({ args: [] }),
  ]);
  await loadService(server.url, data, upstream.url);
});
afterAll(async () => {
  await Promise.all([upstream?.stop(), server?.stop()]);
});

describe('batch-custom scenario', () => {
  it('the service answers it with one BATCH call carrying the whole page', async () => {
    const ids = await resolveIds(`${server.url}/graphql`, data);
    await upstream.reset();
    expect(await checkAnswer(`${server.url}/graphql`, scenario, ids, 'test')).toBeNull();
    const stats = await upstream.stats();
    expect(stats.calls).toBe(1);
    const sent = JSON.parse(stats.lastListBody ?? '[]') as { slug: string; score: number }[];
    expect(sent).toHaveLength(customPageSize);
    expect(stats.lastListBody).toMatch(/^\[\{"score":-?\d+,"slug":"[^"]+"\}/);
  });

  it('the peers answer it with one call per request, batched per request context', async () => {
    const schema = buildSchema(peerSdl);
    const resolvers = peerResolvers(PostStore.fromDataset(data), `${upstream.url}${refPath}`) as unknown as Record<string, Record<string, GraphQLFieldResolver<unknown, object>>>;
    // The resolver map the peers hand their servers, applied the way graphql-tools does.
    const fieldResolver: GraphQLFieldResolver<unknown, object> = (source, args, context, info) =>
      (resolvers[info.parentType.name]?.[info.fieldName] ?? defaultFieldResolver)(source, args, context, info);
    const variables = scenario.variables(ceilingIds, 0, 'test');
    await upstream.reset();
    const [one, two] = await Promise.all([
      graphql({ schema, source: scenario.document, variableValues: variables, contextValue: {}, fieldResolver }),
      graphql({ schema, source: scenario.document, variableValues: variables, contextValue: {}, fieldResolver }),
    ]);
    expect(one.errors).toBeUndefined();
    expect(scenario.check(one.data, ceilingIds, 0, 'test')).toBeNull();
    expect(scenario.check(two.data, ceilingIds, 0, 'test')).toBeNull();
    // Two concurrent requests: two calls, never one shared or one per post.
    expect((await upstream.stats()).calls).toBe(2);
  });

  it('the check refuses a wrong ref', () => {
    const answer = scenario.sample(ceilingIds) as { queryPost: { ref: string }[] };
    const wrong = { queryPost: answer.queryPost.map((p, i) => (i === 3 ? { ...p, ref: 'up:nope' } : p)) };
    expect(scenario.check(wrong, ceilingIds, 0, 'test')).toMatch(/queryPost\[3\]\.ref/);
  });
});
