// A union field's `filter: <U>Filter { memberTypes, <m>Filter... }`, as Dgraph rewrites it
// (query_rewriter.go buildUnionFilter): the OR over the chosen members (all when `memberTypes` is
// absent or null; none when it is `[]`) of "has the member type AND matches its <m>Filter, if any".

import type { TypeModel } from '../schema/model.js';
import { unionMany, type SortedIds } from '../util/sorted-ids.js';
import type { ExecContext } from './exec-context.js';
import { evaluateFilter } from './filter-eval.js';
import { memberKey } from './union-member.js';

type Filter = Readonly<Record<string, unknown>>;

/** The ids of `candidates` (targets of a union edge) that pass `filter`. */
export function evaluateUnionFilter(ctx: ExecContext, union: TypeModel, filter: Filter, candidates: SortedIds): SortedIds {
  const chosen = filter['memberTypes'];
  const members = Array.isArray(chosen) ? (chosen as string[]) : union.possibleTypes;
  if (members.length === 0) return [];
  const store = ctx.graph.store;
  const parts: SortedIds[] = [];
  for (const member of members) {
    const ofMember = candidates.filter((id) => store.hasType(id, member));
    const memberFilter = filter[memberKey(member, 'Filter')] as Filter | null | undefined;
    const empty = memberFilter === undefined || memberFilter === null || Object.keys(memberFilter).length === 0;
    parts.push(empty ? ofMember : evaluateFilter(ctx, ctx.typeModel(member), memberFilter, ofMember));
  }
  return parts.length === 1 ? (parts[0] as SortedIds) : unionMany(parts);
}
