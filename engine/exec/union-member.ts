// Union types (`union Pet = Dog | Parrot`) have no nodes of their own: a node belongs to a union
// through its member type, and union inputs name the member by key (`dogRef`, `dogFilter`).

import type { SchemaModel, TypeModel } from '../schema/model.js';
import type { GraphStore } from '../store/graph-store.js';

type Input = Readonly<Record<string, unknown>>;

/** `lc(M)<suffix>`: the key naming member `M` in a `<U>Ref` or `<U>Filter` input (Go's CamelCase lowers one byte). */
export function memberKey(member: string, suffix: 'Ref' | 'Filter'): string {
  return `${member.charAt(0).toLowerCase()}${member.slice(1)}${suffix}`;
}

/** Whether node `id` can be served as `type`: it has the type itself, or, for a union, one of its members. */
export function hasDeclaredType(store: GraphStore, id: number, type: TypeModel): boolean {
  if (type.kind !== 'union') return store.hasType(id, type.name);
  for (const member of type.possibleTypes) if (store.hasType(id, member)) return true;
  return false;
}

/** The set keys of a `<U>Ref` input (exactly one is allowed). */
export function setKeys(input: Input): string[] {
  return Object.keys(input).filter((k) => input[k] !== undefined && input[k] !== null);
}

/** The member a `<U>Ref` input names and the member's own reference, when exactly one key is set. */
export function unionReference(model: SchemaModel, type: TypeModel, input: Input): { type: TypeModel; input: Input } | undefined {
  if (type.kind !== 'union') return undefined;
  const keys = setKeys(input);
  if (keys.length !== 1) return undefined;
  const key = keys[0] as string;
  const member = type.possibleTypes.find((m) => memberKey(m, 'Ref') === key);
  const memberType = member === undefined ? undefined : model.types.get(member);
  return memberType === undefined ? undefined : { type: memberType, input: input[key] as Input };
}
