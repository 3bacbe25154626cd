// The access path of `get<T>` (and `check<T>Password`, `querySimilar<T>ById`, `_entities`): one key
// lookup per supplied key argument — the node id, or an `@id` field through the index that holds it —
// each of which must find the same node of the type. Which keys are supplied is the plan's shape
// (`keyMask`); their values are read from each request's arguments when it runs.

import type { FieldModel, IndexKind, TypeModel } from '../schema/model.js';
import { xidIndexKind } from './filter-plan.js';

export type KeyLookup =
  | { readonly op: 'uid'; readonly arg: string }
  | { readonly op: 'xid'; readonly arg: string; readonly model: FieldModel; readonly index: IndexKind };

export interface GetPlan {
  readonly root: string;
  readonly type: string;
  /** Run in this order; none (no key supplied) finds nothing. */
  readonly keys: readonly KeyLookup[];
}

/** Bit i set when the i-th key argument (the ID field, then the `@id` fields) is supplied, non-null. */
export function keyMask(type: TypeModel, args: Readonly<Record<string, unknown>>): number {
  let mask = 0;
  if (type.idField !== undefined && args[type.idField] !== undefined && args[type.idField] !== null) mask = 1;
  const xids = type.xidFields;
  for (let i = 0; i < xids.length; i++) {
    const value = args[xids[i] as string];
    if (value !== undefined && value !== null) mask |= 2 << i;
  }
  return mask;
}

export function planGet(root: string, type: TypeModel, mask: number): GetPlan {
  const keys: KeyLookup[] = [];
  if (type.idField !== undefined && (mask & 1) !== 0) keys.push({ op: 'uid', arg: type.idField });
  type.xidFields.forEach((name, i) => {
    const model = type.fields.get(name);
    if (model !== undefined && (mask & (2 << i)) !== 0) keys.push({ op: 'xid', arg: name, model, index: xidIndexKind(model) });
  });
  return { root, type: type.name, keys };
}

/** EXPLAIN of a get plan; `found` (after the run) is the node it found, if any. */
export function explainGet(plan: GetPlan, found?: string | null): string {
  const lines = [`${plan.root}: ${plan.type}`];
  for (const key of plan.keys) lines.push(key.op === 'uid' ? `  lookup ${key.arg} (uid)` : `  lookup ${key.arg} via ${key.index}`);
  if (plan.keys.length === 0) lines.push('  no key: nothing');
  if (found !== undefined) lines.push(`  ran: ${found === null ? 'no node' : `found ${found}`}`);
  return lines.join('\n');
}
