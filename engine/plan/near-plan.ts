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
 * Per cell met: its box test, its kept order's lookup and a heap entry. (Placing it against the cap,
 * up to six distances, is paid only by the cells the merge reaches: nearPlaceCost.)
 */
export const nearCellCost = 4;
/** Per cell the merge reaches: placed against the cap. */
const nearPlaceCost = 8;
/** Per point of a cell with neither its order nor its least key kept (or its column written since): its key read for the least. */
const nearScanCost = 0.25;
/** Per point of a cell without its order kept that the merge reaches: its keys read, then the first points it can give the page ordered (when one changed); not re-measured since that replaced a whole sort. */
export const nearStaleCost = 1.5;
/** Per point taken from the merge (a heap step over the cells; a crossing cell's point also tested). */
const nearPopCost = 4;
/** Points a layout cell holds on average (geo-point-grid.ts: at most about 128, split by density), to estimate the cells before listing them. */
export const nearCellPoints = 64;

/**
 * The merge of the cap's cells against the cheaper of collecting (the `bound` points of the grid's
 * buckets, `matches` of them ordered) and a walk costing `walk`: `cells` met; about `limit × points /
 * matches` points taken (the matches spread among the cells' points), each at nearPopCost, from about
 * as many cells reached (placed, and ordered when among the `unordered` points' cells); the
 * `unbounded` points read for their cells' least keys.
 */
export function prefersNearCells(limit: number, cells: number, points: number, unbounded: number, unordered: number, matches: number, bound: number, walk: number): boolean {
  if (matches <= 0 || cells <= 0) return false;
  const pops = Math.min(points, (limit * points) / matches);
  // Distinct cells among the pops, taken as spread evenly over the cells.
  const reached = cells * (1 - (1 - 1 / cells) ** pops);
  const cost = nearCellCost * cells + nearPlaceCost * reached + nearScanCost * unbounded + (nearStaleCost * reached * unordered) / cells + nearPopCost * pops;
  return cost < Math.min(walk, collectCost(bound, matches));
}
