// Filters checked per candidate (exec/filter-check.ts) in the two places the planner uses them: an
// ordered page walking the order index and testing each node against the whole filter
// (exec/checked-walk.ts), and an intersection testing its much larger children on its smallest side.
// Every answer is compared with a naive scan over the stored rows, across many drawn parameters, and
// again after nodes are deleted and values rewritten (the indexes and columns then differ from the
// first load); the runs must take the checked paths for the shapes that call for them.

import { beforeAll, describe, expect, it } from 'vitest';
import { ExecContext } from '../../../engine/exec/exec-context.js';
import { Graph } from '../../../engine/exec/graph.js';
import { runQueryPlan } from '../../../engine/exec/run-query-plan.js';
import { storeEstimates } from '../../../engine/plan/estimates.js';
import type { FilterPlan } from '../../../engine/plan/filter-plan.js';
import { newQueryRun, planQuery, type QueryRun } from '../../../engine/plan/query-plan.js';
import { compiledPost, post } from '../plan/query-plan-goldens.js';
import { prng } from './seeded.js';
import type { TermIndex } from '../../../engine/indexes/term-index.js';
import { prepareFilter } from '../../../engine/exec/filter-eval.js';
import { typeUniverse } from '../../../engine/exec/universe.js';

interface Row {
  readonly id: number;
  title: string;
  likes: number | undefined;
  alive: boolean;
}

const words = ['red', 'green', 'blue', 'cyan', 'gold', 'grey', 'pink', 'teal'];
const rows: Row[] = [];
let graph: Graph;
let ctx: ExecContext;

// 3,000 posts: a title of three words (`red` in about 1 in 3, `teal` rarer), likes 0..99 with many
// ties, and every 13th post without likes.
beforeAll(() => {
  graph = new Graph();
  graph.applySchema(compiledPost.model);
  const store = graph.store;
  const draw = prng(7);
  for (let i = 0; i < 3000; i++) {
    const title = [words[draw(3)], words[draw(8)], i % 50 === 0 ? 'teal' : words[draw(7)]].join(' ');
    const row: Row = { id: store.createNode(), title, likes: i % 13 === 0 ? undefined : draw(100), alive: true };
    store.addType(row.id, 'Post');
    store.scalar('Post.title').set(row.id, row.title);
    if (row.likes !== undefined) store.scalar('Post.likes').set(row.id, row.likes);
    rows.push(row);
  }
  ctx = new ExecContext(compiledPost.model, graph, {}, compiledPost.apiSchema);
});

type Keep = (row: Row) => boolean;
const hasWords = (row: Row, text: string): boolean => text.split(' ').every((w) => row.title.split(' ').includes(w));
const hasAny = (row: Row, text: string): boolean => text.split(' ').some((w) => row.title.split(' ').includes(w));

/** The naive answer: live rows kept, by likes (missing last), ties by id, then the page. */
function naive(keep: Keep, desc: boolean, offset: number, first: number): number[] {
  const kept = rows.filter((r) => r.alive && keep(r));
  kept.sort((a, b) => {
    if (a.likes === undefined || b.likes === undefined) return a.likes === b.likes ? a.id - b.id : a.likes === undefined ? 1 : -1;
    return a.likes === b.likes ? a.id - b.id : (a.likes - b.likes) * (desc ? -1 : 1);
  });
  return kept.slice(offset, offset + first).map((r) => r.id);
}

function run(args: Record<string, unknown>): { ids: readonly number[]; run: QueryRun } {
  const plan = planQuery('queryPost', post, args, storeEstimates(graph.store));
  const trace = newQueryRun();
  const ids = runQueryPlan(ctx, post, plan, args, trace);
  // The same plan without EXPLAIN's trace must answer the same.
  expect(runQueryPlan(ctx, post, plan, args)).toEqual(ids);
  return { ids, run: trace };
}

interface Shape {
  readonly name: string;
  readonly filter: (draw: (n: number) => number) => { filter: Record<string, unknown>; keep: Keep };
}

const word = (draw: (n: number) => number): string => words[draw(words.length)] as string;

const shapes: readonly Shape[] = [
  {
    name: 'and: [allofterms, likes gt]',
    filter: (draw) => {
      const [w, gt] = [word(draw), draw(110) - 5];
      return { filter: { and: [{ title: { allofterms: w } }, { likes: { gt } }] }, keep: (r) => hasWords(r, w) && r.likes !== undefined && r.likes > gt };
    },
  },
  {
    name: 'and: [or: [allofterms a, allofterms b], not: likes lt]',
    filter: (draw) => {
      const [a, b, lt] = [word(draw), `${word(draw)} ${word(draw)}`, draw(110) - 5];
      return {
        filter: { and: [{ or: [{ title: { allofterms: a } }, { title: { allofterms: b } }] }, { not: { likes: { lt } } }] },
        keep: (r) => (hasWords(r, a) || hasWords(r, b)) && !(r.likes !== undefined && r.likes < lt),
      };
    },
  },
  {
    name: 'anyofterms of two words',
    filter: (draw) => {
      const t = `${word(draw)} ${word(draw)}`;
      return { filter: { title: { anyofterms: t } }, keep: (r) => hasAny(r, t) };
    },
  },
  {
    name: 'likes between and a term that no post has',
    filter: (draw) => {
      const [min, max] = [draw(60), 40 + draw(60)];
      return { filter: { likes: { between: { min, max } }, title: { anyofterms: 'nosuchword' } }, keep: () => false };
    },
  },
  {
    name: 'likes between (a range alone)',
    filter: (draw) => {
      const [min, max] = [draw(100), draw(100)];
      return { filter: { likes: { between: { min, max } } }, keep: (r) => r.likes !== undefined && r.likes >= min && r.likes <= max };
    },
  },
];

/** Runs every shape with drawn values, orders and pages (offsets past the end included) against the naive scan; returns the strategies taken per shape. */
function differential(seed: number): Map<string, Set<string>> {
  const draw = prng(seed);
  const taken = new Map<string, Set<string>>();
  for (const shape of shapes) {
    const seen = new Set<string>();
    for (let k = 0; k < 40; k++) {
      const { filter, keep } = shape.filter(draw);
      const desc = draw(2) === 0;
      const first = 1 + draw(20);
      const offset = k % 10 === 9 ? 3000 : draw(3) === 0 ? draw(60) : 0;
      const args = { filter, order: desc ? { desc: 'likes' } : { asc: 'likes' }, first, offset };
      const { ids, run: trace } = run(args);
      expect(ids, `${shape.name} ${JSON.stringify(args)}`).toEqual(naive(keep, desc, offset, first));
      seen.add(trace.strategy);
    }
    taken.set(shape.name, seen);
  }
  return taken;
}

describe('filters checked per candidate', () => {
  it('ordered pages equal a naive scan, and the trees and term lists take the checked walk', () => {
    const taken = differential(11);
    expect(taken.get('and: [allofterms, likes gt]')?.has('checked-walk')).toBe(true);
    expect(taken.get('and: [or: [allofterms a, allofterms b], not: likes lt]')?.has('checked-walk')).toBe(true);
    expect(taken.get('anyofterms of two words')?.has('checked-walk')).toBe(true);
    // A term no node holds bounds the filter at 0: no walk, nothing collected.
    expect([...(taken.get('likes between and a term that no post has') ?? [])]).toEqual(['sort']);
  });

  it('stay exact when the terms\' postings have cached bitsets (unions and ors tested over the bitsets in one function)', () => {
    const index = graph.store.scalar('Post.title').index('term') as TermIndex;
    for (const w of words) {
      const [m] = index.members(w);
      for (let id = 0; id < 4000; id++) m?.has(id); // past the searches' budget: the posting's bitset is built
    }
    // Every word's list (about 400 to 1,100 of 3,000 posts: dense, and at least 128 ids, bitsets.ts) has one.
    expect(words.filter((w) => index.members(w)[0]?.bits !== undefined)).toEqual(words);
    const taken = differential(13);
    expect(taken.get('anyofterms of two words')?.has('checked-walk')).toBe(true);
  });

  it('stay exact after deletes and rewrites of the order and filter values', () => {
    const store = graph.store;
    const draw = prng(3);
    for (let i = 0; i < rows.length; i += 7) {
      const row = rows[i] as Row;
      if (i % 21 === 0) {
        store.deleteNode(row.id);
        row.alive = false;
        continue;
      }
      row.likes = i % 2 === 0 ? undefined : draw(100);
      if (row.likes === undefined) store.scalar('Post.likes').delete(row.id);
      else store.scalar('Post.likes').set(row.id, row.likes);
      row.title = `${word(draw)} ${word(draw)}`;
      store.scalar('Post.title').set(row.id, row.title);
    }
    differential(12);
  });

  it('gives up a walk that finds nothing after its budget (the entries collecting would cost), not at the end of the index', () => {
    // Only posts without likes pass (they are not in the likes index), where `in`'s plan estimate says few fail.
    const all = Array.from({ length: 100 }, (_, i) => i);
    const args = { filter: { and: [{ title: { anyofterms: 'red teal' } }, { not: { likes: { in: all } } }] }, order: { desc: 'likes' }, first: 5 };
    const { ids, run: trace } = run(args);
    expect(ids).toEqual(naive((r) => hasAny(r, 'red teal') && r.likes === undefined, true, 0, 5));
    expect(trace.strategy).not.toBe('checked-walk');
    const withLikes = rows.filter((r) => r.alive && r.likes !== undefined).length;
    expect(trace.visited).toBeGreaterThan(0);
    expect(trace.visited).toBeLessThan(withLikes / 2);
  });

  it('weighs a range by its bounds in this request, not the plan\'s estimate: a range nothing passes is not walked', () => {
    const args = { filter: { and: [{ title: { anyofterms: 'red teal' } }, { likes: { gt: 200 } }] }, order: { desc: 'likes' }, first: 5 };
    const { ids, run: trace } = run(args);
    expect(ids).toEqual([]);
    expect(trace.visited).toBe(0);
    // Nearly every post passes `likes ge 1`: the walk stops at the page.
    const wide = run({ filter: { and: [{ title: { anyofterms: 'red teal' } }, { likes: { ge: 1 } }] }, order: { desc: 'likes' }, first: 5 });
    expect(wide.ids).toEqual(naive((r) => hasAny(r, 'red teal') && r.likes !== undefined && r.likes >= 1, true, 0, 5));
    expect(wide.run.strategy).toBe('checked-walk');
    // likes ≥ 97 (as not likes < 97) holds the start of a walk down the likes: few posts pass, but they come first.
    const top = { filter: { and: [{ title: { anyofterms: 'red teal' } }, { not: { likes: { lt: 97 } } }] }, order: { desc: 'likes' }, first: 5 };
    const walked = run(top);
    expect(walked.ids).toEqual(naive((r) => hasAny(r, 'red teal') && !(r.likes !== undefined && r.likes < 97), true, 0, 5));
    expect(walked.run.strategy).toBe('checked-walk');
    expect(walked.run.visited).toBeLessThan(40);
  });

  it('counts a range holding the walk\'s start, or the negation of one holding its end, as passing all for the walk', () => {
    const share = (filter: Record<string, unknown>, desc?: boolean): number => {
      const plan = planQuery('queryPost', post, { filter }, storeEstimates(graph.store));
      const prepared = prepareFilter(ctx, post, filter, typeUniverse(graph.store, 'Post'));
      return prepared.check(plan.filter, desc === undefined ? undefined : { predicate: 'Post.likes', desc }).share;
    };
    const top = { likes: { ge: 97 } };
    expect(share(top)).toBeLessThan(0.1);
    expect(share(top, true)).toBe(1);
    expect(share(top, false)).toBe(share(top));
    const notBottom = { not: { likes: { lt: 97 } } };
    expect(share(notBottom)).toBeLessThan(0.5);
    expect(share(notBottom, true)).toBe(1);
    expect(share(notBottom, false)).toBe(share(notBottom));
    expect(share({ likes: { between: { min: 90, max: 99 } } }, true)).toBeLessThan(0.2);
  });

  it('unordered pages (uid order) scan the smallest list testing the filter, and equal a naive scan', () => {
    const draw = prng(5);
    const seen = new Set<string>();
    for (let k = 0; k < 60; k++) {
      const [a, b, gt] = [word(draw), word(draw), draw(110) - 5];
      const first = 1 + draw(20);
      const offset = k % 10 === 9 ? 3000 : draw(3) === 0 ? draw(40) : 0;
      const filter = k % 2 === 0 ? { title: { allofterms: `${a} ${b}` } } : { and: [{ title: { allofterms: a } }, { likes: { gt } }] };
      const keep: Keep = k % 2 === 0 ? (r) => hasWords(r, `${a} ${b}`) : (r) => hasWords(r, a) && r.likes !== undefined && r.likes > gt;
      const { ids, run: trace } = run({ filter, first, offset });
      const expected = rows.filter((r) => r.alive && keep(r)).map((r) => r.id).slice(offset, offset + first);
      expect(ids, JSON.stringify({ filter, first, offset })).toEqual(expected);
      seen.add(trace.strategy);
    }
    // Pairs of common words scan; a pair expected to match few posts is collected (plan/order-plan.ts prefersDriverScan).
    expect([...seen].sort()).toEqual(['checked-scan', 'none']);
  });

  it('gives up the walk when the page cannot fill from nodes with an order value, and collects instead (missing values last)', () => {
    // `teal` posts whose likes are missing come after every one with likes: the walk runs out of entries.
    const args = { filter: { title: { anyofterms: 'teal red' } }, order: { desc: 'likes' }, first: 5, offset: 2990 };
    const { ids, run: trace } = run(args);
    expect(ids).toEqual(naive((r) => hasAny(r, 'teal red'), true, 2990, 5));
    expect(trace.strategy).not.toBe('checked-walk');
  });

  it('an intersection checks its larger children on its smallest side instead of collecting them', () => {
    const title = (rows[5] as Row).title;
    const args = { filter: { and: [{ title: { eq: title } }, { likes: { gt: 10 } }, { not: { likes: { lt: 5 } } }] } };
    const { ids, run: trace } = run(args);
    const expected = rows.filter((r) => r.alive && r.title === title && r.likes !== undefined && r.likes > 10).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids).toEqual(expected);
    const checked = [...trace.checked].map((n: FilterPlan) => (n.op === 'index' ? `${n.fn} ${n.field}` : n.op));
    expect(checked.sort()).toEqual(['gt likes', 'not']);
    const produced = [...trace.produced.entries()].map(([n, c]) => `${n.op === 'index' ? `${n.fn} ${n.field}` : n.op} ${c}`);
    expect(produced).toEqual([`eq title ${rows.filter((r) => r.alive && r.title === title).length}`, `and ${expected.length}`]);
  });
});
