// Arguments that mix literals and variables (`filter: { title: { allofterms: $t } }`) compiled once
// per plan into a template: literal parts are coerced at plan time, variables (already coerced by the
// request stage) are dropped in at run time. It spares graphql-js's per-request coercion walk.
// A template answers `undefined` whenever graphql-js's rules for missing variables (defaults,
// omission) would apply; the caller then coerces the general way.

import {
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  valueFromAST,
  type GraphQLField,
  type GraphQLInputType,
  type ValueNode,
} from 'graphql';

type Variables = Readonly<Record<string, unknown>>;
/** Produces a value, or `missing` if a variable it needs was not supplied. */
type Template = (variables: Variables) => unknown;

const missing = Symbol('missing');

export type ArgumentsTemplate = (variables: Variables) => Record<string, unknown> | undefined;

/** A template for all arguments of a field occurrence, or `undefined` if some part cannot be compiled. */
export function compileArguments(
  definition: GraphQLField<unknown, unknown>,
  nodes: readonly { readonly name: { readonly value: string }; readonly value: ValueNode }[],
): ArgumentsTemplate | undefined {
  const object = compileObject(definition.args, nodes);
  if (object === undefined) return undefined;
  return (variables) => {
    const value = object(variables);
    return value === missing ? undefined : (value as Record<string, unknown>);
  };
}

function compile(node: ValueNode, type: GraphQLInputType): Template | undefined {
  if (!hasVariables(node)) {
    const value = valueFromAST(node, type);
    return value === undefined ? undefined : constant(value);
  }
  if (node.kind === Kind.VARIABLE) {
    const name = node.name.value;
    return (variables) => (Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : missing);
  }
  const nullable = isNonNullType(type) ? type.ofType : type;
  if (isListType(nullable)) {
    const itemType = nullable.ofType as GraphQLInputType;
    if (node.kind !== Kind.LIST) {
      // A single value in a list position is coerced to a one-item list.
      const item = compile(node, itemType);
      return item === undefined ? undefined : (variables) => wrap(item(variables));
    }
    const items = node.values.map((value) => compile(value, itemType));
    if (items.some((item) => item === undefined)) return undefined;
    return (variables) => collect(items as Template[], variables);
  }
  if (isInputObjectType(nullable) && node.kind === Kind.OBJECT) return compileObject(Object.values(nullable.getFields()), node.fields);
  return undefined;
}

/** Field or argument definitions, as graphql-js describes both. */
interface InputDefinition {
  readonly name: string;
  readonly type: GraphQLInputType;
  readonly defaultValue?: unknown;
}

/** An object of `definitions` (arguments of a field, or fields of an input object): written, defaulted or absent. */
function compileObject(
  definitions: readonly InputDefinition[],
  nodes: readonly { readonly name: { readonly value: string }; readonly value: ValueNode }[],
): Template | undefined {
  const parts: [string, Template][] = [];
  for (const definition of definitions) {
    const node = nodes.find((n) => n.name.value === definition.name);
    if (node === undefined) {
      if (definition.defaultValue !== undefined) parts.push([definition.name, constant(definition.defaultValue)]);
      continue;
    }
    const template = compile(node.value, definition.type);
    if (template === undefined) return undefined;
    parts.push([definition.name, template]);
  }
  return (variables) => {
    const out: Record<string, unknown> = {};
    for (const [name, template] of parts) {
      const value = template(variables);
      if (value === missing) return missing;
      out[name] = value;
    }
    return out;
  };
}

function constant(value: unknown): Template {
  return () => value;
}

function wrap(value: unknown): unknown {
  return value === missing ? missing : value === null ? null : [value];
}

function collect(items: readonly Template[], variables: Variables): unknown {
  const out: unknown[] = [];
  for (const item of items) {
    const value = item(variables);
    if (value === missing) return missing;
    out.push(value);
  }
  return out;
}

export function hasVariables(node: ValueNode): boolean {
  // A walk of its own: graphql-js's visit resolves handlers for every AST kind per call (a third of
  // planning a new document with literal arguments). Values nest at most maxDocumentNesting deep.
  if (node.kind === Kind.VARIABLE) return true;
  if (node.kind === Kind.LIST) return node.values.some(hasVariables);
  if (node.kind === Kind.OBJECT) return node.fields.some((field) => hasVariables(field.value));
  return false;
}
