// The ski rental of index lists' cached order (plan/order-plan.ts listOrderRent): a page that walks
// the order index because ordering a list once costs more than the walk pays rent toward that order,
// and once the rent reaches the price the list is ordered and later pages read its cached first k.
// Every answer is compared with a naive scan; the strategy sequence shows the planner switching at
// the computed request (not before: one request never orders a list it could walk past), starting
// over after the order column is written, and never switching when the cached order would not pay.

import { beforeAll, describe, expect, it } from 'vitest';
import { ExecContext } from '../../../engine/exec/exec-context.js';
import { Graph } from '../../../engine/exec/graph.js';
import { runQueryPlan } from '../../../engine/exec/run-query-plan.js';
import { storeEstimates } from '../../../engine/plan/estimates.js';
import { newQueryRun, planQuery } from '../../../engine/plan/query-plan.js';
import { compiledPost, post } from '../plan/query-plan-goldens.js';
import { prng } from './seeded.js';

interface Row {
  readonly id: number;
  readonly words: readonly string[];
  likes: number | undefined;
}

const rows: Row[] = [];
let graph: Graph;
let ctx: ExecContext;

// 4,000 posts: `red` or `blue` (half each), `green` or `gold` (half each), one of four words (a
// quarter each), a word of its own; likes 0..499 (ties), every 17th post without.
beforeAll(() => {
  const draw = highBits(prng(11));
  ({ graph, ctx } = postsOf(4000, rows, (i) => ({
    words: [draw(2) === 0 ? 'red' : 'blue', draw(2) === 0 ? 'green' : 'gold', ['cyan', 'pink', 'grey', 'teal'][draw(4)] as string, `w${i}`],
    likes: i % 17 === 0 ? undefined : draw(500),
  })));
});

/** A graph of `count` posts made by `make` (title words, likes), pushed to `into`. */
function postsOf(count: number, into: Row[], make: (i: number) => Omit<Row, 'id'>): { graph: Graph; ctx: ExecContext } {
  const graph = new Graph();
  graph.applySchema(compiledPost.model);
  const store = graph.store;
  for (let i = 0; i < count; i++) {
    const row: Row = { id: store.createNode(), ...make(i) };
    store.addType(row.id, 'Post');
    store.scalar('Post.title').set(row.id, row.words.join(' '));
    if (row.likes !== undefined) store.scalar('Post.likes').set(row.id, row.likes);
    into.push(row);
  }
  return { graph, ctx: new ExecContext(compiledPost.model, graph, {}, compiledPost.apiSchema) };
}

/**
 * Draws from the generator's higher bits: its low bits repeat with short periods (the lowest one
 * alternates), which tied `red`/`green` to `likes` (every `red green` post ranked below the others in
 * likes order, and the list-order walk read the whole list where the lists taken as independent say 20).
 */
function highBits(raw: (n: number) => number): (n: number) => number {
  return (n) => Math.floor((raw(2 ** 24) / 2 ** 24) * n);
}

/** The naive page: rows kept, by likes descending (missing last), ties by id. */
function naive(keep: (row: Row) => boolean, first: number): number[] {
  const kept = rows.filter(keep);
  kept.sort((a, b) => {
    if (a.likes === undefined || b.likes === undefined) return a.likes === b.likes ? a.id - b.id : a.likes === undefined ? 1 : -1;
    return a.likes === b.likes ? a.id - b.id : b.likes - a.likes;
  });
  return kept.slice(0, first).map((r) => r.id);
}

/** Runs the page `times` times (one request each), checking every answer; returns the strategies taken. */
function strategies(filter: Record<string, unknown>, keep: (row: Row) => boolean, times: number): string[] {
  const args = { filter, order: { desc: 'likes' }, first: 10 };
  const plan = planQuery('queryPost', post, args, storeEstimates(graph.store));
  const taken: string[] = [];
  for (let i = 0; i < times; i++) {
    const trace = newQueryRun();
    expect(runQueryPlan(ctx, post, plan, args, trace)).toEqual(naive(keep, 10));
    taken.push(trace.strategy);
  }
  return taken;
}

const has = (row: Row, ...words: string[]): boolean => words.every((w) => row.words.includes(w));

/** Where the strategies switch to `cached` for good (every later one is `cached`, none before); -1: never. */
function switchAt(taken: readonly string[], cached: string): number {
  const at = taken.indexOf(cached);
  if (at < 0) return -1;
  expect(taken.slice(at).every((s) => s === cached)).toBe(true);
  return at;
}

describe('ski rental of a list order', () => {
  it('an allofterms page walks the order index until its rent pays for ordering the smallest list, then reads that order', () => {
    // Driver ~2,000 ids, ~1,000 matches: each page without the order costs 640 units (the walk's
    // estimate) where the cached order costs 20 (rent 620); ordering the list costs 2 × 2,000.
    const taken = strategies({ title: { allofterms: 'red green' } }, (r) => has(r, 'red', 'green'), 12);
    const at = switchAt(taken, 'list-order');
    expect(at).toBeGreaterThanOrEqual(5);
    expect(at).toBeLessThanOrEqual(8);
  });

  it('starts over after the order column is written (the cached order and the rent are gone)', () => {
    const row = rows[5] as Row;
    row.likes = 499;
    graph.store.scalar('Post.likes').set(row.id, 499);
    const taken = strategies({ title: { allofterms: 'red green' } }, (r) => has(r, 'red', 'green'), 10);
    expect(switchAt(taken, 'list-order')).toBeGreaterThanOrEqual(5);
  });

  it('an anyofterms page walks until its rent pays for ordering each list, then merges their first k', () => {
    // Two lists of ~1,000: the walk costs 320, merging cached first k 20 (rent 300); ordering both
    // costs 2 × 2,000.
    const taken = strategies({ title: { anyofterms: 'cyan pink' } }, (r) => r.words.includes('cyan') || r.words.includes('pink'), 16);
    const at = switchAt(taken, 'top-k');
    expect(taken.slice(0, at).every((s) => s === 'checked-walk')).toBe(true);
    expect(at).toBeGreaterThanOrEqual(11);
    expect(at).toBeLessThanOrEqual(15);
  });

  it('never orders the list when its cached order would not pay either (few matches: too many visits)', () => {
    // ~20 matches of a ~2,000 list: about 1,000 visits in list order, more than a cached prefix holds.
    const keep = (r: Row): boolean => has(r, 'red', 'green') && r.likes !== undefined && r.likes < 10;
    const taken = strategies({ title: { allofterms: 'red green' }, likes: { lt: 10 } }, keep, 20);
    expect(taken.filter((s) => s === 'list-order')).toEqual([]);
  });
});

describe('a list-order page whose matches come later than estimated', () => {
  // 6,000 posts: `alpha` on the first 4,000, `beta` on the last 4,000; the 2,000 holding both have the
  // lowest likes (0..99), the others 100..499. The count estimate is fine (lists taken as independent:
  // ~2,700 matches of alpha's 4,000), but in likes order every match comes after alpha's 2,000 others.
  const own: Row[] = [];
  let ownGraph: Graph;
  let ownCtx: ExecContext;
  beforeAll(() => {
    const draw = prng(5);
    ({ graph: ownGraph, ctx: ownCtx } = postsOf(6000, own, (i) => ({
      words: [...(i < 4000 ? ['alpha'] : []), ...(i >= 2000 ? ['beta'] : []), `w${i}`],
      likes: i >= 2000 && i < 4000 ? draw(100) : 100 + draw(400),
    })));
  });

  it('walks the whole order of the list once the prefixes run out: every answer exact, the order kept for later pages', () => {
    const args = { filter: { title: { allofterms: 'alpha beta' } }, order: { desc: 'likes' }, first: 10 };
    const plan = planQuery('queryPost', post, args, storeEstimates(ownGraph.store));
    const kept = own.filter((r) => has(r, 'alpha', 'beta')).sort((a, b) => (b.likes as number) - (a.likes as number) || a.id - b.id);
    const expected = kept.slice(0, 10).map((r) => r.id);
    const listVisits: number[] = [];
    for (let i = 0; i < 40; i++) {
      const trace = newQueryRun();
      expect(runQueryPlan(ownCtx, post, plan, args, trace)).toEqual(expected);
      if (trace.strategy === 'list-order') listVisits.push(trace.visited);
    }
    // Once the rent pays, each page reads alpha's 2,000 others and the first 10 matches in its cached
    // whole order (a cheap test each, fewer than collecting's 4,000 ids and ordering): bounding the walk
    // at the 1,024 the cache keeps and collecting instead cost more per page (tried: bench/README.md,
    // issue #20's fifteenth session).
    expect(listVisits.length).toBeGreaterThan(10);
    expect(new Set(listVisits)).toEqual(new Set([2010]));
  });
});
