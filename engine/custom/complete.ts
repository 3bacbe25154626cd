// Completes a JSON value from a custom endpoint against the field's GraphQL type and the client's
// selection (REFERENCE §2 "values coming from @custom/remote responses", §7 null propagation):
// scalars are coerced, `@remoteResponse(name:)` renames response keys, a missing list is `[]`,
// a missing non-null value is an error that nulls the nearest nullable parent.

import type {
  GraphQLEnumType} from 'graphql';
import {
  getNamedType,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import type { FieldPlan } from '../plan/selection-plan.js';
import { pathOf, type ExecContext, type Path } from '../exec/exec-context.js';

export const INVALID: unique symbol = Symbol('invalid custom value');

export const nonNullMissing = (field: string, type: GraphQLOutputType): string =>
  `Non-nullable field '${field}' (type ${String(type)}) was not present in result from Dgraph.  GraphQL error propagation triggered.`;

const coercionError = (value: unknown, field: string, type: string): string => `Error coercing value '${goValue(value)}' for field '${field}' to type ${type}.`;

export class Completer {
  readonly #responseNames = new WeakMap<GraphQLField<unknown, unknown>, string>();

  constructor(private readonly schema: GraphQLSchema) {}

  /** The completed value, or INVALID when a non-null position got null (the error is already added). */
  complete(ctx: ExecContext, type: GraphQLOutputType, value: unknown, plan: FieldPlan, path: Path): unknown {
    if (isNonNullType(type)) {
      const inner = this.complete(ctx, type.ofType, value, plan, path);
      if (inner === null) {
        if (value === null || value === undefined) ctx.addError(nonNullMissing(plan.fieldName, type), plan.nodes[0], path);
        return INVALID;
      }
      return inner;
    }
    if (isListType(type)) {
      if (value === null || value === undefined) return [];
      const items = Array.isArray(value) ? value : [value];
      const out: unknown[] = [];
      for (let i = 0; i < items.length; i++) {
        const item = this.complete(ctx, type.ofType, items[i], plan, pathOf(path, i));
        if (item === INVALID) {
          if (isNonNullType(type.ofType)) return null;
          out.push(null);
        } else out.push(item);
      }
      return out;
    }
    if (value === null || value === undefined) return null;
    if (isObjectType(type) || isAbstractType(type)) return this.#completeObject(ctx, type, value, plan, path);
    if (isEnumType(type)) return completeEnum(ctx, type, value, plan, path);
    const coerced = coerceScalar(type.name, value);
    if (coerced === INVALID) {
      ctx.addError(coercionError(value, plan.fieldName, type.name), plan.nodes[0], path);
      return null;
    }
    return coerced;
  }

  #completeObject(ctx: ExecContext, declared: GraphQLOutputType, value: unknown, plan: FieldPlan, path: Path): unknown {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      ctx.addError(coercionError(value, plan.fieldName, getNamedType(declared).name), plan.nodes[0], path);
      return null;
    }
    const record = value as Record<string, unknown>;
    const concrete = this.#concreteType(declared, record);
    if (concrete === undefined || plan.selection === undefined) return null;
    const out: Record<string, unknown> = {};
    for (const field of plan.selection.forType(concrete.name)) {
      if (!ctx.isIncluded(field)) continue;
      if (field.fieldName === '__typename') {
        out[field.responseName] = concrete.name;
        continue;
      }
      const definition = field.definition;
      if (definition === undefined) continue;
      const raw = record[this.#responseKey(definition)];
      const completed = this.complete(ctx, definition.type, raw, field, pathOf(path, field.responseName));
      if (completed === INVALID) return null;
      out[field.responseName] = completed;
    }
    return out;
  }

  #concreteType(declared: GraphQLOutputType, record: Record<string, unknown>): GraphQLObjectType | undefined {
    const named = getNamedType(declared);
    if (isObjectType(named)) return named;
    if (!isAbstractType(named)) return undefined;
    const possible = this.schema.getPossibleTypes(named);
    const typename = record['__typename'];
    return possible.find((t) => t.name === typename) ?? possible[0];
  }

  #responseKey(field: GraphQLField<unknown, unknown>): string {
    let key = this.#responseNames.get(field);
    if (key === undefined) {
      const directive = field.astNode?.directives?.find((d) => d.name.value === 'remoteResponse');
      const arg = directive?.arguments?.find((a) => a.name.value === 'name')?.value;
      key = arg?.kind === 'StringValue' ? arg.value : field.name;
      this.#responseNames.set(field, key);
    }
    return key;
  }
}

function completeEnum(ctx: ExecContext, type: GraphQLEnumType, value: unknown, plan: FieldPlan, path: Path): unknown {
  if (typeof value === 'string' && type.getValue(value) !== undefined) return value;
  ctx.addError(coercionError(value, plan.fieldName, type.name), plan.nodes[0], path);
  return null;
}

/** Scalar coercion as Dgraph's completion does it; INVALID when the value cannot be represented. */
export function coerceScalar(typeName: string, value: unknown): unknown {
  if (typeof value === 'object' && value !== null) return INVALID;
  switch (typeName) {
    case 'String':
    case 'ID':
      return typeof value === 'string' ? value : goValue(value);
    case 'Boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string') return value !== '';
      return typeof value === 'number' ? value !== 0 : INVALID;
    case 'Int':
    case 'Int64': {
      const n = typeof value === 'boolean' ? Number(value) : typeof value === 'string' ? Number(value.trim() === '' ? NaN : value) : (value as number);
      if (typeof n !== 'number' || !Number.isInteger(n)) return INVALID;
      if (typeName === 'Int' && (n > 2_147_483_647 || n < -2_147_483_648)) return INVALID;
      return n;
    }
    case 'Float': {
      const n = typeof value === 'boolean' ? Number(value) : typeof value === 'string' ? Number(value) : (value as number);
      return typeof n === 'number' && Number.isFinite(n) ? n : INVALID;
    }
    case 'DateTime': {
      const date = typeof value === 'number' ? new Date(value * 1000) : typeof value === 'string' ? new Date(value) : undefined;
      if (date === undefined || Number.isNaN(date.getTime())) return INVALID;
      return typeof value === 'string' && /[+-]\d\d:\d\d$/.test(value) ? value : date.toISOString().replace(/\.000Z$/, 'Z');
    }
    default:
      return value;
  }
}

function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
