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
const nearCellPoints = 64;

/** Per whole bucket the merge reaches: placed by four comparisons against the cap's inner box. */
const nearBoxPlaceCost = 1;

/**
 * The merge of the cap's cells against the cheaper of collecting (the `bound` points of the grid's
 * buckets, `matches` of them ordered) and a walk costing `walk`: `cells` met; about `limit × points /
 * matches` points taken (the matches spread among the cells' points), each at nearPopCost, from about
 * as many cells reached (placed, and ordered when among the `unordered` points' cells); the
 * `unbounded` points read for their cells' least keys. `whole`: the cells are whole buckets.
 */
export function prefersNearCells(limit: number, cells: number, points: number, unbounded: number, unordered: number, matches: number, bound: number, walk: number, whole = false): boolean {
  return mergeCost(limit, cells, points, unbounded, unordered, matches, whole) < Math.min(walk, collectCost(bound, matches));
}

function mergeCost(limit: number, cells: number, points: number, unbounded: number, unordered: number, matches: number, whole: boolean): number {
  if (matches <= 0 || cells <= 0) return Infinity;
  const pops = Math.min(points, (limit * points) / matches);
  // Distinct cells among the pops, taken as spread evenly over the cells.
  const reached = cells * (1 - (1 - 1 / cells) ** pops);
  const place = whole ? nearBoxPlaceCost : nearPlaceCost;
  return nearCellCost * cells + place * reached + nearScanCost * unbounded + (nearStaleCost * reached * unordered) / cells + nearPopCost * pops;
}

/**
 * Before listing anything, from the `buckets` met and their `upper` points: the layouts whose merge
 * costs less than collecting and than the walk even with no order kept yet (a merge never run for a
 * cap keeps none, so a warm price alone would list cells only to give up), cheapest first once their
 * orders are kept. 'buckets' takes each bucket as one cell: fewer heap entries, each placed by four
 * comparisons. 'cells' are the buckets' density cells (geo-point-grid.ts), which hug the cap's edge
 * (about `side` cells across a bucket cut the points outside the cap, taken and tested, by about
 * 1/side) but are each listed, looked up and placed by up to six distances; with no bucket split they
 * are the buckets. At 1M a 150 km cap meets ~20 buckets split into ~60 cells: the cells' own cost was
 * most of the request, the points they saved a few heap steps.
 */
export function nearLayouts(limit: number, buckets: number, upper: number, matches: number, walk: number): ('buckets' | 'cells')[] {
  const cells = Math.max(buckets, upper / nearCellPoints);
  const side = Math.sqrt(cells / buckets);
  const beat = Math.min(walk, collectCost(upper, matches));
  const cellPoints = matches + (upper - matches) / side;
  const layouts: { layout: 'buckets' | 'cells'; cold: number; warm: number }[] = [
    { layout: 'buckets', cold: mergeCost(limit, buckets, upper, upper, upper, matches, true), warm: mergeCost(limit, buckets, upper, 0, 0, matches, true) },
  ];
  if (side > 1) layouts.push({ layout: 'cells', cold: mergeCost(limit, cells, cellPoints, upper, upper, matches, false), warm: mergeCost(limit, cells, cellPoints, 0, 0, matches, false) });
  return layouts
    .filter((l) => l.cold < beat)
    .sort((a, b) => a.warm - b.warm)
    .map((l) => l.layout);
}
