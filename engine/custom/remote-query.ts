// The text sent for `@custom(http: {graphql: ...})`: the configured operation with the client's selection
// set appended, Dgraph's way (REFERENCE §8.2): drop the last `}`, append `{\nf1\nf2(args){\n...\n}\n}`, add `}`.

import { Kind, getNamedType, isObjectType, parse, type FieldNode, type GraphQLSchema, type OperationDefinitionNode, type ValueNode } from 'graphql';
import type { FieldPlan, SelectionPlan } from '../plan/selection-plan.js';

export interface RemoteOperation {
  readonly text: string;
  /** The single root field of the operation (its name is the key read from `data`). */
  readonly field: string;
  /** Declared variables, in order. */
  readonly variables: readonly string[];
  /** BATCH: the variable passed as the one argument. */
  readonly batchVariable: string | undefined;
}

export function parseRemoteOperation(text: string): RemoteOperation {
  const doc = parse(text);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const field = op?.selectionSet.selections[0] as FieldNode | undefined;
  const firstArg = field?.arguments?.[0]?.value;
  return {
    text,
    field: field?.name.value ?? '',
    variables: (op?.variableDefinitions ?? []).map((v) => v.variable.name.value),
    batchVariable: firstArg?.kind === Kind.VARIABLE ? firstArg.name.value : undefined,
  };
}

/** The operation text with the selection of `plan` appended (unchanged for scalar results). */
export function remoteQueryText(op: RemoteOperation, plan: FieldPlan, schema: GraphQLSchema, variables: Readonly<Record<string, unknown>>): string {
  if (plan.selection === undefined || plan.definition === undefined) return op.text;
  const named = getNamedType(plan.definition.type);
  const selection = printSelection(plan.selection, typeNameFor(named.name, schema), schema, variables);
  if (selection === undefined) return op.text;
  const close = op.text.lastIndexOf('}');
  return `${op.text.slice(0, close)}${selection}}`;
}

function typeNameFor(name: string, schema: GraphQLSchema): string {
  const type = schema.getType(name);
  if (type === undefined || isObjectType(type)) return name;
  const possible = schema.getPossibleTypes(type as never);
  return possible[0]?.name ?? name;
}

function printSelection(selection: SelectionPlan, typeName: string, schema: GraphQLSchema, variables: Readonly<Record<string, unknown>>): string | undefined {
  const lines: string[] = [];
  for (const plan of selection.forType(typeName)) {
    if (plan.fieldName === '__typename') continue;
    const node = plan.nodes[0] as FieldNode;
    const args = (node.arguments ?? []).map((a) => `${a.name.value}: ${printValue(a.value, variables)}`);
    let line = args.length === 0 ? plan.fieldName : `${plan.fieldName}(${args.join(', ')})`;
    if (plan.selection !== undefined && plan.definition !== undefined) {
      const sub = printSelection(plan.selection, typeNameFor(getNamedType(plan.definition.type).name, schema), schema, variables);
      if (sub !== undefined) line += sub;
    }
    lines.push(line);
  }
  return lines.length === 0 ? undefined : `{\n${lines.join('\n')}\n}`;
}

/** Argument values as Dgraph prints them: compact objects, variables replaced by their values. */
function printValue(value: ValueNode, variables: Readonly<Record<string, unknown>>): string {
  switch (value.kind) {
    case Kind.VARIABLE:
      return printJs(variables[value.name.value]);
    case Kind.OBJECT:
      return `{${value.fields.map((f) => `${f.name.value}:${printValue(f.value, variables)}`).join(',')}}`;
    case Kind.LIST:
      return `[${value.values.map((v) => printValue(v, variables)).join(',')}]`;
    case Kind.STRING:
      return JSON.stringify(value.value);
    case Kind.NULL:
      return 'null';
    case Kind.BOOLEAN:
      return String(value.value);
    default:
      return value.value;
  }
}

function printJs(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(printJs).join(',')}]`;
  if (typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${k}:${printJs(v)}`).join(',')}}`;
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
