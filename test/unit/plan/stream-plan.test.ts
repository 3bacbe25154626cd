// Which filters may be streamed (checked node by node) and which walk the adaptive rule picks: only
// single-valued Int/Float/DateTime comparisons with their range index and `has` of a scalar are
// checkable; a range on the order key is walked from its bound; other walks only when the estimated
// matches make them cheaper than collecting.

import { describe, expect, it } from 'vitest';
import { planQuery } from '../../../engine/plan/query-plan.js';
import { chooseStream } from '../../../engine/plan/stream-plan.js';
import { compileSchema } from '../../../engine/schema/compile-schema.js';
import type { TypeModel } from '../../../engine/schema/model.js';
import type { Estimates } from '../../../engine/plan/estimates.js';

const compiled = compileSchema(
  `type Item {
  id: ID!
  score: Int @search
  rating: Float @search
  big: Int64 @search
  published: DateTime @search(by: [day])
  tags: [Int] @search
  title: String @search(by: [term])
  note: String
  flag: Boolean @search
  owner: Item
}`,
  {},
);
if (!compiled.ok) throw new Error('schema');
const item = compiled.compiled.model.types.get('Item') as TypeModel;
const estimates: Estimates = { typeCount: () => 1_000_000, indexSize: () => ({ entries: 1_000_000, keys: 1_000_000 }) };
const plan = (args: Record<string, unknown>) => planQuery('queryItem', item, args, estimates);

describe('planStream', () => {
  it('a range on the order key drives the walk and is one of the ranges', () => {
    const p = plan({ filter: { score: { gt: 1 } }, order: { asc: 'score' } });
    expect(p.stream?.driver).toBe(p.filter);
    expect(p.stream?.ranges).toEqual([p.filter]);
  });

  it('a range on another key than the order is checkable, with no driver', () => {
    const p = plan({ filter: { published: { ge: '2024-01-01' }, rating: { lt: 3 } }, order: { desc: 'score' } });
    expect(p.stream?.driver).toBeUndefined();
    expect(p.stream?.ranges.map((n) => (n.op === 'index' ? n.field : n.op)).sort()).toEqual(['published', 'rating']);
  });

  it('or / not / has of scalars are checkable; ranges inside them do not drive', () => {
    const p = plan({ filter: { or: [{ score: { lt: 1 } }, { not: { has: ['note'] } }] }, order: { asc: 'score' } });
    expect(p.stream).toEqual({ driver: undefined, ranges: [] });
  });

  it('is not planned for term, Boolean, Int64, list, no filter, or two order keys', () => {
    expect(plan({ filter: { title: { allofterms: 'a' } } }).stream).toBeUndefined();
    expect(plan({ filter: { score: { gt: 1 }, flag: true } }).stream).toBeUndefined();
    expect(plan({ filter: { big: { gt: 1 } } }).stream).toBeUndefined();
    expect(plan({ filter: { tags: { gt: 1 } } }).stream).toBeUndefined();
    expect(plan({ order: { asc: 'score' } }).stream).toBeUndefined();
    expect(plan({ filter: { score: { gt: 1 } }, order: { asc: 'score', then: { desc: 'rating' } } }).stream).toBeUndefined();
  });

  it('`has` names its field by a value, known only when run: planned, and an edge field is collected then', () => {
    expect(plan({ filter: { has: ['note'] } }).stream).toEqual({ driver: undefined, ranges: [] });
    expect(plan({ filter: { has: ['owner'] } }).stream).toEqual({ driver: undefined, ranges: [] });
  });
});

describe('chooseStream', () => {
  const ordered = plan({ filter: { rating: { gt: 1 } }, order: { desc: 'score' } });
  const unordered = plan({ filter: { rating: { gt: 1 } } });
  const unindexedOrder = plan({ filter: { rating: { gt: 1 } }, order: { asc: 'note' } });
  const own = plan({ filter: { score: { gt: 1 } }, order: { desc: 'score' } });

  it('walks a range on the order key whatever the counts, even without a page', () => {
    expect(chooseStream(own.stream!, own.order, 10, 0, 1_000_000)).toBe('range-walk');
    expect(chooseStream(own.stream!, own.order, undefined, 0, 1_000_000)).toBe('range-walk');
  });

  it('walks when limit × total / matches is under four steps per match, else collects', () => {
    // 10 × 1M / 20k = 500 steps < 80k: walk. 10 × 1M / 100 = 100k steps > 400: collect.
    expect(chooseStream(ordered.stream!, ordered.order, 10, 20_000, 1_000_000)).toBe('walk-check');
    expect(chooseStream(ordered.stream!, ordered.order, 10, 100, 1_000_000)).toBeUndefined();
    expect(chooseStream(unordered.stream!, unordered.order, 100, 500_000, 1_000_000)).toBe('scan-check');
    expect(chooseStream(unordered.stream!, unordered.order, 100, 0, 1_000_000)).toBeUndefined();
  });

  it('collects without a page, or when the order key has no index to walk', () => {
    expect(chooseStream(ordered.stream!, ordered.order, undefined, 500_000, 1_000_000)).toBeUndefined();
    expect(chooseStream(unindexedOrder.stream!, unindexedOrder.order, 10, 500_000, 1_000_000)).toBeUndefined();
  });
});
