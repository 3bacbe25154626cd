// Plan goldens (query-plan-goldens.ts): index choice, intersection order and order strategy from
// index statistics. query-plan-runs.test.ts runs each of them against data.

import { describe, expect, it } from 'vitest';
import { explainQuery } from '../../../engine/plan/explain.js';
import { choosePage, planOrder, prefersIndexWalk, prefersTopK } from '../../../engine/plan/order-plan.js';
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
