// graphql-js's coerceInputValue, compiled once per input type into closures that accept only valid
// input. A mutation's 1,000 nested input objects cost graphql-js a path object, a type test and an
// `Object.values` per field; the compiled form is a loop over a precomputed field table.
//
// The compiled form never reports errors: on anything it does not accept it returns COERCION_FAILED
// and the caller runs graphql-js itself, so error messages and paths stay graphql-js's own. For every
// value it accepts, it returns what coerceInputValue returns (same keys in the same order, same
// prototypes); test/unit/request/compiled-coercion.test.ts checks this against graphql-js.

import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLLeafType,
} from 'graphql';

/** Returned for any value graphql-js would refuse (or that this fast form does not handle). */
export const COERCION_FAILED: unique symbol = Symbol('coercion failed');

export type Coercer = (value: unknown) => unknown;

const compiled = new WeakMap<GraphQLInputType, Coercer>();

/** The coercer of `type` (cached per type object, so per schema). */
export function inputCoercer(type: GraphQLInputType): Coercer {
  let coercer = compiled.get(type);
  if (coercer === undefined) {
    coercer = compile(type);
    compiled.set(type, coercer);
  }
  return coercer;
}

function compile(type: GraphQLInputType): Coercer {
  if (isNonNullType(type)) {
    const inner = nullableCoercer(type.ofType);
    return (value) => (value === null || value === undefined ? COERCION_FAILED : inner(value));
  }
  const inner = nullableCoercer(type);
  return (value) => (value === null || value === undefined ? null : inner(value));
}

/** For a value known not to be null or undefined. */
function nullableCoercer(type: GraphQLInputType): Coercer {
  if (isListType(type)) return listCoercer(type.ofType);
  if (isInputObjectType(type)) return objectCoercer(type);
  return leafCoercer(type as GraphQLLeafType);
}

function listCoercer(itemType: GraphQLInputType): Coercer {
  let item: Coercer | undefined; // resolved on first use: input types may be recursive
  return (value) => {
    item ??= inputCoercer(itemType);
    if (!Array.isArray(value)) {
      // graphql-js takes any iterable object as a list; only arrays come from JSON.
      if (typeof value === 'object' && typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function') return COERCION_FAILED;
      const one = item(value);
      return one === COERCION_FAILED ? COERCION_FAILED : [one];
    }
    const n = value.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const coerced = item(value[i]);
      if (coerced === COERCION_FAILED) return COERCION_FAILED;
      out[i] = coerced;
    }
    return out;
  };
}

interface FieldEntry {
  readonly name: string;
  readonly field: GraphQLInputField;
  /** Non-null without a default: an absent value fails. Kept here because graphql-js's type predicates
   * are slow when they answer false outside NODE_ENV=production (their check for a second graphql copy). */
  readonly required: boolean;
  coerce: Coercer | undefined;
}

function objectCoercer(type: GraphQLInputObjectType): Coercer {
  // Read on first use: getFields() of a recursive type must not run while the schema is being built.
  let definitions: Readonly<Record<string, GraphQLInputField | undefined>> | undefined;
  let entries: FieldEntry[] = [];
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return COERCION_FAILED;
    if (definitions === undefined) {
      const fields = type.getFields();
      entries = Object.values(fields).map((field) => ({ name: field.name, field, required: field.defaultValue === undefined && isNonNullType(field.type), coerce: undefined }));
      definitions = fields;
    }
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as FieldEntry;
      const fieldValue = input[entry.name];
      if (fieldValue === undefined) {
        if (entry.field.defaultValue !== undefined) out[entry.name] = entry.field.defaultValue;
        else if (entry.required) return COERCION_FAILED;
        continue;
      }
      entry.coerce ??= inputCoercer(entry.field.type);
      const coerced = entry.coerce(fieldValue);
      if (coerced === COERCION_FAILED) return COERCION_FAILED;
      out[entry.name] = coerced;
    }
    // Unknown fields fail. for-in allocates no key array; it also visits inherited enumerable keys,
    // which graphql-js ignores, so such (non-JSON) objects merely fail over to graphql-js.
    for (const key in input) if (definitions[key] === undefined) return COERCION_FAILED;
    if (type.isOneOf && !exactlyOneNonNull(out)) return COERCION_FAILED;
    return out;
  };
}

function exactlyOneNonNull(out: Record<string, unknown>): boolean {
  const keys = Object.keys(out);
  return keys.length === 1 && out[keys[0] as string] !== null;
}

const int32 = (v: unknown): unknown =>
  typeof v === 'number' && Number.isInteger(v) && v <= 2147483647 && v >= -2147483648 ? v : COERCION_FAILED;

/** graphql-js's own parseValue of the built-in scalars, without the error texts. */
const builtIn = new Map<GraphQLLeafType, Coercer>([
  [GraphQLString, (v) => (typeof v === 'string' ? v : COERCION_FAILED)],
  [GraphQLInt, int32],
  [GraphQLFloat, (v) => (typeof v === 'number' && Number.isFinite(v) ? v : COERCION_FAILED)],
  [GraphQLBoolean, (v) => (typeof v === 'boolean' ? v : COERCION_FAILED)],
  [GraphQLID, (v) => (typeof v === 'string' ? v : typeof v === 'number' && Number.isInteger(v) ? v.toString() : COERCION_FAILED)],
]);

function leafCoercer(type: GraphQLLeafType): Coercer {
  const fast = builtIn.get(type);
  if (fast !== undefined) return fast;
  const enumType = isEnumType(type);
  return (value) => {
    let parsed: unknown;
    try {
      parsed = enumType ? type.parseValue(value, true) : type.parseValue(value);
    } catch {
      return COERCION_FAILED;
    }
    return parsed === undefined ? COERCION_FAILED : parsed;
  };
}
