// Which commits can change a subscription's answer, told by predicates and types: what its selection
// reads (every field's predicate, edges and their targets, the fields its filters, orders, `has`,
// aggregates and `@cascade(fields:)` name, at the root and on nested edges) against what a commit wrote
// (the predicates in its undo log, and the types of the nodes it created, deleted or retyped).
// Where a selection cannot be told so precisely it falls back: to every predicate of a type when an
// argument hides field names (a variable filter, a union's member filters, similarity roots), and to
// 'all' for a `@custom(dql:)` root (any DQL) or a type under `@auth` query rules (graph rules read
// other types).

import type { ArgumentNode, DirectiveNode, FieldNode, FragmentDefinitionNode, SelectionSetNode, ValueNode } from 'graphql';
import type { Touched } from '../store/graph-store.js';
import { isEdgeField, type FieldModel, type SchemaModel, type TypeModel } from '../schema/model.js';

export interface Reads {
  /** Storage type names whose nodes' creation, deletion or retyping can change the answer. */
  readonly types: ReadonlySet<string>;
  readonly predicates: ReadonlySet<string>;
  /** `pred@` of any-language fields (`pred@*`): a write to any language of `pred` counts. */
  readonly prefixes: readonly string[];
}

export type SubscriptionReads = Reads | 'all';

/** Whether a commit that wrote `touched` can change an answer reading `reads`. */
export function readsTouched(reads: SubscriptionReads, touched: Touched): boolean {
  if (reads === 'all') return true;
  for (const type of touched.types) if (reads.types.has(type)) return true;
  for (const predicate of touched.predicates) {
    if (reads.predicates.has(predicate)) return true;
    for (const prefix of reads.prefixes) if (predicate.startsWith(prefix)) return true;
  }
  return false;
}

const aggregateSuffixes = ['Min', 'Max', 'Sum', 'Avg'] as const;

export function subscriptionReads(
  model: SchemaModel,
  selectionSet: SelectionSetNode,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  hasQueryRules: (typeName: string) => boolean,
): SubscriptionReads {
  const types = new Set<string>();
  const predicates = new Set<string>();
  const prefixes: string[] = [];
  let all = false;
  const wholeTypes = new Set<string>();

  /** The type's nodes (and its implementations' or members') count: membership and @auth. */
  const addType = (name: string): void => {
    const type = model.types.get(name);
    if (type === undefined || types.has(type.dgraphType)) return;
    types.add(type.dgraphType);
    if (hasQueryRules(name)) all = true;
    for (const parent of type.interfaces) if (hasQueryRules(parent)) all = true;
    for (const member of type.possibleTypes) addType(member);
  };
  const addField = (field: FieldModel): void => {
    if (field.custom !== undefined || field.kind === 'id') return;
    if (field.reverseOf !== undefined) predicates.add(field.reverseOf);
    else predicates.add(field.predicate);
    for (const language of field.languages ?? []) {
      if (language.endsWith('@*')) prefixes.push(language.slice(0, -1));
      else predicates.add(language);
    }
    if (isEdgeField(field)) addType(field.typeName);
  };
  /** Unsure which fields of `type` an argument names: every one of them (and of its implementations or members). */
  const addWholeType = (type: TypeModel): void => {
    if (wholeTypes.has(type.name)) return;
    wholeTypes.add(type.name);
    addType(type.name);
    for (const field of type.fields.values()) addField(field);
    for (const member of type.possibleTypes) {
      const memberType = model.types.get(member);
      if (memberType !== undefined) addWholeType(memberType);
    }
  };
  const addNamed = (type: TypeModel, name: string): void => {
    const field = type.fields.get(name);
    if (field === undefined) addWholeType(type);
    else addField(field);
  };

  /** A filter object: its keys name fields (or and/or/not, `has`, `id`). */
  const filter = (type: TypeModel, value: ValueNode): void => {
    if (value.kind === 'NullValue') return;
    if (value.kind === 'ListValue') return value.values.forEach((item) => filter(type, item));
    if (value.kind !== 'ObjectValue') return addWholeType(type); // a variable: its keys are not known here
    for (const entry of value.fields) {
      const key = entry.name.value;
      if (key === 'and' || key === 'or' || key === 'not') filter(type, entry.value);
      else if (key === 'has') named(type, entry.value);
      else if (key !== 'id') addNamed(type, key);
    }
  };
  /** Enum values naming fields (`has`, `@cascade(fields:)`). */
  const named = (type: TypeModel, value: ValueNode): void => {
    if (value.kind === 'ListValue') value.values.forEach((item) => named(type, item));
    else if (value.kind === 'EnumValue' || value.kind === 'StringValue') addNamed(type, value.value);
    else if (value.kind !== 'NullValue') addWholeType(type);
  };
  const order = (type: TypeModel, value: ValueNode): void => {
    if (value.kind === 'NullValue') return;
    if (value.kind !== 'ObjectValue') return addWholeType(type);
    for (const entry of value.fields) {
      if (entry.name.value === 'then') order(type, entry.value);
      else named(type, entry.value);
    }
  };
  const argumentsOf = (type: TypeModel, args: readonly ArgumentNode[] | undefined, directives: readonly DirectiveNode[] | undefined): void => {
    for (const arg of args ?? []) {
      const name = arg.name.value;
      if (name === 'filter') filter(type, arg.value);
      else if (name === 'order') order(type, arg.value);
      else if (type.fields.has(name)) addNamed(type, name); // get<T> by an @id field
    }
    for (const directive of directives ?? []) {
      const fields = directive.name.value === 'cascade' ? directive.arguments?.find((a) => a.name.value === 'fields') : undefined;
      if (fields !== undefined) named(type, fields.value);
    }
  };
  /** `count`, `<f>Min`/`Max`/`Sum`/`Avg` of an aggregate result over `type`. */
  const aggregate = (type: TypeModel, set: SelectionSetNode | undefined): void => {
    if (set === undefined) return;
    forFields(set, type, (name) => {
      if (name === 'count' || name === '__typename') return;
      const suffix = aggregateSuffixes.find((s) => name.endsWith(s));
      addNamed(type, suffix === undefined ? name : name.slice(0, -suffix.length));
    });
  };
  const seen = new Set<string>();
  /** Calls `visit` with each field selected in `set` (fragments and inline fragments flattened) and the type it is selected on. */
  const forFields = (set: SelectionSetNode, type: TypeModel | undefined, visit: (name: string, on: TypeModel | undefined, node: FieldNode) => void): void => {
    for (const selection of set.selections) {
      if (selection.kind === 'Field') visit(selection.name.value, type, selection);
      else if (selection.kind === 'InlineFragment') {
        const condition = selection.typeCondition?.name.value;
        forFields(selection.selectionSet, condition === undefined ? type : (model.types.get(condition) ?? type), visit);
      } else {
        const fragment = fragments[selection.name.value];
        if (fragment === undefined || seen.has(fragment.name.value)) continue;
        seen.add(fragment.name.value);
        forFields(fragment.selectionSet, model.types.get(fragment.typeCondition.name.value) ?? type, visit);
      }
    }
  };
  const walk = (set: SelectionSetNode, parent: TypeModel): void => {
    forFields(set, parent, (name, on, node) => {
      if (all || on === undefined) return;
      if (on.name !== parent.name) addType(on.name); // a fragment on an implementation or member
      const field = on.fields.get(name);
      if (field !== undefined) {
        addField(field);
        const target = isEdgeField(field) ? model.types.get(field.typeName) : undefined;
        if (target === undefined) return;
        argumentsOf(target, node.arguments, node.directives);
        if (node.selectionSet !== undefined) walk(node.selectionSet, target);
        return;
      }
      // `<f>Aggregate` reads the edge `f` and, of its targets, what it aggregates and filters.
      const edge = name.endsWith('Aggregate') ? on.fields.get(name.slice(0, -'Aggregate'.length)) : undefined;
      const target = edge === undefined ? undefined : model.types.get(edge.typeName);
      if (edge === undefined || target === undefined) return; // __typename
      addField(edge);
      argumentsOf(target, node.arguments, node.directives);
      aggregate(target, node.selectionSet);
    });
  };
  forFields(selectionSet, undefined, (name, _on, node) => {
    if (all) return;
    const root = model.subscriptions.get(name);
    if (root === undefined) return; // __typename
    const type = root.type === undefined ? undefined : model.types.get(root.type);
    if (type === undefined || root.kind === 'custom') {
      all = true;
      return;
    }
    addType(type.name);
    if (root.kind !== 'get' && root.kind !== 'query' && root.kind !== 'aggregate') addWholeType(type); // similarity roots
    argumentsOf(type, node.arguments, node.directives);
    if (root.kind === 'aggregate') aggregate(type, node.selectionSet);
    else if (node.selectionSet !== undefined) walk(node.selectionSet, type);
  });
  return all ? 'all' : { types, predicates, prefixes };
}
