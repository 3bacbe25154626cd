// Int64 input with full precision and Dgraph's messages: graphql-js's buildSchema scalars parse
// literals as JS numbers (losing precision past 2^53). Applied once per compiled API schema.

import { GraphQLError, GraphQLScalarType, Kind, type GraphQLSchema, type ValueNode } from 'graphql';
import { FloatText } from '../request/json-numbers.js';
import { messages } from '../errors/messages.js';

const installed = new WeakSet<GraphQLSchema>();
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

export function installApiScalars(schema: GraphQLSchema): void {
  if (installed.has(schema)) return;
  installed.add(schema);
  const int64 = schema.getType('Int64');
  if (!(int64 instanceof GraphQLScalarType)) return;
  const mutable = int64 as { -readonly [K in keyof GraphQLScalarType]: GraphQLScalarType[K] };
  mutable.parseLiteral = (node: ValueNode) => int64Literal(node);
  mutable.parseValue = (value: unknown) => int64Value(value);
}

function int64Literal(node: ValueNode): bigint {
  // graphql-js reports a thrown GraphQLError as is, so it carries the node for its location.
  if (node.kind === Kind.INT || (node.kind === Kind.STRING && /^-?\d+$/.test(node.value))) return inRange(node.value, node);
  if (node.kind === Kind.FLOAT) throw new GraphQLError(messages.int64MismatchFloat(node.value), { nodes: node });
  throw new GraphQLError(messages.int64Mismatch('value' in node ? String(node.value) : node.kind), { nodes: node });
}

function int64Value(value: unknown): bigint {
  if (value instanceof FloatText) throw new GraphQLError(messages.int64MismatchVariable(value.text));
  if (typeof value === 'bigint') return inRange(value.toString());
  if (typeof value === 'number' && Number.isInteger(value)) return inRange(BigInt(value).toString());
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return inRange(value);
  throw new GraphQLError(messages.int64MismatchVariable(formatNumber(value)));
}

function inRange(text: string, node?: ValueNode): bigint {
  const value = BigInt(text);
  if (value < int64Min || value > int64Max) throw new GraphQLError(messages.int64OutOfRange(text), node === undefined ? {} : { nodes: node });
  return value;
}

/** Go prints float64 180143985094 as `180143985094.0` in this message. */
function formatNumber(value: unknown): string {
  return typeof value === 'number' && Number.isInteger(value) ? `${value}.0` : String(value);
}
