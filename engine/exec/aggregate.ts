// `<T>AggregateResult`: count, and per field Min/Max (orderable fields) and Sum/Avg (numbers).
// Empty input gives count 0 and null for the rest (REFERENCE §6). The matches come ascending, or in
// one field's value order (a range walk's: then that field's Min and Max are its ends); a float sum
// is rounded after each term, so it follows ascending ids as Dgraph's does, and only then are the
// ids put in that order.

import type { SelectionPlan } from '../plan/selection-plan.js';
import type { ScalarValue } from '../indexes/value-index.js';
import type { FieldModel, TypeModel } from '../schema/model.js';
import { sortedDistinct } from '../util/id-sort.js';
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

/** The nodes an aggregate reduces: distinct ids, ascending unless `byValueOf` is set. */
export interface AggregateMatches {
  readonly ids: ArrayLike<number>;
  /** The ids come in ascending order of this single-valued field's value (ties by id), not ascending. */
  readonly byValueOf?: FieldModel;
}

/** The object of the matches (`ids` ascending, or as `AggregateMatches` says). */
export function aggregateObject(ctx: ExecContext, type: TypeModel, ids: ArrayLike<number> | AggregateMatches, selection: SelectionPlan): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const typeName = resultTypeName(type);
  const matches = new Matches(ctx, 'length' in ids ? { ids } : ids);
  for (const plan of selection.forType(typeName)) {
    if (!ctx.isIncluded(plan)) continue;
    if (plan.fieldName === '__typename') out[plan.responseName] = typeName;
    else if (plan.fieldName === 'count') out[plan.responseName] = matches.ids.length;
    else out[plan.responseName] = fieldAggregate(ctx, type, matches, plan.fieldName);
  }
  return out;
}

/** The matches as given, and ascending (sorted once, when a sum first needs it). */
class Matches {
  readonly ids: ArrayLike<number>;
  readonly byValueOf: FieldModel | undefined;
  private ascending: ArrayLike<number> | undefined;
  constructor(
    private readonly ctx: ExecContext,
    matches: AggregateMatches,
  ) {
    this.ids = matches.ids;
    this.byValueOf = matches.byValueOf;
    if (matches.byValueOf === undefined) this.ascending = matches.ids;
  }
  inIdOrder(): ArrayLike<number> {
    return (this.ascending ??= sortedDistinct(this.ids, this.ctx.graph.store.maxNodeId + 1));
  }
}

function fieldAggregate(ctx: ExecContext, type: TypeModel, matches: Matches, name: string): unknown {
  const suffix = suffixes.find((s) => name.endsWith(s));
  if (suffix === undefined) return null;
  const field = type.fields.get(name.slice(0, -suffix.length));
  if (field === undefined || (ctx.acl !== undefined && !ctx.acl.reads(field.predicate))) return null;
  const store = ctx.graph.store;
  const column = store.scalar(field.predicate);
  const numbers = field.languages === undefined ? column.numbers() : undefined;
  // Min, Max and Int sums (exact below 2^53) are the same in any order.
  const minMax = suffix === 'Min' || suffix === 'Max';
  const ids = minMax || field.typeName === 'Int' ? matches.ids : matches.inIdOrder();
  if (numbers !== undefined) {
    // Ids in this number field's value order: its Min and Max are the values at the ends.
    if (minMax && matches.byValueOf?.predicate === field.predicate && ids.length > 0) return numbers.nums[ids[suffix === 'Min' ? 0 : ids.length - 1] as number] as number;
    return numberAggregate(ids, numbers, suffix);
  }
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

/** The reduction straight over a number column's arrays (no value list), in the ids' order as `reduce` does. */
function numberAggregate(ids: ArrayLike<number>, column: NumericColumnView, suffix: Suffix): number | null {
  const { present, nums } = column;
  let count = 0;
  let acc = suffix === 'Min' ? Infinity : suffix === 'Max' ? -Infinity : 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    if (present[id] !== 1) continue;
    const v = nums[id] as number;
    count++;
    if (suffix === 'Min') acc = v < acc ? v : acc;
    else if (suffix === 'Max') acc = v > acc ? v : acc;
    else acc += v;
  }
  if (count === 0) return null;
  return suffix === 'Avg' ? acc / count : acc;
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
