// Which commits can change a subscription's answer, told by stored types: the types its selection reads
// (the root field's type, every edge's target type, implementations of interfaces and members of
// unions) against the types a commit wrote (the owners of the predicates it wrote, and the types of
// nodes it created, deleted or retyped). Filters, orders, aggregates and @cascade of a selection read
// only the types the selection already names. What cannot be told so is 'all': a `@custom(dql:)`
// root (any DQL), or a type under `@auth` query rules (a graph rule reads other types).

import type { FragmentDefinitionNode, SelectionSetNode } from 'graphql';
import type { Touched } from '../store/graph-store.js';
import { isEdgeField, type SchemaModel, type TypeModel } from '../schema/model.js';

export type ReadTypes = ReadonlySet<string> | 'all';

export function subscriptionReads(
  model: SchemaModel,
  selectionSet: SelectionSetNode,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  hasQueryRules: (typeName: string) => boolean,
): ReadTypes {
  const types = new Set<string>();
  let all = false;
  const addType = (name: string): void => {
    const type = model.types.get(name);
    if (type === undefined || types.has(name)) return;
    types.add(name);
    if (hasQueryRules(name)) all = true;
    for (const member of type.possibleTypes) addType(member);
    for (const parent of type.interfaces) if (hasQueryRules(parent)) all = true;
  };
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode, parent: TypeModel | undefined): void => {
    for (const selection of set.selections) {
      if (all) return;
      if (selection.kind === 'InlineFragment') {
        const condition = selection.typeCondition?.name.value;
        walk(selection.selectionSet, condition === undefined ? parent : model.types.get(condition) ?? parent);
        continue;
      }
      if (selection.kind === 'FragmentSpread') {
        const fragment = fragments[selection.name.value];
        if (fragment !== undefined && !seen.has(fragment.name.value)) {
          seen.add(fragment.name.value);
          walk(fragment.selectionSet, model.types.get(fragment.typeCondition.name.value) ?? parent);
        }
        continue;
      }
      const name = selection.name.value;
      if (parent === undefined) {
        const root = model.subscriptions.get(name);
        if (root === undefined) continue; // __typename
        if (root.type === undefined || root.kind === 'custom') {
          all = true;
          return;
        }
        addType(root.type);
        if (selection.selectionSet !== undefined) walk(selection.selectionSet, model.types.get(root.type));
        continue;
      }
      // `<f>Aggregate` reads the targets of `f`.
      const field = parent.fields.get(name) ?? (name.endsWith('Aggregate') ? parent.fields.get(name.slice(0, -'Aggregate'.length)) : undefined);
      if (field === undefined || !isEdgeField(field)) continue;
      addType(field.typeName);
      if (selection.selectionSet !== undefined) walk(selection.selectionSet, model.types.get(field.typeName));
    }
  };
  walk(selectionSet, undefined);
  return all ? 'all' : types;
}

const ownersByModel = new WeakMap<SchemaModel, ReadonlyMap<string, readonly string[]>>();

/** The types a commit wrote: its retyped nodes' types, and every type that stores (or inherits) a predicate it wrote. */
export function touchedTypes(model: SchemaModel, touched: Touched): ReadonlySet<string> {
  let owners = ownersByModel.get(model);
  if (owners === undefined) {
    const map = new Map<string, string[]>();
    for (const type of model.types.values()) {
      for (const field of type.fields.values()) {
        if (field.custom !== undefined) continue;
        const list = map.get(field.predicate) ?? [];
        if (!list.includes(type.name)) list.push(type.name);
        map.set(field.predicate, list);
      }
    }
    ownersByModel.set(model, (owners = map));
  }
  const out = new Set(touched.types);
  for (const predicate of touched.predicates) {
    const names = owners.get(predicate);
    if (names === undefined) return new Set(model.types.keys()); // a predicate no field names (DQL-written): anything
    for (const name of names) out.add(name);
  }
  return out;
}
