// Where a query reads nodes of types with `@auth` query rules: nowhere, only as its root fields' nodes,
// or below (edge and `<f>Aggregate` targets, interface implementations included). The direct JSON
// writer (exec/write-objects.ts) applies rules at roots only: a query restricted below takes the
// general read path, which applies them everywhere.

import type { FieldPlan, SelectionPlan } from '../plan/selection-plan.js';
import type { SchemaModel, TypeModel } from '../schema/model.js';
import type { AuthRules } from './auth-rules.js';

export type RestrictedReads = 'none' | 'roots' | 'nested';

export function restrictedReads(model: SchemaModel, rules: AuthRules, roots: readonly FieldPlan[]): RestrictedReads {
  const restricted = (type: TypeModel): boolean =>
    (type.kind === 'object' ? [type.name] : type.possibleTypes).some((name) => rules.rulesOf(name, 'query').length > 0);
  /** Whether a selection over `type`'s nodes reads a restricted type below them. */
  const below = (type: TypeModel, selection: SelectionPlan | undefined): boolean => {
    if (selection === undefined) return false;
    for (const name of type.kind === 'object' ? [type.name] : type.possibleTypes) {
      const concrete = model.types.get(name);
      if (concrete === undefined) continue;
      for (const plan of selection.forType(name)) {
        const own = concrete.fields.get(plan.fieldName);
        const edge = own ?? (plan.fieldName.endsWith('Aggregate') ? concrete.fields.get(plan.fieldName.slice(0, -'Aggregate'.length)) : undefined);
        const target = edge === undefined ? undefined : model.types.get(edge.typeName);
        if (target === undefined) continue;
        // An aggregate's selection is over `<T>AggregateResult`, not the target's fields.
        if (restricted(target) || below(target, own === undefined ? undefined : plan.selection)) return true;
      }
    }
    return false;
  };
  let out: RestrictedReads = 'none';
  for (const plan of roots) {
    const root = model.queries.get(plan.fieldName);
    const type = root?.type === undefined ? undefined : model.types.get(root.type);
    if (type === undefined) continue;
    if (below(type, root?.kind === 'aggregate' ? undefined : plan.selection)) return 'nested';
    if (restricted(type)) out = 'roots';
  }
  return out;
}
