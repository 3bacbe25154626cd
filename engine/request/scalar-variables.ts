// A fast path for the commonest variables: built-in scalars (`$id: ID!`, `$n: Int`, ...) with values
// that are already of the right JSON type. graphql-js's general coercion costs microseconds per
// request; these checks cost nanoseconds. Anything else (lists, inputs, enums, custom scalars,
// defaults, wrong types) goes the general way, which also produces the error messages.

import { Kind, type OperationDefinitionNode, type TypeNode, type VariableDefinitionNode } from 'graphql';

type ScalarCheck = (value: unknown) => unknown | typeof unsupported;

const unsupported = Symbol('unsupported');
const int32 = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v <= 2147483647 && v >= -2147483648 ? v : unsupported);

const checks: Readonly<Record<string, ScalarCheck>> = {
  ID: (v) => (typeof v === 'string' ? v : typeof v === 'number' && Number.isInteger(v) ? String(v) : unsupported),
  String: (v) => (typeof v === 'string' ? v : unsupported),
  Int: int32,
  Float: (v) => (typeof v === 'number' && Number.isFinite(v) ? v : unsupported),
  Boolean: (v) => (typeof v === 'boolean' ? v : unsupported),
};

interface SimpleVariable {
  readonly name: string;
  readonly nonNull: boolean;
  readonly check: ScalarCheck;
}

/** Per operation: its variables as simple scalars, or `null` when any needs general coercion. */
const simpleVariables = new WeakMap<OperationDefinitionNode, readonly SimpleVariable[] | null>();

export function coerceScalarVariables(
  operation: OperationDefinitionNode,
  inputs: Readonly<Record<string, unknown>>,
): Record<string, unknown> | undefined {
  let simple = simpleVariables.get(operation);
  if (simple === undefined) {
    simple = simpleDefinitions(operation.variableDefinitions ?? []);
    simpleVariables.set(operation, simple);
  }
  if (simple === null) return undefined;
  const values: Record<string, unknown> = {};
  for (const variable of simple) {
    const raw = inputs[variable.name];
    if (raw === undefined || raw === null) {
      if (variable.nonNull) return undefined; // general path reports the error
      if (raw === null) values[variable.name] = null;
      continue;
    }
    const coerced = variable.check(raw);
    if (coerced === unsupported) return undefined;
    values[variable.name] = coerced;
  }
  return values;
}

function simpleDefinitions(definitions: readonly VariableDefinitionNode[]): readonly SimpleVariable[] | null {
  const out: SimpleVariable[] = [];
  for (const definition of definitions) {
    if (definition.defaultValue !== undefined) return null;
    const { type, nonNull } = unwrapNonNull(definition.type);
    if (type.kind !== Kind.NAMED_TYPE) return null;
    const check = checks[type.name.value];
    if (check === undefined) return null;
    out.push({ name: definition.variable.name.value, nonNull, check });
  }
  return out;
}

function unwrapNonNull(type: TypeNode): { type: TypeNode; nonNull: boolean } {
  return type.kind === Kind.NON_NULL_TYPE ? { type: type.type, nonNull: true } : { type, nonNull: false };
}
