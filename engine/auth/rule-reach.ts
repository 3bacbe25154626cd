// Whether a query reads any node of a type with `@auth` query rules (its roots' types, edge and
// `<f>Aggregate` targets, interface implementations). Such queries take the general read path, which
// applies the rules; others keep the direct JSON writer (exec/write-objects.ts), which does not.

import type { FieldPlan, SelectionPlan } from '../plan/selection-plan.js';
import type { SchemaModel, TypeModel } from '../schema/model.js';
import type { AuthRules } from './auth-rules.js';

export function readsRestricted(model: SchemaModel, rules: AuthRules, roots: readonly FieldPlan[]): boolean {
  const restricted = (type: TypeModel): boolean =>
    (type.kind === 'object' ? [type.name] : type.possibleTypes).some((name) => rules.rulesOf(name, 'query').length > 0);
  const visit = (type: TypeModel, selection: SelectionPlan | undefined): boolean => {
    if (restricted(type)) return true;
    if (selection === undefined) return false;
    for (const name of type.kind === 'object' ? [type.name] : type.possibleTypes) {
      const concrete = model.types.get(name);
      if (concrete === undefined) continue;
      for (const plan of selection.forType(name)) {
        const edge = concrete.fields.get(plan.fieldName) ?? (plan.fieldName.endsWith('Aggregate') ? concrete.fields.get(plan.fieldName.slice(0, -'Aggregate'.length)) : undefined);
        const target = edge === undefined ? undefined : model.types.get(edge.typeName);
        if (target === undefined) continue;
        // An aggregate's selection is over `<T>AggregateResult`, not the target's fields.
        if (visit(target, edge?.name === plan.fieldName ? plan.selection : undefined)) return true;
      }
    }
    return false;
  };
  for (const plan of roots) {
    const root = model.queries.get(plan.fieldName);
    const type = root?.type === undefined ? undefined : model.types.get(root.type);
    if (type === undefined) continue;
    if (visit(type, root?.kind === 'aggregate' ? undefined : plan.selection)) return true;
  }
  return false;
}
