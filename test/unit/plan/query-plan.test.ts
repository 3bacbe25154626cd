// Plan goldens (query-plan-goldens.ts): index choice, intersection order and order strategy from
// index statistics. query-plan-runs.test.ts runs each of them against data.

import { describe, expect, it } from 'vitest';
import { explainQuery } from '../../../engine/plan/explain.js';
import { choosePage, planOrder, checkedVisitCost, listOrderPrice, listOrderRent, listPrefixesRent, prefersIndexWalk, prefersListOrder, prefersListPrefixes, prefersTopK, prefersWalk, typedTestCost, walkCost } from '../../../engine/plan/order-plan.js';
import { planQuery } from '../../../engine/plan/query-plan.js';
import { nearLayouts, prefersNearCells } from '../../../engine/plan/near-plan.js';
import { goldenEstimates as estimates, planGoldens, post } from './query-plan-goldens.js';

const explain = (args: Record<string, unknown>) => explainQuery(planQuery('queryPost', post, args, estimates), args);

describe('query plans', () => {
  for (const golden of planGoldens) {
    it(golden.name, () => expect(explain(golden.args)).toBe(golden.explain.join('\n')));
  }

  it('prefers the walk only when the candidates are a large share of the type', () => {
    expect(prefersIndexWalk(10, 400, 10_000)).toBe(false);
    expect(prefersIndexWalk(10, 5_000, 10_000)).toBe(true);
    expect(prefersIndexWalk(10, 40, 40)).toBe(false); // a page as large as a quarter of the candidates: sort
  });

  it('walks testing each node only when the expected visits cost less than collecting the bound and ordering the matches', () => {
    // Two fulltext words in ~3% of 100k posts each, matching ~90 together: the walk would visit ~11k entries.
    expect(prefersWalk(10, 100_000, 90, 2_960, checkedVisitCost)).toBe(false);
    // A term in 4% of 1M posts and a range keeping half of them: ~500 visits against 40k collected.
    expect(prefersWalk(10, 1_000_000, 20_000, 40_000, checkedVisitCost)).toBe(true);
    // The boundary: 10 × 10,000 / 100 = 1,000 visits × 16 against the bound + 3 × 100.
    expect(prefersWalk(10, 10_000, 100, 15_701, checkedVisitCost)).toBe(true);
    expect(prefersWalk(10, 10_000, 100, 15_700, checkedVisitCost)).toBe(false);
    // Two title words in ~4% of 10k posts each, offset up to 45: ~690 visits; collecting ~800 ids was
    // measured 2.5x faster than the walk.
    expect(prefersWalk(55, 11_000, 800, 800, checkedVisitCost)).toBe(false);
    expect(prefersWalk(10, 10_000, 0, 0, checkedVisitCost)).toBe(false);
    // Typed tests (a streamed range, bound = matches): a walk while visits < 4 × matches.
    expect(prefersWalk(10, 1_000_000, 1_582, 1_582, typedTestCost)).toBe(true);
    expect(prefersWalk(10, 1_000_000, 1_581, 1_581, typedTestCost)).toBe(false);
    // A near filter: ~3,100 of 1M posts in ~8,200 grid points collects at a visit's measured cost.
    expect(prefersWalk(10, 1_000_000, 3_100, 8_200, checkedVisitCost)).toBe(false);
    expect(prefersWalk(10, 100_000, 310, 820, checkedVisitCost)).toBe(false);
  });

  it('merges a near page from the grid cells when their count and the points taken cost less than collecting and than a walk', () => {
    // geo-near at 1M: a 150 km cap meets ~50 cells of ~100 points (~5,000), ~3,100 match, in ~8,200 bucket points.
    const walk1m = walkCost(10, 1_000_000, 3_100, checkedVisitCost);
    expect(prefersNearCells(10, 50, 5_000, 0, 0, 3_100, 8_200, walk1m)).toBe(true);
    // Every cell's least key and order to read again (after a write to the order key) still beats collecting there.
    expect(prefersNearCells(10, 50, 5_000, 5_000, 5_000, 3_100, 8_200, walk1m)).toBe(true);
    // At 10k the same cap meets ~15 buckets of ~4 points, ~38 match: collecting ~60 points is cheaper.
    expect(prefersNearCells(10, 15, 60, 0, 0, 38, 60, walkCost(10, 10_000, 38, checkedVisitCost))).toBe(false);
    // A narrow cap: a few points in one cell.
    expect(prefersNearCells(10, 1, 5, 0, 0, 2, 5, Infinity)).toBe(false);
    // A cap holding most of the type: the walk of the order index visits ~12 nodes.
    expect(prefersNearCells(10, 400, 900_000, 0, 0, 800_000, 950_000, walkCost(10, 1_000_000, 800_000, checkedVisitCost))).toBe(false);
    expect(prefersNearCells(10, 50, 5_000, 0, 0, 0, 8_200, Infinity)).toBe(false);

  });

  it('merges whole buckets for a cap over many, density cells for one inside a few dense buckets, priced with no order kept', () => {
    // geo-near at 1M: ~20 buckets of ~410 points (each split into 4 cells), ~3,100 matches; at 100k ~41 points (no split).
    expect(nearLayouts(10, 20, 8_200, 3_100, walkCost(10, 1_000_000, 3_100, checkedVisitCost))).toEqual(['buckets', 'cells']);
    expect(nearLayouts(10, 20, 820, 310, walkCost(10, 100_000, 310, checkedVisitCost))).toEqual(['buckets']);
    // Two buckets of 3,000 points (8 × 8 cells each): the cells cut the points taken ~5x; a cap holding 300 or
    // 1,000 of them merges the cells (whole buckets would order 6,000 points first: collecting costs less).
    expect(nearLayouts(10, 2, 6_000, 300, Infinity)).toEqual(['cells']);
    expect(nearLayouts(10, 2, 6_000, 1_000, Infinity)).toEqual(['cells']);
    // Holding 100, ordering either layout's points costs more than collecting them.
    expect(nearLayouts(10, 2, 6_000, 100, Infinity)).toEqual([]);
    // At 10k collecting ~60 points; a cap over nothing: no merge.
    expect(nearLayouts(10, 15, 60, 38, walkCost(10, 10_000, 38, checkedVisitCost))).toEqual([]);
    expect(nearLayouts(10, 0, 0, 0, Infinity)).toEqual([]);
  });

  it('keeps top-k for small pages only: k ≤ a quarter of the candidates and k² ≤ 64 × candidates', () => {
    expect(prefersTopK(800, 10_000)).toBe(true);
    expect(prefersTopK(801, 10_000)).toBe(false);
    expect(prefersTopK(8_000, 1_000_000)).toBe(true);
    expect(prefersTopK(2, 8)).toBe(false);
    expect(prefersTopK(2, 9)).toBe(true);
    // Ordered by a hash-only field (no walk): a deep offset over 10,000 nodes sorts (and keeps the order).
    const byTitle = planOrder(post, { asc: 'title' }, true);
    expect(choosePage(byTitle, 805, 10_000, 10_000)).toBe('sort');
    expect(choosePage(byTitle, 15, 10_000, 10_000)).toBe('top-k');
  });

  it('orders an index list once its rent (pages that went without its order) reaches the price of ordering it', () => {
    // fulltext at 1M: a 29.6k driver, ~877 matches, a walk of 182k units: ordering the list (59.2k)
    // costs more than collecting (32.2k), so the first page collects and pays 32.2k - 338 of rent.
    const walk = 182_000;
    expect(prefersListOrder(10, 29_600, 877, listOrderPrice(29_600), walk)).toBe(false);
    const rent = listOrderRent(10, 29_600, 877, walk);
    expect(rent).toBeCloseTo(29_600 + 3 * 877 - (10 * 29_600) / 877, 6);
    // After one page the rest of the price plus the cached visits cost less than collecting again:
    // the second page orders the list, and later ones read the cached order.
    expect(prefersListOrder(10, 29_600, 877, listOrderPrice(29_600) - rent, walk)).toBe(true);
    expect(prefersListOrder(10, 29_600, 877, 0, walk)).toBe(true);
    // No rent where the cached order would not be read either: a prefix past what the cache keeps.
    expect(listOrderRent(10, 29_600, 300, walk)).toBe(0);
    expect(prefersListOrder(10, 29_600, 300, 0, walk)).toBe(false);
    // Nor where the walk is cheaper than even the cached order's visits.
    expect(listOrderRent(10, 29_600, 877, 300)).toBe(0);
  });

  it('merges cached first k of a union once its rent reaches the lists\' price', () => {
    // anyoftext of two 30k lists at 1M, offset up to 45: a walk of 55 x 1M / 59k x 16 = 14.9k units.
    const walk = (55 * 1_000_000 * 16) / 59_000;
    expect(prefersListPrefixes(55, 2, 2 * listOrderPrice(29_500), walk)).toBe(false);
    expect(listPrefixesRent(55, 2, walk)).toBeCloseTo(walk - 110, 6);
    expect(prefersListPrefixes(55, 2, 0, walk)).toBe(true);
    // Without a walk the prefixes are taken at once (collecting would order every list): no rent.
    expect(listPrefixesRent(55, 2, Infinity)).toBe(0);
    expect(prefersListPrefixes(55, 2, 2 * listOrderPrice(29_500), Infinity)).toBe(true);
  });
});
