// Streamed pages (plan/stream-plan.ts): nodes are visited in the page's order and checked one by one
// (exec/filter-check.ts) until offset + first have passed, instead of collecting every match and then
// ordering it. The walk is chosen when run, with the estimated match count (chooseStream); undefined
// means "collect": the caller runs the filter and page steps as usual.

import type { OrderedIndex } from '../indexes/ordered-index.js';
import { postingIds, type Posting } from '../indexes/postings/posting.js';
import { pageLimit, type OrderKey, type PageParams } from '../plan/order-plan.js';
import type { QueryPlan, QueryRun } from '../plan/query-plan.js';
import { chooseStream, maxFirstK, type IndexNode, type StreamPlan } from '../plan/stream-plan.js';
import type { FieldModel, IndexKind, TypeModel } from '../schema/model.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { sortDistinctInPlace } from '../util/id-sort.js';
import type { RangeBounds, ScalarValue } from '../indexes/value-index.js';
import type { AggregateMatches } from './aggregate.js';
import type { ExecContext } from './exec-context.js';
import type { IdCheck, Tester as NodeCheck } from './filter-check.js';
import { estimateMatches, requestBounds, type BoundsOf } from './filter-estimate.js';
import { prepareFilter } from './filter-eval.js';
import { typeUniverse } from './universe.js';
import { TopK } from '../util/top-k.js';
import { PageTaker, typeMember, walkIndexInto } from './checked-walk.js';
import { numberSortKey } from './order-page.js';

type Filter = Readonly<Record<string, unknown>> | null | undefined;

const pass: NodeCheck = () => true;

/** The page by a walk, or undefined when the plan's rule says to collect the matches first. */
export function streamPage(ctx: ExecContext, type: TypeModel, plan: QueryPlan, stream: StreamPlan, filter: Filter, page: PageParams, run?: QueryRun): SortedIds | undefined {
  const limit = pageLimit(page);
  if (page.first === 0) return undefined;
  const store = ctx.graph.store;
  const total = store.countOfType(type.name);
  const boundsOf = requestBounds(filter);
  const matches = stream.driver === undefined && limit !== undefined ? estimateMatches(ctx, type, plan.filter, filter, boundsOf, total) : 0;
  const strategy = chooseStream(stream, plan.order, limit, matches, total);
  if (strategy === undefined) return limit === undefined || limit > maxFirstK ? undefined : rangeFirstK(ctx, type, plan, stream, filter, boundsOf, page, limit, run);
  // A filter that is only the walked range holds for every node the walk visits: nothing to read per node.
  const compiled = strategy === 'range-walk' && plan.filter === stream.driver ? undefined : compiledCheck(ctx, type, plan, filter);
  const check = compiled === undefined ? pass : compiled.test;
  const taker = new PageTaker(page);
  if (strategy === 'scan-check') {
    const universe = store.nodesOfType(type.name);
    const keyed = compiled?.keyed;
    for (let i = 0; i < universe.length; i++) if (taker.offer(universe[i] as number, check, keyed)) break;
  } else {
    const key = plan.order.keys[0] as OrderKey;
    const index = store.scalar(key.model.predicate).index(plan.order.walk as IndexKind) as OrderedIndex | undefined;
    if (index === undefined) return undefined;
    const member = typeMember(ctx, type, key.model, check);
    if (strategy === 'range-walk') {
      // Its own loop (not walkIndexInto's): each walk's call sites keep their own type feedback.
      const desc = key.desc;
      index.walkRange(boundsOf(stream.driver as NonNullable<StreamPlan['driver']>), desc ? 'desc' : 'asc', (vals, from, to) => {
        for (let i = desc ? to - 1 : from; i >= from && i < to; i += desc ? -1 : 1) if (taker.offerPosting(vals[i] as Posting, member)) return true;
        return false;
      });
    } else {
      walkIndexInto(index, key.desc, taker, member, member === check ? compiled?.keyed : undefined);
      // Nodes without an order value come last, in id order (as in sorting); a range on the order key excludes them.
      if (!taker.done) missingLast(ctx, type, key.model, check, taker);
    }
  }
  if (run !== undefined) {
    run.checked.add(plan.filter);
    run.strategy = strategy;
    run.candidates = taker.checked;
    run.cachedPrefix = false;
  }
  return taker.out;
}

/**
 * Every match of a filter with a range condition, gathered by walking the narrowest range's postings
 * and checking the rest, in walk order, put in id order (util/id-sort.ts) only when the aggregate asks,
 * with the first and last match of the walk: the walked field's Min and Max nodes. Undefined when the
 * plan has no such range.
 */
export function streamMatches(ctx: ExecContext, type: TypeModel, plan: QueryPlan, stream: StreamPlan, filter: Filter, run?: QueryRun): AggregateMatches | undefined {
  const boundsOf = requestBounds(filter);
  const range = narrowestRange(ctx, stream, boundsOf);
  if (range === undefined) return undefined;
  const check = onlyTheRange(ctx, type, plan, range) ? pass : nodeCheck(ctx, type, plan, filter);
  const { found, checked } = rangeMatches(ctx, type, range, check);
  const buffer = rangeBuffer;
  if (run !== undefined) {
    run.checked.add(plan.filter);
    run.strategy = 'range-walk';
    run.candidates = checked;
    run.walked = `${range.node.model.name} ${range.node.index}`;
  }
  const bound = ctx.graph.store.maxNodeId + 1;
  // A list field's node may lie under two of the range's keys: its ids are made distinct at once.
  if (range.node.model.isList) return { ids: buffer.subarray(0, sortDistinctInPlace(buffer, found, bound)) };
  if (found === 0) return { ids: buffer.subarray(0, 0) };
  const ends = { field: range.node.model, first: buffer[0] as number, last: buffer[found - 1] as number };
  if (run !== undefined) run.idOrder = false;
  let sorted: Int32Array | undefined;
  const inIdOrder = (): Int32Array => {
    if (run !== undefined) run.idOrder = true;
    return (sorted ??= buffer.subarray(0, sortDistinctInPlace(buffer, found, bound)));
  };
  return { ids: buffer.subarray(0, found), ends, inIdOrder };
}

/**
 * Reused by every range walk of an aggregate: its matches in walk order, then in id order in place.
 * The ids handed out are a view of it, valid until the next walk: aggregateObject reduces them at once.
 */
let rangeBuffer: Int32Array = new Int32Array(1024);

/** `rangeBuffer` grown to hold `more` ids after its first `kept`. */
function grownBuffer(buffer: Int32Array, kept: number, more: number): Int32Array {
  const grown = new Int32Array(Math.max(2 * buffer.length, kept + more));
  grown.set(buffer.subarray(0, kept));
  return (rangeBuffer = grown);
}

/**
 * The range's matches into `rangeBuffer`, in walk order: one loop with no call per posting when the
 * range is the whole filter (an aggregate's range walks 1,000s of ids; a closure per id cost more than the walk).
 */
function rangeMatches(ctx: ExecContext, type: TypeModel, range: WalkedRange, check: NodeCheck): { found: number; checked: number } {
  const member = typeMember(ctx, type, range.node.model, check);
  const all = member === pass;
  let found = 0;
  let checked = 0;
  let buffer = rangeBuffer;
  range.index.walkRange(range.bounds, 'asc', (vals, from, to) => {
    // Locals in the loop (the closure's variables are read and written once per run, not per id).
    let at = found;
    let into = buffer;
    for (let i = from; i < to; i++) {
      const p = vals[i] as Posting;
      if (typeof p === 'number') {
        if (at === into.length) into = grownBuffer(into, at, 1);
        if (all || member(p)) into[at++] = p;
        continue;
      }
      const ids = postingIds(p);
      checked += ids.length - 1;
      if (at + ids.length > into.length) into = grownBuffer(into, at, ids.length);
      for (let k = 0; k < ids.length; k++) if (all || member(ids[k] as number)) into[at++] = ids[k] as number;
    }
    checked += to - from;
    found = at;
    buffer = into;
    return false;
  });
  return { found, checked };
}

/**
 * A page whose matches are too few for a walk in page order (chooseStream said collect) but which has
 * a range condition: the narrowest range is walked, the rest checked, and the first offset + first
 * kept by (order value, id), missing values last, or by id for uid order. No list of the range is
 * built or sorted. Undefined (collect) when the order value cannot be read in place.
 */
function rangeFirstK(ctx: ExecContext, type: TypeModel, plan: QueryPlan, stream: StreamPlan, filter: Filter, boundsOf: BoundsOf, page: PageParams, limit: number, run: QueryRun | undefined): SortedIds | undefined {
  const range = narrowestRange(ctx, stream, boundsOf);
  if (range === undefined) return undefined;
  const keyOf = orderValue(ctx, plan);
  const check = keyOf === undefined ? undefined : onlyTheRange(ctx, type, plan, range) ? pass : nodeCheck(ctx, type, plan, filter);
  if (keyOf === undefined || check === undefined) return undefined;
  const first = new TopK(limit);
  const checked = walkMatches(ctx, type, range, check, (id) => first.offer(keyOf(id), id));
  if (run !== undefined) {
    run.checked.add(plan.filter);
    run.strategy = 'range-first-k';
    run.candidates = checked;
    run.cachedPrefix = false;
    run.walked = `${range.node.model.name} ${range.node.index}`;
  }
  const ids = first.drain().ids;
  return page.offset === 0 ? ids : ids.slice(page.offset);
}

/** A node's sort key for the page's order (smaller first, missing values +Infinity); 0 for uid order. */
function orderValue(ctx: ExecContext, plan: QueryPlan): ((id: number) => number) | undefined {
  const key = plan.order.keys[0];
  if (key === undefined) return () => 0;
  const sign = key.desc ? -1 : 1;
  const column = ctx.graph.store.scalar(key.model.predicate);
  const numbers = plan.order.numeric ? column.numbers() : undefined;
  if (numbers !== undefined) return numberSortKey(numbers, key.desc);
  const index = plan.order.walk === undefined || key.model.typeName !== 'DateTime' ? undefined : (column.index(plan.order.walk) as OrderedIndex | undefined);
  const byId = index?.keysById();
  if (byId === undefined) return undefined;
  const keys = byId.keys;
  return (id) => {
    const v = keys[id];
    return v === undefined || Number.isNaN(v) ? Infinity : sign * v;
  };
}

interface WalkedRange {
  readonly index: OrderedIndex;
  readonly bounds: RangeBounds<ScalarValue>;
  readonly size: number;
  readonly node: IndexNode;
}

/** Whether the filter is only the walked range of the type's own field: then it holds for every node the walk visits. */
function onlyTheRange(ctx: ExecContext, type: TypeModel, plan: QueryPlan, range: WalkedRange): boolean {
  return plan.filter === range.node && typeMember(ctx, type, range.node.model, pass) === pass;
}

/** The range condition with the fewest estimated entries; undefined if there is none (or its index is missing). */
function narrowestRange(ctx: ExecContext, stream: StreamPlan, boundsOf: BoundsOf): WalkedRange | undefined {
  let narrowest: WalkedRange | undefined;
  for (const node of stream.ranges) {
    const index = ctx.graph.store.scalar(node.model.predicate).index(node.index as IndexKind) as OrderedIndex | undefined;
    if (index === undefined) return undefined;
    const bounds = boundsOf(node);
    const size = index.estimateRange(bounds);
    if (narrowest === undefined || size < narrowest.size) narrowest = { index, bounds, size, node };
  }
  return narrowest;
}

/** Walks a range's postings, passing each node of the type that passes `check` to `take`; returns the nodes visited. */
function walkMatches(ctx: ExecContext, type: TypeModel, range: WalkedRange, check: NodeCheck, take: (id: number) => void): number {
  const member = typeMember(ctx, type, range.node.model, check);
  let checked = 0;
  // A chunk's run of postings per call; most postings of a mostly-unique index are a bare id.
  range.index.walkRange(range.bounds, 'asc', (vals, from, to) => {
    for (let i = from; i < to; i++) {
      const p = vals[i] as Posting;
      if (typeof p === 'number') {
        checked++;
        if (member(p)) take(p);
        continue;
      }
      const ids = postingIds(p);
      checked += ids.length;
      for (let k = 0; k < ids.length; k++) if (member(ids[k] as number)) take(ids[k] as number);
    }
    return false;
  });
  return checked;
}

/** Nodes of the type without a value for the order key, in id order. */
function missingLast(ctx: ExecContext, type: TypeModel, field: FieldModel, check: NodeCheck, taker: PageTaker): void {
  const column = ctx.graph.store.scalar(field.predicate);
  const universe = ctx.graph.store.nodesOfType(type.name);
  for (let i = 0; i < universe.length; i++) {
    const id = universe[i] as number;
    if (!column.has(id) && taker.offer(id, check)) return;
  }
}

/** The filter compiled for per-node tests (filter-check.ts): a stream plan's filters are all checkable in place. */
function compiledCheck(ctx: ExecContext, type: TypeModel, plan: QueryPlan, filter: Filter): IdCheck {
  return prepareFilter(ctx, type, filter, typeUniverse(ctx.graph.store, type.name)).check(plan.filter);
}

function nodeCheck(ctx: ExecContext, type: TypeModel, plan: QueryPlan, filter: Filter): NodeCheck {
  return compiledCheck(ctx, type, plan, filter).test;
}
