// `<T>AggregateResult`: count, and per field Min/Max (orderable fields) and Sum/Avg (numbers).
// Empty input gives count 0 and null for the rest (REFERENCE §6). A float sum is rounded after each
// term, so it follows ascending ids as Dgraph's does; a range walk's matches are put in id order only
// when a Sum or Avg asks (a number Min/Max reads them in any order). A range walk also names the nodes
// of its field's Min and Max (its first and last match), read without a scan.

import type { SelectionPlan } from '../plan/selection-plan.js';
import type { ScalarValue } from '../indexes/value-index.js';
import type { FieldModel, TypeModel } from '../schema/model.js';
import type { ExecContext } from './exec-context.js';
import { languageValue } from './language-value.js';
import type { NumericColumnView } from '../store/scalar-column.js';

const suffixes = ['Min', 'Max', 'Sum', 'Avg'] as const;
type Suffix = (typeof suffixes)[number];

/** `<T>AggregateResult` per type, made once: a new string per request is hashed again by every Map lookup. */
const resultNames = new WeakMap<TypeModel, string>();

function resultTypeName(type: TypeModel): string {
  let name = resultNames.get(type);
  if (name === undefined) resultNames.set(type, (name = `${type.name}AggregateResult`));
  return name;
}

/** The nodes an aggregate reduces: distinct ids, ascending unless `inIdOrder` is given. */
export interface AggregateMatches {
  readonly ids: ArrayLike<number>;
  /**
   * Given when `ids` come in a walk's order: the same ids ascending (sorted once, on the first call).
   * Only a Sum or Avg needs them (a float sum is rounded term by term); a count, Min and Max do not.
   */
  readonly inIdOrder?: () => ArrayLike<number>;
  /** The matches were walked in ascending order of this field's value (ties by id): `first` holds its Min, `last` its Max. */
  readonly ends?: { readonly field: FieldModel; readonly first: number; readonly last: number };
}

/** The object of the matches. */
export function aggregateObject(ctx: ExecContext, type: TypeModel, ids: ArrayLike<number> | AggregateMatches, selection: SelectionPlan): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const typeName = resultTypeName(type);
  const matches: AggregateMatches = 'length' in ids ? { ids } : ids;
  for (const plan of selection.forType(typeName)) {
    if (!ctx.isIncluded(plan)) continue;
    if (plan.fieldName === '__typename') out[plan.responseName] = typeName;
    else if (plan.fieldName === 'count') out[plan.responseName] = matches.ids.length;
    else out[plan.responseName] = fieldAggregate(ctx, type, matches, plan.fieldName);
  }
  return out;
}

function fieldAggregate(ctx: ExecContext, type: TypeModel, matches: AggregateMatches, name: string): unknown {
  const suffix = suffixes.find((s) => name.endsWith(s));
  if (suffix === undefined) return null;
  const field = type.fields.get(name.slice(0, -suffix.length));
  if (field === undefined || (ctx.acl !== undefined && !ctx.acl.reads(field.predicate))) return null;
  const store = ctx.graph.store;
  const column = store.scalar(field.predicate);
  const numbers = field.languages === undefined ? column.numbers() : undefined;
  const extreme = suffix === 'Min' || suffix === 'Max';
  if (numbers !== undefined) {
    // A walk in this number field's value order met its Min and Max first and last.
    const ends = matches.ends;
    if (extreme && ends?.field.predicate === field.predicate) return numbers.nums[suffix === 'Min' ? ends.first : ends.last] as number;
    return numberAggregate(extreme ? matches.ids : idOrder(matches), numbers, suffix);
  }
  const ids = idOrder(matches);
  const values: ScalarValue[] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    const v = field.languages === undefined ? column.get(id) : languageValue(store, field, id);
    if (v === undefined) continue;
    if (Array.isArray(v)) values.push(...(v as ScalarValue[]));
    else values.push(v as ScalarValue);
  }
  if (values.length === 0) return null;
  return reduce(values, suffix);
}

function idOrder(matches: AggregateMatches): ArrayLike<number> {
  return matches.inIdOrder === undefined ? matches.ids : matches.inIdOrder();
}

/**
 * The reduction straight over a number column's arrays (no value list), in the ids' order as `reduce`
 * does. One loop per reduction with a plain local: one accumulator shared by the branches was boxed
 * per row (a heap number each: 16 KB and a young GC share for a 1,000-row Avg). An absent slot holds 0
 * (or lies past the end), so `present` is read only then: one memory read per row, not two (each a
 * cache miss at 1M).
 */
function numberAggregate(ids: ArrayLike<number>, column: NumericColumnView, suffix: Suffix): number | null {
  const { present, nums } = column;
  let count = 0;
  if (suffix === 'Min' || suffix === 'Max') {
    const max = suffix === 'Max';
    let best = max ? -Infinity : Infinity;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      const v = nums[id] as number;
      if ((v === 0 || v === undefined) && present[id] !== 1) continue;
      count++;
      if (max ? v > best : v < best) best = v;
    }
    return count === 0 ? null : best;
  }
  let sum = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    const v = nums[id] as number;
    if ((v === 0 || v === undefined) && present[id] !== 1) continue;
    sum += v;
    count++;
  }
  if (count === 0) return null;
  return suffix === 'Avg' ? sum / count : sum;
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
