// `<T>AggregateResult`: count, and per field Min/Max (orderable fields) and Sum/Avg (numbers).
// Empty input gives count 0 and null for the rest (REFERENCE §6).

import type { SelectionPlan } from '../plan/selection-plan.js';
import type { ScalarValue } from '../indexes/value-index.js';
import type { TypeModel } from '../schema/model.js';
import type { SortedIds } from '../util/sorted-ids.js';
import type { ExecContext } from './exec-context.js';
import { languageValue } from './language-value.js';

const suffixes = ['Min', 'Max', 'Sum', 'Avg'] as const;
type Suffix = (typeof suffixes)[number];

export function aggregateObject(ctx: ExecContext, type: TypeModel, ids: SortedIds, selection: SelectionPlan): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const typeName = `${type.name}AggregateResult`;
  for (const plan of selection.forType(typeName)) {
    if (!ctx.isIncluded(plan)) continue;
    if (plan.fieldName === '__typename') out[plan.responseName] = typeName;
    else if (plan.fieldName === 'count') out[plan.responseName] = ids.length;
    else out[plan.responseName] = fieldAggregate(ctx, type, ids, plan.fieldName);
  }
  return out;
}

function fieldAggregate(ctx: ExecContext, type: TypeModel, ids: SortedIds, name: string): unknown {
  const suffix = suffixes.find((s) => name.endsWith(s));
  if (suffix === undefined) return null;
  const field = type.fields.get(name.slice(0, -suffix.length));
  if (field === undefined) return null;
  const store = ctx.graph.store;
  const column = store.scalar(field.predicate);
  const values: ScalarValue[] = [];
  for (const id of ids) {
    const v = field.languages === undefined ? column.get(id) : languageValue(store, field, id);
    if (v === undefined) continue;
    if (Array.isArray(v)) values.push(...(v as ScalarValue[]));
    else values.push(v as ScalarValue);
  }
  if (values.length === 0) return null;
  return reduce(values, suffix);
}

function reduce(values: readonly ScalarValue[], suffix: Suffix): unknown {
  switch (suffix) {
    case 'Min':
      return values.reduce((a, b) => (b < a ? b : a));
    case 'Max':
      return values.reduce((a, b) => (b > a ? b : a));
    case 'Sum':
      return typeof values[0] === 'bigint'
        ? values.reduce((a, b) => (a as bigint) + (b as bigint))
        : values.reduce((a, b) => (a as number) + (b as number), 0);
    case 'Avg': {
      const total = values.reduce<number>((a, b) => a + Number(b), 0);
      return total / values.length;
    }
  }
}
