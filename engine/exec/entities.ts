// Apollo federation `_entities(representations: [_Any!]!)`: each representation names a type and
// its @key field value. As Dgraph (resolve/resolver.go entitiesQueryCompletion): when every distinct
// key is found, the answer follows the representations (a repeated key repeats its entity); when one
// is missing, the entities found come in ascending key order, with no null for the missing ones.
// An `@external` ID key is an XID (stored as a String), looked up like any `@id` field.

import { Kind } from 'graphql';
import type { FieldPlan } from '../plan/selection-plan.js';
import { FieldError, pathOf, type ExecContext, type Path } from './exec-context.js';
import { CASCADED, readObject, type Completed } from './read-objects.js';
import { getTarget } from './query-root.js';
import { messages } from '../errors/messages.js';

export function resolveEntities(ctx: ExecContext, plan: FieldPlan, path: Path): Completed {
  const args = ctx.argumentsOf(plan);
  const representations = (args['representations'] as unknown[] | undefined) ?? [];
  const out: unknown[] = [];
  const byKey = new Map<unknown, unknown>();
  for (const raw of representations) {
    const rep = raw as Record<string, unknown>;
    const typeName = String(rep['__typename']);
    const type = ctx.model.types.get(typeName);
    if (type === undefined) throw new FieldError(messages.entitiesUnknownType(typeName));
    const key = keyFieldOf(ctx, typeName);
    const found = getTarget(ctx, type, { [key]: rep[key] }, plan);
    // Under `@auth` a node its query rule does not let through is not found (Dgraph filters the root by the rule).
    const id = found !== undefined && ctx.auth !== undefined && !ctx.auth.mayRead(found, type) ? undefined : found;
    const object = id === undefined || plan.selection === undefined ? null : readObject(ctx, id, type, plan.selection, pathOf(path, out.length));
    out.push(object === CASCADED ? null : object);
    byKey.set(rep[key], out[out.length - 1]);
  }
  if (![...byKey.values()].includes(null)) return out;
  const found = [...byKey].filter(([, object]) => object !== null).sort(([a], [b]) => ascending(a, b));
  return found.map(([, object]) => object);
}

/** Key values as Dgraph sorts them: numbers (Int, Int64) by value, strings by their UTF-8 bytes as Go does. */
function ascending(a: unknown, b: unknown): number {
  const numeric = (v: unknown) => typeof v === 'number' || typeof v === 'bigint';
  if (numeric(a) && numeric(b)) return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

/** The field named by the type's `@key(fields: "...")`. */
function keyFieldOf(ctx: ExecContext, typeName: string): string {
  const type = ctx.apiSchema.getType(typeName);
  const key = type?.astNode?.directives?.find((d) => d.name.value === 'key');
  const fields = key?.arguments?.find((a) => a.name.value === 'fields')?.value;
  if (fields?.kind !== Kind.STRING) throw new FieldError(messages.entitiesNoKey(typeName));
  return fields.value.trim();
}
