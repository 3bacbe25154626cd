// Per-request figures: outcome by status and GraphQL errors, errors read from the answer's first bytes,
// latency buckets (upper bounds inclusive), route labels shared by GraphiQL's files.

import { describe, expect, it } from 'vitest';
import { LatencyTally, latencyBuckets } from '../../../engine/index.js';
import { hasGraphqlErrors, operations, outcomes } from '../../../server/request-figures.js';
import { createRequestFigures } from '../../../server/router.js';
import { graphqlRoute } from '../../../server/routes/graphql-route.js';

/** The labelled counts that are not 0. */
function counted(figures: ReturnType<typeof createRequestFigures>): string[] {
  const found: string[] = [];
  figures.counts.forEach((n, i) => {
    if (n === 0) return;
    const route = figures.routeNames[Math.floor(i / (operations.length * outcomes.length))];
    found.push(`${route} ${operations[Math.floor(i / outcomes.length) % operations.length]} ${outcomes[i % outcomes.length]} ${n}`);
  });
  return found;
}

describe('request figures', () => {
  it('count by route, operation and outcome', () => {
    const figures = createRequestFigures(true);
    const ms = 0.25; // each request's duration, as the router measured it
    figures.record(graphqlRoute, 1, 200, false, false, ms);
    figures.record(graphqlRoute, 1, 200, false, false, ms);
    figures.record(graphqlRoute, 2, 200, true, false, ms);
    figures.record(graphqlRoute, 0, 400, true, false, ms);
    figures.record(graphqlRoute, 0, 413, false, false, ms);
    figures.record(graphqlRoute, 1, 500, true, false, ms);
    figures.record(graphqlRoute, 1, 200, false, true, ms);
    figures.record(undefined, 0, 404, false, false, ms);
    expect(counted(figures)).toEqual(['/graphql none error 1', '/graphql none refused 1', '/graphql query ok 2', '/graphql query failed 1', '/graphql query aborted 1', '/graphql mutation error 1', 'unknown none refused 1']);
    expect(figures.durations[0]?.count).toBe(7);
    expect(figures.durations[0]?.sum).toBeCloseTo((7 * 0.25) / 1000, 12); // seconds
    expect(figures.routeNames.filter((name) => name.startsWith('/graphiql'))).toEqual(['/graphiql/*']);
    expect(figures.routeNames.at(-2)).toBe('graphiql');
  });

  it('read GraphQL errors from the first bytes of the answer', () => {
    expect(hasGraphqlErrors({ kind: 'ok', body: '{"data":{"a":1}}' })).toBe(false);
    expect(hasGraphqlErrors({ kind: 'ok', body: '{"errors":[],"data":null}' })).toBe(true);
    expect(hasGraphqlErrors({ kind: 'ok', body: '', bytes: Buffer.from('{"errors":[{"message":"x"}]}') })).toBe(true);
    expect(hasGraphqlErrors({ kind: 'ok', body: '', bytes: Buffer.from('{"data":null}') })).toBe(false);
    expect(hasGraphqlErrors({ kind: 'request-error', body: '{"data":null}' })).toBe(true);
  });
});

describe('LatencyTally', () => {
  it('puts an observation in the first bucket whose upper bound it does not exceed', () => {
    const tally = new LatencyTally();
    tally.observe(0.00005);
    tally.observe(0.00006);
    tally.observe(31);
    expect(tally.counts[0]).toBe(1);
    expect(tally.counts[1]).toBe(1);
    expect(tally.counts[latencyBuckets.length]).toBe(1);
    expect(tally.count).toBe(3);
    expect(tally.sum).toBeCloseTo(31.00011, 10);
  });
});
