// Ordered page by walking the order field's index and testing each visited node against the whole
// filter (filter-check.ts), before any candidate list exists: a page of k over a filter passing a
// share s of the type visits about k / s index entries, whatever the type's size, where collecting the
// candidates first costs every match. Taken when the plan's rule (plan/order-plan.ts choosePage) picks
// an index walk for the filter's bound from its postings; gives up (undefined) once it visited as many
// entries as collecting would cost, or when the index ran out before the page filled (nodes without
// an order value come last, and only the collecting path finds them), so the caller collects instead.

import type { OrderedIndex } from '../indexes/ordered-index.js';
import type { Posting } from '../indexes/postings/posting.js';
import { postingIds } from '../indexes/postings/posting.js';
import type { IndexKind, TypeModel } from '../schema/model.js';
import type { OrderKey } from '../plan/order-plan.js';
import type { Universe } from './universe.js';
import type { ExecContext } from './exec-context.js';
import type { Driver } from './filter-check.js';

export interface CheckedWalk {
  /** The first `need` passing nodes in order, or undefined when the walk gave up. */
  readonly ids: number[] | undefined;
  /** Index entries visited (EXPLAIN). */
  readonly visited: number;
}

export function walkChecked(
  ctx: ExecContext,
  type: TypeModel,
  key: OrderKey,
  kind: IndexKind,
  test: (id: number) => boolean,
  universe: Universe,
  need: number,
  budget: number,
): CheckedWalk {
  const index = ctx.graph.store.scalar(key.model.predicate).index(kind) as OrderedIndex | undefined;
  if (index === undefined || need === 0) return { ids: need === 0 ? [] : undefined, visited: 0 };
  // A predicate only the type's nodes hold needs no membership test of the type.
  const ownPredicate = type.kind === 'object' && key.model.predicate === `${type.name}.${key.field}`;
  const passes = ownPredicate ? test : (id: number): boolean => universe.has(id) && test(id);
  const out: number[] = [];
  let visited = 0;
  let full = false;
  index.walk(key.desc ? 'desc' : 'asc', (p: Posting) => {
    if (typeof p === 'number') {
      visited++;
      if (passes(p)) out.push(p);
    } else {
      const ids = postingIds(p);
      for (let i = 0; i < ids.length && out.length < need && visited < budget; i++) {
        visited++;
        const id = ids[i] as number;
        if (passes(id)) out.push(id);
      }
    }
    full = out.length >= need;
    return full || visited >= budget;
  });
  return { ids: full ? out : undefined, visited };
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
