// Plan goldens (query-plan-goldens.ts): index choice, intersection order and order strategy from
// index statistics. query-plan-runs.test.ts runs each of them against data.

import { describe, expect, it } from 'vitest';
import { explainQuery } from '../../../engine/plan/explain.js';
import { choosePage, planOrder, prefersCheckedWalk, prefersIndexWalk, prefersTopK } from '../../../engine/plan/order-plan.js';
import { planQuery } from '../../../engine/plan/query-plan.js';
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

  it('walks the order index checking the filter only when the expected visits cost less than collecting the bound', () => {
    // Two fulltext words in ~3% of 100k posts each, matching ~90 together: the walk would visit ~44k entries.
    expect(prefersCheckedWalk(10, 100_000, 90, 2_960)).toBe(false);
    // A term in 4% of 1M posts and a range keeping half of them: ~800 visits against 40k collected.
    expect(prefersCheckedWalk(10, 1_000_000, 20_000, 40_000)).toBe(true);
    // The boundary: 10 × 10,000 × 4 / 400 = 1,000 visits.
    expect(prefersCheckedWalk(10, 10_000, 400, 1_001)).toBe(true);
    expect(prefersCheckedWalk(10, 10_000, 400, 1_000)).toBe(false);
    expect(prefersCheckedWalk(10, 10_000, 0, 0)).toBe(false);
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
});
