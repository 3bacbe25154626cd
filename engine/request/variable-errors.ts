// Variable coercion failures in gqlparser's wording, with its `["variable", name, ...]` paths
// (REFERENCE §10): graphql-js says `Variable "$x" got invalid value ...; <reason>`.

import {
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  typeFromAST,
  type GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import { wireError, type WireError } from '../errors/wire-error.js';
import { FloatText } from './json-numbers.js';

type Segment = string | number;

/** `Post[0].numViews` → ['Post', 0, 'numViews'] */
function pathSegments(at: string): Segment[] {
  const out: Segment[] = [];
  for (const m of at.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : (m[1] as string));
  return out;
}

function valueAt(root: unknown, path: readonly Segment[]): unknown {
  let value = root;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<Segment, unknown>)[key] : undefined;
  return value;
}

/** Go's reflect kind of a decoded JSON value, as gqlparser names it. */
function kindOf(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return 'float64';
  if (Array.isArray(value)) return 'slice';
  return value === null ? 'ptr' : 'map';
}

const reasons: readonly [RegExp, (m: RegExpExecArray, value: unknown) => string][] = [
  [/^Expected type "(\w+)" to be an object\.$/, (m) => `must be a ${m[1] ?? ''}`],
  [/^Int cannot represent non 32-bit signed integer value: (.*)$/s, (m) => `Out of range value '${m[1] ?? ''}', for type \`Int\``],
  [/^(Int|Float|String|Boolean|ID) cannot represent .*$/s, (m, value) => `cannot use ${kindOf(value)} as ${m[1] ?? ''}`],
  [/^Value "?(.*?)"? does not exist in "(\w+)" enum\..*$/s, (m) => `${m[1] ?? ''} is not a valid ${m[2] ?? ''}`],
  [/^Expected value of type "(\w+)!", found null\.$/, () => 'cannot be null'],
];

/** One graphql-js variable error → gqlparser's message and path; other errors unchanged. */
export function variableError(error: GraphQLError, inputs: Readonly<Record<string, unknown>>): WireError | undefined {
  const message = error.message;
  let m = /^Variable "\$(\w+)" of (?:required|non-null) type ".*?" (was not provided|must not be null)\.$/s.exec(message);
  if (m !== null) return wireError(m[2] === 'was not provided' ? 'must be defined' : 'cannot be null', undefined, ['variable', m[1] ?? '']);
  m = /^Variable "\$(\w+)" got invalid value .*?(?: at "([^"]+)")?; (.*)$/s.exec(message);
  if (m === null) return undefined;
  const name = m[1] ?? '';
  const at = m[2] === undefined ? [name] : pathSegments(m[2]);
  const reason = m[3] ?? '';
  const field = /^Field "(\w+)" (?:of required type ".*?" was not provided|is not defined by type "\w+")\./s.exec(reason);
  if (field !== null) {
    const text = reason.includes('was not provided') ? 'must be defined' : 'unknown field';
    return wireError(text, undefined, ['variable', ...at, field[1] ?? '']);
  }
  const value = valueAt(inputs, at);
  for (const [pattern, rewrite] of reasons) {
    const r = pattern.exec(reason);
    if (r !== null) return wireError(rewrite(r, value), undefined, ['variable', ...at]);
  }
  return wireError(reason, undefined, ['variable', ...at]);
}

/**
 * Replaces FloatText markers by their numbers, except where the variable's type expects an Int64
 * (whose coercion refuses them with the number's text, as Dgraph does).
 */
export function unwrapFloatText(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
  inputs: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...inputs };
  for (const definition of definitions) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (type !== undefined && name in out) out[name] = unwrap(out[name], type);
  }
  return out;
}

function unwrap(value: unknown, type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return unwrap(value, type.ofType);
  if (value instanceof FloatText) return getNamedType(type).name === 'Int64' ? value : value.value;
  if (isListType(type)) return Array.isArray(value) ? value.map((v) => unwrap(v, type.ofType)) : unwrap(value, type.ofType);
  if (!isInputObjectType(type) || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const fields = type.getFields();
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const field = fields[key];
    out[key] = field === undefined ? v : unwrap(v, field.type);
  }
  return out;
}
