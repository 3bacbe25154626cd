// Which predicates a GraphQL mutation writes, for the ACL's WRITE check (edgraph's authorizeMutation):
// what Dgraph's mutation rewriting would put in its N-Quads. Add: `dgraph.type`, each given field's
// predicate, the predicate of its `@hasInverse` partner, `@default(add:)` fields, and the same for
// nested new objects, those of a union field as its named member (a reference by ID writes only the
// edge). Update: the `set` and `remove` fields (and `@default(update:)` ones with `set`). Delete:
// `_STAR_ALL` (Dgraph deletes `<uid> * *`) and the partners of `@hasInverse` edges. `@custom` and
// `@lambda` mutations write nothing here (a lambda's own requests back are checked as they come).

import { getArgumentValues, type FieldNode, type GraphQLSchema } from 'graphql';
import type { SchemaModel, TypeModel } from '../schema/model.js';
import { unionReference } from '../exec/union-member.js';
import type { AclReads } from './acl-read.js';
import type { GraphQLRequest } from '../api.js';

/**
 * Whether a nested input names an existing node by an @id value (then only the edge to it is written).
 * `reads`: the caller's read view, which prunes Dgraph's existence queries as any query (exec/xid-lookup.ts existingByXid).
 */
export type ReferencesExisting = (type: TypeModel, input: Readonly<Record<string, unknown>>, reads?: AclReads) => boolean;

/**
 * A non-guardian's WRITE check of one root mutation field, made as that field runs (Dgraph checks each
 * mutation as it executes, so a field sees the nodes the fields before it made): the refusal's reason,
 * or undefined. Set per request by the ACL gate (acl-gate.ts), run by the executor.
 */
export type WriteCheck = (model: SchemaModel, schema: GraphQLSchema, field: FieldNode, variables: Readonly<Record<string, unknown>>, existing: ReferencesExisting) => string | undefined;

const requestChecks = new WeakMap<GraphQLRequest, WriteCheck>();

export function setRequestWriteCheck(request: GraphQLRequest, check: WriteCheck): void {
  requestChecks.set(request, check);
}

export function requestWriteCheck(request: GraphQLRequest): WriteCheck | undefined {
  return requestChecks.get(request);
}

/** Predicates written by one root mutation field, or undefined when it is not a stored-type mutation. */
export function writtenPredicates(
  model: SchemaModel,
  schema: GraphQLSchema,
  field: FieldNode,
  variables: Readonly<Record<string, unknown>>,
  existing: ReferencesExisting = () => false,
): Set<string> | undefined {
  const w = new Walk(model, existing);
  const root = model.mutations.get(field.name.value);
  const type = root?.type === undefined ? undefined : model.types.get(root.type);
  const definition = schema.getMutationType()?.getFields()[field.name.value];
  if (root === undefined || type === undefined || definition === undefined) return undefined;
  const args = getArgumentValues(definition, field, variables) as Record<string, unknown>;
  const out = new Set<string>();
  if (root.kind === 'add') {
    for (const input of asList(args['input'])) w.object(type, input, out, 'add', false);
  } else if (root.kind === 'update') {
    const input = (args['input'] ?? {}) as { set?: unknown; remove?: unknown };
    if (isObject(input.set)) w.fields(type, input.set, out, 'update');
    if (isObject(input.remove)) w.fields(type, input.remove, out, undefined);
  } else if (root.kind === 'delete') {
    out.add('_STAR_ALL');
    for (const f of type.fields.values()) if (f.inverse !== undefined) addInverse(model, f.inverse, out);
  } else {
    return undefined;
  }
  return out;
}

class Walk {
  constructor(
    private readonly model: SchemaModel,
    private readonly existing: ReferencesExisting,
  ) {}

  /** A new node: its type, its fields and the defaults it gets. */
  object(type: TypeModel, value: unknown, out: Set<string>, defaults: 'add' | 'update' | undefined, nested: boolean): void {
    if (!isObject(value)) return;
    // An ID names an existing node, which gets no values (Dgraph's asIDReference ignores the other fields);
    // so does a nested @id value of an existing node (looked up as the check runs, before the mutation).
    if (type.idField !== undefined && value[type.idField] !== undefined && value[type.idField] !== null) return;
    if (nested && type.xidFields.length > 0 && this.existing(type, value)) return;
    out.add('dgraph.type');
    this.fields(type, value, out, defaults);
  }

  fields(type: TypeModel, value: Record<string, unknown>, out: Set<string>, defaults: 'add' | 'update' | undefined): void {
    for (const [key, given] of Object.entries(value)) {
      if (type.secret?.field === key) out.add(type.secret.predicate);
      const field = type.fields.get(key);
      if (field === undefined || field.kind === 'id' || field.custom !== undefined) continue;
      out.add(field.reverseOf ?? field.predicate);
      if (field.inverse !== undefined) addInverse(this.model, field.inverse, out);
      const target = this.model.types.get(field.typeName);
      for (const item of asList(given)) {
        // A union's `<U>Ref` names its member (`dogRef: {…}`): that type's predicates. An interface's
        // `<I>Ref` holds only its ID and @id fields: it references an existing node (the edge alone).
        const nested = target?.kind === 'union' && isObject(item) ? unionReference(this.model, target, item) : target?.kind === 'object' ? { type: target, input: item } : undefined;
        if (nested !== undefined) this.object(nested.type, nested.input, out, 'add', true);
      }
    }
    if (defaults === undefined) return;
    for (const field of type.fields.values()) {
      if (field.defaults?.[defaults] !== undefined && !(field.name in value)) out.add(field.predicate);
    }
  }
}

function addInverse(model: SchemaModel, inverse: { readonly type: string; readonly field: string }, out: Set<string>): void {
  const partner = model.types.get(inverse.type)?.fields.get(inverse.field);
  if (partner !== undefined) out.add(partner.reverseOf ?? partner.predicate);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
