// Writing GraphQL input objects into the store: creating nodes, linking references by ID or @id,
// setting scalars, and keeping @hasInverse edges consistent on both sides. Runs inside a store
// transaction opened by the mutation; any FieldError aborts (and rolls back) the whole mutation.

import type { FieldModel, TypeModel } from '../schema/model.js';
import { GraphStore } from '../store/graph-store.js';
import { FieldError, type ExecContext } from './exec-context.js';
import { isEdgeField } from './filter-eval.js';
import { toStoredValue } from './stored-values.js';
import { existenceVisible, existingByXid } from './xid-lookup.js';
import { setPassword } from './check-password.js';
import { sortedKeys } from '../util/sorted-keys.js';
import type { XidPrecheck } from './xid-precheck.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { setKeys, unionReference } from './union-member.js';
import { messages } from '../errors/messages.js';

type Input = Readonly<Record<string, unknown>>;

export class NodeWriter {
  /** Nodes created by this mutation (for numUids and the payload). */
  readonly created: number[] = [];
  /** Node created for each input object (so a reference back to an object still being written finds it). */
  readonly #nodeOf = new Map<Input, number>();
  /** `$now` of this mutation: read from the clock once, so every default it fills holds the same time. */
  #now: string | undefined;
  readonly #clock = (): string => (this.#now ??= new Date().toISOString());

  /** An edge was taken from an existing node its `update` rules refuse (see link); the mutation fails after its writes. */
  unlinkRefused = false;
  /** The first id this mutation creates: lower ids existed before it. */
  readonly #firstNew: number;

  /** `precheck` has walked the whole mutation input (duplicate XIDs, empty @id values) beforehand. */
  constructor(
    private readonly ctx: ExecContext,
    private readonly precheck: XidPrecheck,
  ) {
    this.#firstNew = ctx.graph.store.maxNodeId + 1;
  }

  /**
   * A root `add` input: a new node, or with `upsert` the existing node with the same @id values —
   * unless its `update` rules refuse it: then nothing of this input is written, its nested nodes
   * neither (undefined), as Dgraph's upsert runs only on the nodes its rule query lets through.
   */
  addRoot(type: TypeModel, input: Input, upsert: boolean): number | undefined {
    const existing = this.#findExisting(type, input, upsert);
    if (existing !== undefined) {
      if (!upsert) throw new FieldError(this.#duplicateMessage(type, input, existing));
      if (this.ctx.auth?.mayUpdate(existing, type) === false) return undefined;
      this.setFields(type, existing, input, 'upsert');
      return existing;
    }
    return this.#create(type, input);
  }

  /**
   * A nested reference reached through edge `via`: link an existing node (by ID or @id), else create
   * it. A single-valued back-reference to the parent (the inverse of `via`) is implied, so it is ignored
   * in input; a list-valued one is kept, its other items written too (Dgraph's deleteInverseObject
   * drops only non-list inverse fields: `friends: [{ name: "Michal", friends: [{ name: "Justin" }] }]`
   * creates Justin).
   */
  reference(type: TypeModel, input: Input, via?: FieldModel): number {
    const single = this.#unionMember(type, input, via);
    if (single !== undefined) return this.reference(single.type, single.input, via);
    const inverse = via === undefined ? undefined : this.#inverseOf(via);
    const original = input;
    if (inverse !== undefined && !inverse.isList && input[inverse.name] !== undefined) {
      const { [inverse.name]: _ignored, ...rest } = input;
      input = rest;
    }
    if (type.idField !== undefined && input[type.idField] !== undefined && input[type.idField] !== null) {
      const raw = String(input[type.idField]);
      const id = GraphStore.parseUid(raw);
      if (id === undefined) throw new FieldError(messages.idNotParsed(raw));
      if (!existenceVisible(this.ctx) || !this.ctx.graph.store.nodeExists(id) || !this.ctx.graph.store.hasType(id, type.name)) {
        throw new FieldError(messages.idOfOtherType(raw, type.name));
      }
      return id;
    }
    const existing = this.#findExisting(type, input, true);
    if (existing !== undefined) return existing;
    if (type.kind !== 'object') throw new FieldError(messages.referenceNeedsId(type.name));
    const definition = this.#definitionOf(type, original);
    const made = this.#nodeOf.get(definition);
    if (made !== undefined) return made;
    const id = this.#create(type, definition === original ? input : definition, inverse?.name);
    this.#nodeOf.set(original, id);
    this.#nodeOf.set(definition, id);
    return id;
  }

  /** A reference met before the object defining the same XID elsewhere in the mutation creates it from that definition. */
  #definitionOf(type: TypeModel, input: Input): Input {
    for (const name of type.xidFields) {
      const field = type.fields.get(name);
      const value = input[name];
      if (field === undefined || value === undefined || value === null) continue;
      const definition = this.precheck.definitionOf(field, value);
      if (definition !== undefined && definition !== input && Object.keys(definition).length > Object.keys(input).length) return definition;
    }
    return input;
  }

  /** Sets every supplied field of `input` on node `id` (scalars replaced, edges added). */
  setFields(type: TypeModel, id: number, input: Input, mode: 'create' | 'upsert' | 'update'): void {
    const store = this.ctx.graph.store;
    if (mode !== 'create') input = withUpdateDefaults(type, input, this.#clock);
    // Dgraph walks input keys in sorted order; errors name the first offending field the same way.
    for (const name of sortedKeys(input)) {
      const value = input[name];
      if (value === undefined) continue;
      if (type.secret !== undefined && name === type.secret.field) {
        if (value !== null) setPassword(this.ctx, type, id, value);
        continue;
      }
      const field = type.fields.get(name);
      if (field === undefined || field.kind === 'id' || field.custom !== undefined) continue;
      if (mode === 'upsert' && field.isXid) continue; // xid values never change on upsert
      if (isEdgeField(field)) {
        const target = this.ctx.typeModel(field.typeName);
        const refs = field.isList ? (value as Input[] | null) ?? [] : value === null ? [] : [value as Input];
        // The single edge's previous target, for the update rules check of the link replacing it.
        const previous = !field.isList && this.ctx.auth !== undefined ? store.edges(field.predicate).out(id) : undefined;
        if (!field.isList) this.unlinkAll(id, field);
        for (const ref of refs) this.link(id, field, this.reference(target, ref, field), previous);
        continue;
      }
      const column = store.scalar(field.predicate);
      if (value === null) {
        column.delete(id);
        continue;
      }
      if (field.isXid && value === '') throw new FieldError(messages.emptyXid(`${type.name}.${name}`));
      if (field.isXid && mode === 'update') this.#checkXidFree(type, field, value, id);
      // An embedding is one value (a Float32Array), not a list of values.
      const list = field.isList && field.kind !== 'embedding';
      column.set(id, list ? (value as unknown[]).map((v) => toStoredValue(field, v)) : toStoredValue(field, value));
    }
  }

  /** Adds the edge `from -field-> to` and its @hasInverse partner (`previous`: `from`'s targets before the caller unlinked them). */
  link(from: number, field: FieldModel, to: number, previous?: SortedIds): void {
    const store = this.ctx.graph.store;
    const inverse = this.#inverseOf(field);
    if (inverse !== undefined && this.ctx.auth !== undefined && this.#existed(to)) this.#authorizeUnlinks(from, field, to, inverse, previous);
    if (!field.isList) this.unlinkAll(from, field, to);
    store.edges(field.predicate).add(from, to);
    if (inverse === undefined) return;
    if (!inverse.isList) this.unlinkAll(to, inverse, from);
    store.edges(inverse.predicate).add(to, from);
  }

  /**
   * Dgraph's additional deletes: linking an existing node through an edge with an inverse takes a
   * single edge from its previous holder (`from`'s old target, when `from` existed; the node `to`'s
   * inverse pointed at), and that holder must pass its `update` rules. Checked as the link is written
   * (Dgraph checks before its writes; a refusal fails the mutation after them).
   */
  #authorizeUnlinks(from: number, field: FieldModel, to: number, inverse: FieldModel, previous: SortedIds | undefined): void {
    const auth = this.ctx.auth;
    const store = this.ctx.graph.store;
    if (auth === undefined || this.unlinkRefused) return;
    if (!field.isList && this.#existed(from)) {
      const target = this.ctx.typeModel(field.typeName);
      for (const old of previous ?? store.edges(field.predicate).out(from)) if (old !== to && this.#existed(old) && !auth.mayUpdate(old, target)) this.unlinkRefused = true;
    }
    if (!inverse.isList) {
      const holder = this.ctx.typeModel(inverse.typeName);
      for (const old of store.edges(inverse.predicate).out(to)) if (old !== from && this.#existed(old) && !auth.mayUpdate(old, holder)) this.unlinkRefused = true;
    }
  }

  /** Removes the edge `from -field-> to` and its @hasInverse partner. */
  unlink(from: number, field: FieldModel, to: number): void {
    const store = this.ctx.graph.store;
    store.edges(field.predicate).remove(from, to);
    const inverse = this.#inverseOf(field);
    if (inverse !== undefined) store.edges(inverse.predicate).remove(to, from);
  }

  /** Removes every edge of a field from a node (keeping `except`). */
  unlinkAll(from: number, field: FieldModel, except?: number): void {
    const edges = this.ctx.graph.store.edges(field.predicate);
    if (edges.outCount(from) === 0) return;
    for (const to of [...edges.out(from)]) {
      if (to !== except) this.unlink(from, field, to);
    }
  }

  #create(type: TypeModel, input: Input, impliedField?: string): number {
    for (const name of type.xidFields) {
      const field = type.fields.get(name);
      if (field?.nonNull === true && (input[name] === undefined || input[name] === null)) throw new FieldError(messages.fieldCannotBeEmpty(name));
    }
    this.#checkRequired(type, input, impliedField);
    for (const name of type.xidFields) {
      const field = type.fields.get(name);
      if (field !== undefined && field.typeName === 'String' && input[name] === '') {
        throw new FieldError(messages.emptyXid(`${type.name}.${name}`));
      }
    }
    const store = this.ctx.graph.store;
    const id = store.createNode();
    store.addType(id, type.name);
    for (const iface of type.interfaces) store.addType(id, iface);
    this.created.push(id);
    this.#nodeOf.set(input, id);
    this.setFields(type, id, withAddDefaults(type, input, this.#clock), 'create');
    return id;
  }

  #checkRequired(type: TypeModel, input: Input, impliedField: string | undefined): void {
    for (const field of requiredFields(type)) {
      if (field.name === impliedField) continue; // set by the inverse edge from the parent
      const value = input[field.name];
      if (value === undefined || value === null) {
        throw new FieldError(messages.requiredFieldMissing(type.name, field.name));
      }
    }
  }

  /**
   * The node one of the input's @id values names. When that node is to be linked or upserted
   * (`oneNode`), @id values naming different nodes are an error, as in Dgraph (gotMultipleExistingNodes).
   */
  #findExisting(type: TypeModel, input: Input, oneNode: boolean): number | undefined {
    let found: number | undefined;
    for (const name of type.xidFields) {
      const value = input[name];
      const field = type.fields.get(name);
      if (value === undefined || value === null || field === undefined) continue;
      const id = existingByXid(this.ctx, type, field, value);
      if (id === undefined || id === found) continue;
      if (found !== undefined) throw new FieldError(this.#concealed(type, 'multiple nodes found for given xid values, updation not possible'));
      if (!oneNode) return id;
      found = id;
    }
    return found;
  }

  #duplicateMessage(type: TypeModel, input: Input, _existing: number): string {
    for (const name of type.xidFields) {
      const field = type.fields.get(name);
      const value = input[name];
      if (field === undefined || value === undefined || value === null) continue;
      if (existingByXid(this.ctx, type, field, value) === undefined) continue;
      if (field.xidInterface && field.declaringType !== type.name) {
        return this.#concealed(type, `id ${String(value)} already exists for field ${name} in some other implementing type of interface ${field.declaringType}`);
      }
      return this.#concealed(type, messages.xidExists(String(value), name, type.name));
    }
    return `id already exists for type ${type.name}`;
  }

  /** Whether a node existed before this mutation (Dgraph's rewrite checks edges taken from those only). */
  #existed(id: number): boolean {
    return id < this.#firstNew;
  }

  /** Existence errors about a type with query rules would reveal its nodes: Dgraph words them for debug mode only. */
  #concealed(type: TypeModel, text: string): string {
    return this.ctx.auth?.restricts(type.name) === true ? messages.graphqlDebug(text) : text;
  }

  #checkXidFree(type: TypeModel, field: FieldModel, value: unknown, self: number): void {
    const owner = existingByXid(this.ctx, type, field, value);
    if (owner !== undefined && owner !== self) {
      throw new FieldError(messages.xidExists(String(value), field.name, type.name));
    }
  }

  #inverseOf(field: FieldModel): FieldModel | undefined {
    if (field.inverse === undefined) return undefined;
    return this.ctx.model.types.get(field.inverse.type)?.fields.get(field.inverse.field);
  }

  /** Union references name exactly one member: `{ dogRef: {...} }`. */
  #unionMember(type: TypeModel, input: Input, via: FieldModel | undefined): { type: TypeModel; input: Input } | undefined {
    if (type.kind !== 'union') return undefined;
    const member = unionReference(this.ctx.model, type, input);
    if (member !== undefined) return member;
    const count = setKeys(input).length;
    const where = via === undefined ? `union ${type.name}` : `field \`${via.name}\` in type \`${via.declaringType}\``;
    if (count !== 1) throw new FieldError(messages.unionOneChild(where, count));
    throw new FieldError(messages.unionUnknownMember(setKeys(input).join(), type.name));
  }
}

interface FieldLists {
  readonly required: readonly FieldModel[];
  readonly addDefaults: readonly FieldModel[];
  readonly updateDefaults: readonly FieldModel[];
}

/** Per type (models are per schema): the fields an add must be given, and those with `@default(add:)` / `@default(update:)`. */
const fieldLists = new WeakMap<TypeModel, FieldLists>();

function listsOf(type: TypeModel): FieldLists {
  let lists = fieldLists.get(type);
  if (lists === undefined) {
    const fields = [...type.fields.values()];
    lists = {
      required: fields.filter(
        (f) => f.nonNull && f.kind !== 'id' && f.custom === undefined && f.reverseOf === undefined && f.defaults?.add === undefined,
      ),
      addDefaults: fields.filter((f) => f.defaults?.add !== undefined),
      updateDefaults: fields.filter((f) => f.defaults?.update !== undefined),
    };
    fieldLists.set(type, lists);
  }
  return lists;
}

function requiredFields(type: TypeModel): readonly FieldModel[] {
  return listsOf(type).required;
}

/** Fills `@default(add: {value})` values (DateTime `$now` = the time of the mutation). */
function withAddDefaults(type: TypeModel, input: Input, now: () => string): Input {
  let out: Record<string, unknown> | undefined;
  for (const field of listsOf(type).addDefaults) {
    const value = field.defaults?.add;
    if (value === undefined || (input[field.name] !== undefined && input[field.name] !== null)) continue;
    out ??= { ...input };
    out[field.name] = defaultValue(field, value, now);
  }
  return out ?? input;
}

/**
 * Fills `@default(update: {value})` values into a non-empty patch of an existing node (update `set`,
 * add upsert): Dgraph adds them to every such rewrite, and the patch's own values win. A null in the
 * patch is a value (it deletes), so only absent fields are filled.
 */
function withUpdateDefaults(type: TypeModel, input: Input, now: () => string): Input {
  const fields = listsOf(type).updateDefaults;
  if (fields.length === 0 || Object.keys(input).length === 0) return input;
  let out: Record<string, unknown> | undefined;
  for (const field of fields) {
    const value = field.defaults?.update;
    if (value === undefined || input[field.name] !== undefined) continue;
    out ??= { ...input };
    out[field.name] = defaultValue(field, value, now);
  }
  return out ?? input;
}

function defaultValue(field: FieldModel, raw: string, now: () => string): unknown {
  if (raw === '$now') return now();
  if (field.typeName === 'Int' || field.typeName === 'Float') return Number(raw);
  if (field.typeName === 'Boolean') return raw === 'true';
  return raw;
}
