// Finding nodes by an `@id` field value through the field's hash/int index.

import type { FieldModel, IndexKind, TypeModel } from '../schema/model.js';
import type { HashIndex } from '../indexes/hash-index.js';
import type { OrderedIndex } from '../indexes/ordered-index.js';
import type { ExecContext } from './exec-context.js';
import { xidIndexKind } from '../plan/filter-plan.js';
import { toStoredValue } from './stored-values.js';
import { postingIds } from '../indexes/postings/posting.js';

/** The node of `type` (or of any type, for interface-wide ids) whose xid field equals `value`, through the `kind` index (a get plan's, else the field's lookup index). */
export function findByXid(ctx: ExecContext, type: TypeModel, field: FieldModel, value: unknown, kind: IndexKind = xidIndexKind(field)): number | undefined {
  const store = ctx.graph.store;
  const index = store.scalar(field.predicate).index(kind);
  if (index === undefined) return undefined;
  const stored = toStoredValue(field, value);
  const owner = field.xidInterface ? field.declaringType : type.name;
  if (kind === 'hash') {
    const p = (index as HashIndex).posting(stored);
    if (p === undefined) return undefined;
    if (typeof p === 'number') return store.hasType(p, owner) ? p : undefined; // the usual unique @id
    return postingIds(p).find((id) => store.hasType(id, owner));
  }
  return (index as OrderedIndex).eq(stored).find((id) => store.hasType(id, owner));
}
