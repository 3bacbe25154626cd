// `near` in a checked walk (exec/filter-check.ts, plan/order-plan.ts prefersWalk with the check's own
// costs): an ordered page of a cap holding many points walks the order index testing each node's
// point; a cap holding few collects its matches from the point grid. Answers equal a naive scan.

import { beforeAll, describe, expect, it } from 'vitest';
import { ExecContext } from '../../../engine/exec/exec-context.js';
import { Graph } from '../../../engine/exec/graph.js';
import { runQueryPlan } from '../../../engine/exec/run-query-plan.js';
import { geoPoint } from '../../../engine/exec/stored-values.js';
import { haversineLngLat } from '../../../engine/indexes/geo-geometry.js';
import { storeEstimates } from '../../../engine/plan/estimates.js';
import { newQueryRun, planQuery } from '../../../engine/plan/query-plan.js';
import { compileSchema } from '../../../engine/schema/compile-schema.js';
import type { TypeModel } from '../../../engine/schema/model.js';

const compiled = compileSchema('type Spot { id: ID!  loc: Point @search  score: Int @search }', {});
if (!compiled.ok) throw new Error('schema');
const spot = compiled.compiled.model.types.get('Spot') as TypeModel;

interface Row {
  readonly id: number;
  readonly lng: number;
  readonly lat: number;
  readonly score: number;
}
const rows: Row[] = [];
let graph: Graph;
let ctx: ExecContext;

// 20,000 spots spread over 20° × 10°, each with a distinct score.
beforeAll(() => {
  graph = new Graph();
  graph.applySchema(compiled.compiled.model);
  const store = graph.store;
  for (let i = 0; i < 20_000; i++) {
    const row = { id: store.createNode(), lng: ((i * 7919) % 20_000) / 1000, lat: ((i * 104_729) % 10_000) / 1000, score: (i * 7) % 20_000 };
    store.addType(row.id, 'Spot');
    store.scalar('Spot.loc').set(row.id, geoPoint({ longitude: row.lng, latitude: row.lat }));
    store.scalar('Spot.score').set(row.id, row.score);
    rows.push(row);
  }
  ctx = new ExecContext(compiled.compiled.model, graph, {}, compiled.compiled.apiSchema);
});

function page(lng: number, lat: number, meters: number): { ids: readonly number[]; expected: number[]; strategy: string } {
  const args = { filter: { loc: { near: { coordinate: { longitude: lng, latitude: lat }, distance: meters } } }, order: { desc: 'score' }, first: 10 };
  const plan = planQuery('querySpot', spot, args, storeEstimates(graph.store));
  const run = newQueryRun();
  const ids = runQueryPlan(ctx, spot, plan, args, run);
  expect(runQueryPlan(ctx, spot, plan, args)).toEqual(ids);
  const expected = rows
    .filter((r) => haversineLngLat(lng, lat, r.lng, r.lat) <= meters)
    .sort((a, b) => b.score - a.score)
    .slice(0, 10)
    .map((r) => r.id);
  return { ids, expected, strategy: run.strategy };
}

describe('near, ordered and paged', () => {
  it('walks the order index testing each point when the cap holds many points, collects when it holds few', () => {
    const wide = page(10, 5, 150_000);
    expect(wide.ids).toEqual(wide.expected);
    expect(wide.strategy).toBe('checked-walk');
    const narrow = page(10, 5, 20_000);
    expect(narrow.ids).toEqual(narrow.expected);
    expect(narrow.strategy).not.toBe('checked-walk');
  });
});
