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

/**
 * Whether Dgraph's mutation rewriting can see existing nodes at all. Its existence queries
 * (`T_1(func: eq(T.xid, v)) { uid dgraph.type }`, `func: uid(0x..)` for IDs) are pruned under ACL like
 * any query, and a node counts only when its dgraph.type holds the expected type: without READ on
 * dgraph.type, nothing is found.
 */
export function existenceVisible(ctx: ExecContext): boolean {
  return ctx.acl === undefined || ctx.acl.reads('dgraph.type');
}

/** `findByXid` as those existence queries see it: not found when the caller cannot read dgraph.type or the @id predicate (the root function pruned). */
export function existingByXid(ctx: ExecContext, type: TypeModel, field: FieldModel, value: unknown): number | undefined {
  if (!existenceVisible(ctx) || ctx.acl?.reads(field.predicate) === false) return undefined;
  return findByXid(ctx, type, field, value);
}
