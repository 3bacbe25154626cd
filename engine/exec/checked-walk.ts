// Pages taken by checking nodes in page order (`PageTaker`), shared with the streamed pages
// (stream-page.ts). Here: an ordered page by walking the order field's index and testing each visited
// node against the whole filter (filter-check.ts), before any candidate list exists: a page of k over a filter passing a
// share s of the type visits about k / s index entries, whatever the type's size, where collecting the
// candidates first costs every match. Taken when the plan's rule (plan/order-plan.ts choosePage) picks
// an index walk for the filter's bound from its postings; gives up (undefined) once it visited as many
// entries as collecting would cost, or when the index ran out before the page filled (nodes without
// an order value come last, and only the collecting path finds them), so the caller collects instead.

import type { OrderedIndex } from '../indexes/ordered-index.js';
import type { Posting } from '../indexes/postings/posting.js';
import { postingIds } from '../indexes/postings/posting.js';
import type { FieldModel, IndexKind, TypeModel } from '../schema/model.js';
import type { OrderKey, OrderPlan, PageParams } from '../plan/order-plan.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { listPrefix } from './order-page.js';
import type { Universe } from './universe.js';
import type { ExecContext } from './exec-context.js';
import type { Driver, KeyedRange, Tester } from './filter-check.js';

export interface CheckedWalk {
  /** The page (offset skipped), or undefined when the walk gave up. */
  readonly ids: number[] | undefined;
  /** Index entries visited (EXPLAIN). */
  readonly visited: number;
}

/** Walks `kind`'s index in the order key's direction, taking the page from the nodes passing `test` (`keyed`: the range it tests); gives up after `budget` entries. */
export function walkChecked(ctx: ExecContext, type: TypeModel, key: OrderKey, kind: IndexKind, test: Tester, keyed: KeyedRange | undefined, page: PageParams, budget: number): CheckedWalk {
  const index = ctx.graph.store.scalar(key.model.predicate).index(kind) as OrderedIndex | undefined;
  if (index === undefined) return { ids: undefined, visited: 0 };
  if (page.first === 0) return { ids: [], visited: 0 };
  const taker = new PageTaker(page, budget);
  const member = typeMember(ctx, type, key.model, test);
  walkIndexInto(index, key.desc, taker, member, member === test ? keyed : undefined);
  return { ids: taker.done ? taker.out : undefined, visited: taker.checked };
}

/** Offers every node of the index in its order (`desc`: descending) to `taker` until it is done. */
export function walkIndexInto(index: OrderedIndex, desc: boolean, taker: PageTaker, member: Tester, keyed: KeyedRange | undefined): void {
  // A chunk of postings per call (not a callback per posting): the visit is the test and the taker.
  // A chunk comes in ascending order; a descending walk reads it from its end.
  const step = desc ? -1 : 1;
  index.walkChunks(desc ? 'desc' : 'asc', (postings) => {
    for (let i = desc ? postings.length - 1 : 0; i >= 0 && i < postings.length; i += step) {
      const p = postings[i] as Posting;
      if (typeof p === 'number' ? taker.offer(p, member, keyed) : taker.offerPosting(p, member)) return true;
    }
    return false;
  });
}

/** Collects a page from nodes checked in page order: skips the first `offset` that pass, keeps up to `first`, stops after `budget` checks. */
export class PageTaker {
  readonly out: number[] = [];
  /** Nodes checked (EXPLAIN's candidates or visited entries of a walk). */
  checked = 0;
  done = false;
  private skip: number;
  private readonly want: number;

  constructor(
    page: PageParams,
    private readonly budget = Infinity,
  ) {
    this.skip = page.offset;
    this.want = page.first ?? Infinity;
  }

  /** Checks one node (`keyed`: the range `check` tests, read inline, no call); true once the page is complete or the budget spent. */
  offer(id: number, check: Tester, keyed?: KeyedRange): boolean {
    if (this.checked >= this.budget) return true;
    this.checked++;
    if (keyed === undefined ? !check(id) : !inKeyedRange(keyed, id)) return false;
    if (this.skip > 0) this.skip--;
    else if (this.out.push(id) >= this.want) this.done = true;
    return this.done;
  }

  offerPosting(p: Posting, check: Tester): boolean {
    if (typeof p === 'number') return this.offer(p, check);
    const ids = postingIds(p);
    for (let k = 0; k < ids.length; k++) if (this.offer(ids[k] as number, check)) return true;
    return false;
  }
}

/** Whether the node's value lies in the keyed range (filter-check.ts keyedTest's test, inlined here: a walk's reads then overlap their cache misses). */
function inKeyedRange(keyed: KeyedRange, id: number): boolean {
  const v = keyed.values[id] as number;
  return v >= keyed.lo && v <= keyed.hi && (v !== 0 || keyed.present === undefined || keyed.present[id] === 1);
}

/** The check, plus membership of the queried type when the walked predicate may be held by other nodes. */
export function typeMember(ctx: ExecContext, type: TypeModel, field: FieldModel, check: Tester): Tester {
  if (type.kind === 'object' && field.predicate === `${type.name}.${field.name}`) return check;
  const store = ctx.graph.store;
  const name = type.name;
  return (id) => store.hasType(id, name) && check(id);
}

/**
 * An ordered page from an index list's own order (order-page.ts listPrefix: its first K by top-k,
 * cached until the order column is written), each id tested against the rest of the filter; K grows
 * fourfold, resuming where the shorter prefix ended, until the page fills or the list is exhausted.
 * Undefined when the order cannot be cached per list.
 */
export function walkListOrder(ctx: ExecContext, order: OrderPlan, list: SortedIds, test: Tester, page: PageParams, expected: number): { readonly ids: number[]; readonly visited: number } | undefined {
  const taker = new PageTaker(page);
  if (page.first === 0) return { ids: [], visited: 0 };
  let at = 0;
  // Twice the expected visits at first (a power of two, as the cache fills): one ordering, not several.
  for (let k = Math.max(16, 2 ** Math.ceil(Math.log2(Math.max(1, 2 * expected)))); ; k *= 4) {
    const prefix = listPrefix(ctx, order, list, Math.min(k, list.length));
    if (prefix === undefined) return undefined;
    for (; at < prefix.length; at++) if (taker.offer(prefix[at] as number, test)) return { ids: taker.out, visited: taker.checked };
    if (prefix.length >= list.length) return { ids: taker.out, visited: taker.checked };
  }
}

/**
 * An unordered page (uid order) from a check's driver, the ascending ids holding every node that
 * passes: each is tested (type membership unless the driver lies within the type, then the filter)
 * until `need` passed, so the page costs about `need` / (the share of the driver that passes) tests
 * instead of every match collected.
 */
export function scanChecked(driver: Driver, universe: Universe, need: number): { readonly ids: number[]; readonly visited: number } {
  const { ids, test, withinUniverse } = driver;
  const out: number[] = [];
  let visited = 0;
  for (let i = 0; i < ids.length && out.length < need; i++) {
    visited++;
    const id = ids[i] as number;
    if ((withinUniverse || universe.has(id)) && test(id)) out.push(id);
  }
  return { ids: out, visited };
}
