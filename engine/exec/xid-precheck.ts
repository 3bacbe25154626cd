// The store-independent checks Dgraph makes while rewriting a mutation, before any data is read
// (its existence-query walk): empty @id values and duplicate XIDs. The walk also records, per XID,
// the object that defines the node (the fullest occurrence), so that a reference met before the
// definition still creates the node with all its values.

import type { FieldModel, SchemaModel, TypeModel } from '../schema/model.js';
import { isEdgeField } from './filter-eval.js';
import { sortedKeys } from '../util/sorted-keys.js';
import { unionReference } from './union-member.js';
import { messages } from '../errors/messages.js';
import { jsonEqual } from '../util/json-equal.js';

type Input = Readonly<Record<string, unknown>>;

export class XidPrecheck {
  /** Per @id field (keyed by declaring type and name, see xidKey): value → the object defining that node. */
  readonly #definitions = new Map<string, Map<unknown, Input>>();
  /** The same keys: whether the definition was met at top level. */
  readonly #seenAtTopLevel = new Map<string, Map<unknown, boolean>>();

  constructor(private readonly model: SchemaModel) {}

  /** Checks one top-level input object (`srcField` undefined) or a nested one; returns the error text, if any. */
  check(type: TypeModel, input: Input, srcField?: FieldModel): string | undefined {
    const union = unionReference(this.model, type, input);
    if (union !== undefined) return this.check(union.type, union.input, srcField);
    input = this.#withoutSingleInverse(input, srcField);
    // A reference by ID names an existing node: nothing below it is written.
    if (type.idField !== undefined && input[type.idField] !== undefined && input[type.idField] !== null) return undefined;
    for (const name of type.xidFields) {
      const value = input[name];
      const field = type.fields.get(name);
      if (value === undefined || value === null || value === '' || field === undefined) continue;
      const key = valueKey(value);
      const definitions = this.#fieldMap(this.#definitions, field);
      const previous = definitions.get(key);
      if (previous === undefined) {
        definitions.set(key, input);
        this.#fieldMap(this.#seenAtTopLevel, field).set(key, srcField === undefined);
        continue;
      }
      if (this.#isDuplicate(field, key, previous, input, srcField)) return `duplicate XID found: ${String(value)}`;
      // A later full definition replaces an earlier bare reference; a reference stops the walk.
      if (Object.keys(previous).length === 1 && Object.keys(input).length > 1) definitions.set(key, input);
      else return undefined;
    }
    for (const name of sortedKeys(input)) {
      const field = type.fields.get(name);
      const value = input[name];
      if (field === undefined || value === undefined || value === null) continue;
      if (!isEdgeField(field)) {
        if (field.isXid && value === '') return messages.emptyXid(field.predicate);
        continue;
      }
      const target = this.model.types.get(field.typeName);
      if (target === undefined) continue;
      for (const child of Array.isArray(value) ? (value as Input[]) : [value as Input]) {
        const error = this.check(target, child, field);
        if (error !== undefined) return error;
      }
    }
    return undefined;
  }

  /** The object that defines the node with this XID in the mutation (undefined when never seen). */
  definitionOf(field: FieldModel, value: unknown): Input | undefined {
    return this.#definitions.get(xidKey(field))?.get(valueKey(value));
  }

  #fieldMap<V>(maps: Map<string, Map<unknown, V>>, field: FieldModel): Map<unknown, V> {
    const key = xidKey(field);
    let map = maps.get(key);
    if (map === undefined) maps.set(key, (map = new Map()));
    return map;
  }

  /**
   * Dgraph's rule: a duplicate is the same XID twice at top level; or, deeper, reached through an edge
   * whose inverse is single-valued; or two occurrences that both carry values and differ.
   */
  #isDuplicate(field: FieldModel, key: unknown, previous: Input, input: Input, srcField: FieldModel | undefined): boolean {
    if (srcField === undefined && this.#seenAtTopLevel.get(xidKey(field))?.get(key) === true) return true;
    const inverse = this.#inverseOf(srcField);
    if (inverse !== undefined && !inverse.isList) return true;
    return Object.keys(input).length > 1 && Object.keys(previous).length > 1 && !jsonEqual(previous, input);
  }

  /** A single-valued inverse of the edge we came through points back at the parent: Dgraph drops it. */
  #withoutSingleInverse(input: Input, srcField: FieldModel | undefined): Input {
    const inverse = this.#inverseOf(srcField);
    if (inverse === undefined || inverse.isList || input[inverse.name] === undefined) return input;
    const { [inverse.name]: _dropped, ...rest } = input;
    return rest;
  }

  #inverseOf(field: FieldModel | undefined): FieldModel | undefined {
    if (field?.inverse === undefined) return undefined;
    return this.model.types.get(field.inverse.type)?.fields.get(field.inverse.field);
  }
}

/** Keyed by the type that declares the @id field (an interface for inherited ones), as Dgraph does. */
function xidKey(field: FieldModel): string {
  let key = xidKeys.get(field);
  if (key === undefined) xidKeys.set(field, (key = `${field.declaringType}.${field.name}`));
  return key;
}

const xidKeys = new WeakMap<FieldModel, string>();

/** A value's key within one field: its string form (strings as they are, without a copy). */
function valueKey(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

