// An ordered page of a `near` filter over points taken from the geo grid's layout cells (exec/near-page.ts):
// each cell's points kept in the order key's order, the cells wholly inside the cap merged as they are,
// those crossing its edge tested per point, stopping at the page. Its cost does not grow with the points
// in the cap, but with the cells meeting it; the rule below weighs it against collecting and against a
// walk of the order index, with the real figures of the request's cap.

import { withinUniverse, type FilterPlan } from './filter-plan.js';
import { collectCost, type OrderPlan } from './order-plan.js';

/** Whether a plan's page may be merged from the grid's cells: one `near` (geo index) over the type, one number key. */
export function planNearCells(filter: FilterPlan, order: OrderPlan): boolean {
  return filter.op === 'index' && filter.fn === 'near' && filter.index === 'geo' && order.numeric && withinUniverse(filter);
}

/**
 * Per cell met: classifying it against the cap (up to six distances), its cached order's lookup and a
 * heap entry. At 8 the merge ran at 10k for ~15 one-bucket cells where collecting ~60 points was 1.3x
 * faster; at 16 10k collects (request-ab 1.00) and 100k/1M merge (0.53 / 0.15 of collecting or walking).
 */
export const nearCellCost = 16;
/** Per point whose cell's order is not kept (or its column was written since): reading its key again, sorting when it changed. */
export const nearStaleCost = 2;
/** Per point taken from the merge (a heap step over the cells; a crossing cell's point also tested). */
const nearPopCost = 4;
/** Points a layout cell holds on average (geo-point-grid.ts: at most about 128, split by density), to estimate the cells before listing them. */
export const nearCellPoints = 64;

/**
 * The merge of the cap's cells against the cheaper of collecting (the `bound` points of the grid's
 * buckets, `matches` of them ordered) and a walk costing `walk`: `cells` met, each at nearCellCost;
 * `stale` points ordered again; and about `limit × points / matches` points taken (points in the cells,
 * the matches spread among them), each at nearPopCost.
 */
export function prefersNearCells(limit: number, cells: number, points: number, stale: number, matches: number, bound: number, walk: number): boolean {
  if (matches <= 0) return false;
  const pops = Math.min(points, (limit * points) / matches);
  const cost = nearCellCost * cells + nearStaleCost * stale + nearPopCost * pops;
  return cost < Math.min(walk, collectCost(bound, matches));
}
