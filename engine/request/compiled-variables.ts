// graphql-js's getVariableValues for valid input, compiled once per operation (operations live in the
// document cache, so a repeated request reuses its plan). Returns undefined whenever graphql-js
// would report an error: the caller then runs graphql-js, which produces the messages.

import {
  isInputType,
  isNonNullType,
  typeFromAST,
  valueFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValueNode,
} from 'graphql';
import { COERCION_FAILED, inputCoercer, type Coercer } from './compiled-coercion.js';

interface VariablePlan {
  readonly name: string;
  readonly type: GraphQLInputType;
  readonly nonNull: boolean;
  readonly coerce: Coercer;
  readonly defaultValue: ValueNode | undefined;
}

/** Per schema, per operation: its variables' plans, or null when one names no input type. */
const plans = new WeakMap<GraphQLSchema, WeakMap<OperationDefinitionNode, readonly VariablePlan[] | null>>();

export function coerceVariablesFast(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  inputs: Readonly<Record<string, unknown>>,
): Record<string, unknown> | undefined {
  const variables = planOf(schema, operation);
  if (variables === null) return undefined;
  const coerced: Record<string, unknown> = {};
  for (const variable of variables) {
    if (!Object.prototype.hasOwnProperty.call(inputs, variable.name)) {
      if (variable.defaultValue !== undefined) coerced[variable.name] = valueFromAST(variable.defaultValue, variable.type);
      else if (variable.nonNull) return undefined;
      continue;
    }
    const value = variable.coerce(inputs[variable.name]);
    if (value === COERCION_FAILED) return undefined;
    coerced[variable.name] = value;
  }
  return coerced;
}

function planOf(schema: GraphQLSchema, operation: OperationDefinitionNode): readonly VariablePlan[] | null {
  let bySchema = plans.get(schema);
  if (bySchema === undefined) plans.set(schema, (bySchema = new WeakMap()));
  let plan = bySchema.get(operation);
  if (plan === undefined) {
    plan = compilePlan(schema, operation);
    bySchema.set(operation, plan);
  }
  return plan;
}

function compilePlan(schema: GraphQLSchema, operation: OperationDefinitionNode): readonly VariablePlan[] | null {
  const out: VariablePlan[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type);
    if (type === undefined || !isInputType(type)) return null;
    out.push({
      name: definition.variable.name.value,
      type,
      nonNull: isNonNullType(type),
      coerce: inputCoercer(type),
      defaultValue: definition.defaultValue,
    });
  }
  return out;
}
