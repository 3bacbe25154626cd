// Every plan golden (query-plan-goldens.ts) RUN against data: the plan the golden prints — chosen by
// the golden's statistics — is executed by exec/run-query-plan.ts over 400 stored posts. The answer
// must equal a naive scan's; each filter node must have produced what a scan finds for its condition
// alone; the page step that ran must be the expected branch of the adaptive rule; and the EXPLAIN
// printed after the run must be the golden plus what ran (so EXPLAIN shows the plan that ran).

import { beforeAll, describe, expect, it } from 'vitest';
import { ExecContext } from '../../../engine/exec/exec-context.js';
import { Graph } from '../../../engine/exec/graph.js';
import { runQueryPlan } from '../../../engine/exec/run-query-plan.js';
import { explainQuery } from '../../../engine/plan/explain.js';
import { valueAt, type FilterPlan } from '../../../engine/plan/filter-plan.js';
import { newQueryRun, planQuery } from '../../../engine/plan/query-plan.js';
import { GraphStore } from '../../../engine/store/graph-store.js';
import type { StreamStrategy } from '../../../engine/plan/stream-plan.js';
import { compiledPost, goldenEstimates, planGoldens, post, postTitle, rareTerm, someTitle } from './query-plan-goldens.js';

interface Row {
  readonly id: number;
  readonly title: string;
  readonly likes: number | undefined;
  readonly score: number | undefined;
  readonly published: boolean | undefined;
}

type Filter = Readonly<Record<string, unknown>>;

const rows: Row[] = [];
let ctx: ExecContext;

beforeAll(() => {
  const graph = new Graph();
  graph.applySchema(compiledPost.model);
  const store = graph.store;
  for (let i = 0; i < 400; i++) {
    const row: Row = {
      id: store.createNode(),
      title: postTitle(i),
      likes: i % 11 === 0 ? undefined : i % 50,
      score: i % 7 === 0 ? undefined : ((i * 37) % 100) / 4,
      published: i % 10 === 9 ? undefined : i % 3 !== 0,
    };
    store.addType(row.id, 'Post');
    store.scalar('Post.title').set(row.id, row.title);
    if (row.likes !== undefined) store.scalar('Post.likes').set(row.id, row.likes);
    if (row.score !== undefined) store.scalar('Post.score').set(row.id, row.score);
    if (row.published !== undefined) store.scalar('Post.published').set(row.id, row.published);
    rows.push(row);
  }
  ctx = new ExecContext(compiledPost.model, graph, {}, compiledPost.apiSchema);
});

// The naive scan: Dgraph's reading of a filter object (its conditions ANDed, its `or` ORed with
// them, an object placing no condition left out), then order with missing values last, then page.
function matchesObject(row: Row, filter: Filter | null | undefined): boolean | undefined {
  if (filter === null || filter === undefined) return undefined;
  const all: boolean[] = [];
  let any: boolean[] | undefined;
  for (const [key, value] of Object.entries(filter)) {
    if (value === null || value === undefined) continue;
    const items = (Array.isArray(value) ? value : [value]) as unknown[];
    if (key === 'and') for (const item of items) pushDefined(all, matchesObject(row, item as Filter));
    else if (key === 'or') any = items.map((item) => matchesObject(row, item as Filter)).filter((m): m is boolean => m !== undefined);
    else if (key === 'not') pushDefined(all, negate(matchesObject(row, value as Filter)));
    else if (key === 'has') for (const name of items) all.push(valueOf(row, String(name)) !== undefined);
    else if (key === 'id') all.push(items.includes(GraphStore.uidOf(row.id)));
    else if (typeof value === 'boolean') all.push(valueOf(row, key) === value);
    else {
      for (const [fn, arg] of Object.entries(value as Filter)) {
        if (arg === null) {
          if (fn === 'eq') all.push(valueOf(row, key) === undefined);
        } else all.push(leaf(row, key, fn, arg));
      }
    }
  }
  const conjunction = all.length === 0 ? undefined : all.every(Boolean);
  if (any === undefined || any.length === 0) return conjunction;
  return conjunction === true || any.some(Boolean);
}

function pushDefined(out: boolean[], value: boolean | undefined): void {
  if (value !== undefined) out.push(value);
}

function negate(value: boolean | undefined): boolean | undefined {
  return value === undefined ? undefined : !value;
}

function valueOf(row: Row, field: string): string | number | boolean | undefined {
  return (row as unknown as Record<string, string | number | boolean | undefined>)[field];
}

function leaf(row: Row, field: string, fn: string, arg: unknown): boolean {
  const value = valueOf(row, field);
  if (value === undefined) return false;
  const terms = String(value).toLowerCase().split(' ');
  const wanted = String(arg).toLowerCase().split(' ');
  switch (fn) {
    case 'eq':
      return typeof arg === 'boolean' ? value === arg : value === arg;
    case 'gt':
      return (value as number) > (arg as number);
    case 'lt':
      return (value as number) < (arg as number);
    case 'between': {
      const { min, max } = arg as { min: number; max: number };
      return (value as number) >= min && (value as number) <= max;
    }
    case 'allofterms':
      return wanted.every((t) => terms.includes(t));
    case 'anyofterms':
      return wanted.some((t) => terms.includes(t));
    default:
      throw new Error(`the oracle has no ${fn}`);
  }
}

function oracle(args: Filter): { candidates: Row[]; page: Row[] } {
  const candidates = rows.filter((row) => matchesObject(row, args['filter'] as Filter | undefined) !== false);
  const order = args['order'] as { asc?: string; desc?: string } | undefined;
  let sorted = candidates;
  if (order !== undefined) {
    const field = (order.asc ?? order.desc) as string;
    const sign = order.asc === undefined ? -1 : 1;
    sorted = [...candidates].sort((a, b) => {
      const x = valueOf(a, field) as number | undefined;
      const y = valueOf(b, field) as number | undefined;
      if (x === undefined || y === undefined) return x === y ? a.id - b.id : x === undefined ? 1 : -1;
      return x === y ? a.id - b.id : (x < y ? -1 : 1) * sign;
    });
  }
  const offset = (args['offset'] as number | undefined) ?? 0;
  const first = args['first'] as number | undefined;
  return { candidates, page: sorted.slice(offset, first === undefined ? undefined : offset + first) };
}

/** What a scan finds for one node's condition alone (over every post: the universe). */
function scanCount(node: FilterPlan, filter: Filter): number | undefined {
  switch (node.op) {
    case 'index': {
      const value = valueAt(filter, node.at);
      return rows.filter((row) => (typeof value === 'boolean' ? valueOf(row, node.field) === value : leaf(row, node.field, node.fn, value))).length;
    }
    case 'has': {
      const field = node.field ?? String(valueAt(filter, node.at));
      return rows.filter((row) => valueOf(row, field) !== undefined).length;
    }
    case 'ids':
      return new Set(valueAt(filter, node.at) as string[]).size;
    case 'scan':
      return rows.length;
    default:
      return undefined;
  }
}

/** A node as the goldens' `checked` lists name it: `op` or `fn field`. */
function describeNode(node: FilterPlan): string {
  return node.op === 'index' ? `${node.fn} ${node.field}` : node.op;
}

function nodesOf(node: FilterPlan): FilterPlan[] {
  if (node.op === 'and' || node.op === 'or') return [node, ...node.children.flatMap(nodesOf)];
  if (node.op === 'not') return [node, ...nodesOf(node.child)];
  return [node];
}

const stepNames = { none: 'unordered page', sort: 'sort', 'top-k': 'top-k', 'index-walk': 'walk int index' } as const;
const streamNames: Record<StreamStrategy, string> = {
  'range-walk': 'walk int index from the range bound, checking each node',
  'walk-check': 'walk int index, checking each node',
  'scan-check': 'scan of the type, checking each node',
  'range-first-k': 'walk of the range, keeping the first k',
};

describe('plan goldens run against data', () => {
  it('the data holds what the goldens look for', () => {
    expect(rows.filter((r) => r.title === someTitle)).toHaveLength(1);
    expect(rows.filter((r) => r.title.split(' ').includes(rareTerm))).toHaveLength(20);
  });

  for (const golden of planGoldens) {
    it(golden.name, () => {
      const plan = planQuery('queryPost', post, golden.args, goldenEstimates);
      expect(explainQuery(plan, golden.args)).toBe(golden.explain.join('\n'));
      const run = newQueryRun();
      const ids = runQueryPlan(ctx, post, plan, golden.args, run);
      const expected = oracle(golden.args);

      expect(ids.map(GraphStore.uidOf)).toEqual(expected.page.map((r) => GraphStore.uidOf(r.id)));
      expect(run.strategy).toBe(golden.ran);
      if (golden.streamChecked !== undefined) {
        // A streamed page builds no id lists: it reports the nodes it checked, and no filter node's count.
        expect(run.candidates).toBe(golden.streamChecked);
        expect(run.produced.size).toBe(0);
        const after = explainQuery(plan, golden.args, run).split('\n').map((line) => line.replace(/ checked$/, ''));
        expect(after).toEqual([...golden.explain, `  ran ${streamNames[golden.ran as StreamStrategy]} (${golden.streamChecked} nodes checked)`]);
        return;
      }
      expect(run.strategy).toBe(golden.ran);
      const walked = golden.ran === 'checked-walk';
      // A checked walk keeps the page's nodes (offset included) and collects no candidates.
      const kept = walked ? ((golden.args['offset'] as number | undefined) ?? 0) + expected.page.length : expected.candidates.length;
      expect(run.candidates).toBe(kept);
      expect(run.produced.get(plan.filter)).toBe(walked ? undefined : expected.candidates.length);
      const filter = (golden.args['filter'] ?? {}) as Filter;
      // Each node produced what a scan finds for it, unless it (or a node above it) was checked per candidate.
      const checkedNodes = new Set<FilterPlan>();
      for (const node of nodesOf(plan.filter)) if (run.checked.has(node)) nodesOf(node).forEach((n) => checkedNodes.add(n));
      for (const node of nodesOf(plan.filter)) {
        const count = scanCount(node, filter);
        const produced = run.produced.get(node);
        if (produced === undefined) expect(checkedNodes.has(node), `${node.op} produced nothing and was not checked`).toBe(true);
        else if (count !== undefined) expect(produced, `${node.op} ${JSON.stringify(node.op === 'index' ? node.at : '')}`).toBe(count);
      }
      expect([...checkedNodes].map(describeNode).sort()).toEqual([...(golden.checked ?? [])].sort());

      const after = explainQuery(plan, golden.args, run).split('\n');
      expect(after.at(-1)).toBe(
        walked ? `  ran walk int index checking the filter per node: ${run.visited} visited, ${kept} kept` : `  ran ${stepNames[golden.ran as keyof typeof stepNames]} over ${kept} candidates`,
      );
      expect(after.slice(0, -1).map((line) => line.replace(/ (got \d+|checked)$/, ''))).toEqual(golden.explain);
      expect(after[1]).toMatch(walked ? / checked$/ : new RegExp(` got ${expected.candidates.length}$`));
    });
  }
});
