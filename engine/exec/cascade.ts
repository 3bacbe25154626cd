// `@cascade` / `@cascade(fields: [...])`: an object is dropped unless every selected field (or every
// listed field) has a value. Plain `@cascade` is inherited by nested selections; the field list
// applies at its own level only (as DQL's parameterised cascade). Pagination runs after cascade.

import { Kind, valueFromASTUntyped, type FieldNode } from 'graphql';
import type { FieldPlan } from '../plan/selection-plan.js';

export interface Cascade {
  /** Field names that must be present; undefined = every selected field. */
  readonly fields: readonly string[] | undefined;
  /** Passed on to nested selections. */
  readonly inherited: boolean;
}

const ALL: Cascade = { fields: undefined, inherited: true };
const literal = new WeakMap<FieldPlan, Cascade | null>();

/** The cascade in force for the objects of `plan`: its own directive, else what the parent passes on. */
export function cascadeFor(plan: FieldPlan, parent: Cascade | undefined, variables: Readonly<Record<string, unknown>>): Cascade | undefined {
  const own = ownCascade(plan, variables);
  if (own !== null) return own;
  return parent?.inherited === true ? parent : undefined;
}

function ownCascade(plan: FieldPlan, variables: Readonly<Record<string, unknown>>): Cascade | null {
  const cached = literal.get(plan);
  if (cached !== undefined) return cached;
  const directive = (plan.nodes[0] as FieldNode).directives?.find((d) => d.name.value === 'cascade');
  if (directive === undefined) {
    literal.set(plan, null);
    return null;
  }
  const arg = directive.arguments?.find((a) => a.name.value === 'fields');
  if (arg === undefined) {
    literal.set(plan, ALL);
    return ALL;
  }
  const value = valueFromASTUntyped(arg.value, variables);
  const fields = value === null || value === undefined ? undefined : (Array.isArray(value) ? value : [value]).map(String);
  const cascade: Cascade = fields === undefined ? ALL : { fields, inherited: false };
  if (arg.value.kind !== Kind.VARIABLE) literal.set(plan, cascade);
  return cascade;
}

/** Whether a completed object satisfies the cascade, given the plans that produced it. */
export function passesCascade(
  cascade: Cascade,
  object: Readonly<Record<string, unknown>>,
  plans: readonly FieldPlan[],
  stored: (field: string) => boolean,
): boolean {
  // Listed fields that are not selected are checked against the stored node.
  if (cascade.fields !== undefined) {
    for (const name of cascade.fields) if (!plans.some((p) => p.fieldName === name) && !stored(name)) return false;
  }
  for (const plan of plans) {
    if (plan.fieldName === '__typename') continue;
    if (cascade.fields !== undefined && !cascade.fields.includes(plan.fieldName)) continue;
    if (!(plan.responseName in object)) continue; // skipped by @skip/@include
    const value = object[plan.responseName];
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return false;
  }
  return true;
}
