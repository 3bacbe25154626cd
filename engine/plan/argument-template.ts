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
  visit,
  BREAK,
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
  const parts: [string, Template][] = [];
  for (const arg of definition.args) {
    const node = nodes.find((n) => n.name.value === arg.name);
    if (node === undefined) {
      if (arg.defaultValue !== undefined) parts.push([arg.name, constant(arg.defaultValue)]);
      continue;
    }
    const template = compile(node.value, arg.type);
    if (template === undefined) return undefined;
    parts.push([arg.name, template]);
  }
  return (variables) => {
    const out: Record<string, unknown> = {};
    for (const [name, template] of parts) {
      const value = template(variables);
      if (value === missing) return undefined;
      out[name] = value;
    }
    return out;
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
  if (isInputObjectType(nullable) && node.kind === Kind.OBJECT) {
    const fields: [string, Template][] = [];
    const definitions = nullable.getFields();
    for (const field of Object.values(definitions)) {
      const fieldNode = node.fields.find((f) => f.name.value === field.name);
      if (fieldNode === undefined) {
        if (field.defaultValue !== undefined) fields.push([field.name, constant(field.defaultValue)]);
        continue;
      }
      const template = compile(fieldNode.value, field.type);
      if (template === undefined) return undefined;
      fields.push([field.name, template]);
    }
    return (variables) => {
      const out: Record<string, unknown> = {};
      for (const [name, template] of fields) {
        const value = template(variables);
        if (value === missing) return missing;
        out[name] = value;
      }
      return out;
    };
  }
  return undefined;
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
  let found = false;
  visit(node, {
    Variable() {
      found = true;
      return BREAK;
    },
  });
  return found;
}
