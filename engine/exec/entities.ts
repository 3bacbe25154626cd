// Apollo federation `_entities(representations: [_Any!]!)`: each representation names a type and
// its @key field value; the answer lists the matching nodes in the same order (null if absent).

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
  for (const raw of representations) {
    const rep = raw as Record<string, unknown>;
    const typeName = String(rep['__typename']);
    const type = ctx.model.types.get(typeName);
    if (type === undefined) throw new FieldError(messages.entitiesUnknownType(typeName));
    const key = keyFieldOf(ctx, typeName);
    const id = getTarget(ctx, type, { [key]: rep[key] }, plan);
    const object = id === undefined || plan.selection === undefined ? null : readObject(ctx, id, type, plan.selection, pathOf(path, out.length));
    out.push(object === CASCADED ? null : object);
  }
  return out;
}

/** The field named by the type's `@key(fields: "...")`. */
function keyFieldOf(ctx: ExecContext, typeName: string): string {
  const type = ctx.apiSchema.getType(typeName);
  const key = type?.astNode?.directives?.find((d) => d.name.value === 'key');
  const fields = key?.arguments?.find((a) => a.name.value === 'fields')?.value;
  if (fields?.kind !== Kind.STRING) throw new FieldError(messages.entitiesNoKey(typeName));
  return fields.value.trim();
}
