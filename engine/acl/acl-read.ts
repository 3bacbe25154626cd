// What a non-guardian may read on /graphql under ACL, as Dgraph's edgraph.authorizeQuery decides it:
// every predicate of the DQL query its groups cannot READ is removed from it before it runs. Here
// the executor asks an `AclReads` where it reads a field, a filter or an order (exec/ hooks), so the
// answers are those of the pruned query:
// - a root whose function reads an unreadable predicate is removed: nothing is found (a `query<T>`
//   filtered by one eq leaf alone, similarity roots); `type(T)` names no predicate (Dgraph's parser
//   gives it no attribute), so READ on dgraph.type is never needed to find nodes;
//   without it an interface or union result has no concrete type (exec/read-objects.ts completes it untyped);
// - a field on an unreadable predicate is absent from the result (GraphQL completes it as null);
// - an order on one is dropped, and so is a filter leaf reading one. Dgraph removes the leaf from its
//   parent's children (its AND/NOT special case compares upper-case names the parser never makes), and
//   an and/or/not left without children keeps every node: `or` of two dropped leaves passes all.
// The set is computed once per (ACL state, groups); the state is replaced on every change, so a
// group's new rules apply to tokens issued before (the groups themselves are fixed in the token).

import type { GraphQLRequest } from '../api.js';
import type { TypeModel } from '../schema/model.js';
import type { KeyLookup } from '../plan/get-plan.js';
import { aclPredicates, READ, type AclState } from './acl-state.js';

export class AclReads {
  /** Pruned arguments by the coerced arguments object (the same object for every parent of one request). */
  readonly #pruned = new WeakMap<object, Readonly<Record<string, unknown>>>();
  /** Argument objects this view changed: plans for them are cached apart (exec/query-plan-cache.ts). */
  readonly #changed = new WeakSet<object>();

  constructor(
    private readonly readable: ReadonlySet<string>,
    /** A `dgraph.all` READ rule: every predicate but the ACL's own. */
    private readonly all: boolean,
  ) {}

  /** Whether the caller's groups may read `predicate`. */
  reads(predicate: string): boolean {
    return !aclPredicates.has(predicate) && (this.all || this.readable.has(predicate));
  }

  /**
   * get<T>'s key lookups as query_rewriter.rewriteAsGet puts them: without an id the first `@id`
   * argument (by name) is the root function, so an unreadable one finds nothing (undefined); every
   * other `@id` key is a filter leaf, dropped when unreadable.
   */
  getKeys(keys: readonly KeyLookup[]): readonly KeyLookup[] | undefined {
    const xids = keys.filter((k) => k.op === 'xid').sort((a, b) => (a.arg < b.arg ? -1 : a.arg > b.arg ? 1 : 0));
    const root = keys.some((k) => k.op === 'uid') ? undefined : xids[0];
    if (root !== undefined && !this.reads(root.model.predicate)) return undefined;
    return keys.filter((k) => k.op === 'uid' || this.reads(k.model.predicate));
  }

  /**
   * query_rewriter's rootQueryOptimization: a `query<T>` whose whole filter is one `eq` (or `in`) leaf,
   * reading no type with `@auth` query rules (itself or below), runs that leaf as its root function (the type becomes the filter);
   * on an unreadable predicate that root is removed and nothing is found. `filter`: as given, unpruned.
   */
  removesRoot(type: TypeModel, filter: unknown): boolean {
    if (!isObject(filter)) return false;
    const keys = Object.keys(filter).filter((key) => filter[key] !== null && filter[key] !== undefined);
    const field = keys.length === 1 ? type.fields.get(keys[0] as string) : undefined;
    if (field === undefined || field.kind === 'id' || this.reads(field.predicate)) return false;
    const value = filter[field.name];
    if (!isObject(value)) return true; // `flag: true`, an enum: eq
    const ops = Object.keys(value).filter((op) => value[op] !== null && value[op] !== undefined);
    return ops.length === 1 && (ops[0] === 'eq' || ops[0] === 'in');
  }

  /** Whether `value` (arguments or a filter) was pruned by this view. */
  changed(value: object): boolean {
    return this.#changed.has(value);
  }

  /**
   * A field's arguments with the filter and order parts on unreadable predicates of `type` dropped;
   * the same object when nothing is dropped. A filter that can match nothing any more becomes `NONE`.
   */
  arguments(type: TypeModel | undefined, args: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
    if (type === undefined) return args;
    const cached = this.#pruned.get(args);
    if (cached !== undefined) return cached;
    let out = args;
    const filter = args['filter'];
    if (isObject(filter) && type.kind !== 'union') {
      const pruned = this.#filter(type, filter);
      if (pruned !== filter) out = withArgument(out, 'filter', pruned);
    }
    const order = args['order'];
    if (isObject(order)) {
      const pruned = this.#order(type, order);
      if (pruned !== order) out = withArgument(out, 'order', pruned);
    }
    if (out !== args) {
      this.#changed.add(out);
      if (isObject(out['filter'])) this.#changed.add(out['filter']);
    }
    this.#pruned.set(args, out);
    return out;
  }

  #filter(type: TypeModel, filter: Record<string, unknown>): Record<string, unknown> | undefined {
    if (!this.#mentionsUnreadable(type, filter)) return filter;
    const result = this.#tree(type, filter);
    if (result === REMOVED || result === ALL) return undefined;
    return result === NONE ? noneFilter(type) : result;
  }

  /** query_rewriter.buildFilter's tree of one filter object, evaluated after the removal. */
  #tree(type: TypeModel, filter: Record<string, unknown>): Pruned {
    const ands: Pruned[] = [];
    let or: Pruned | undefined;
    for (const key of Object.keys(filter).sort()) {
      const value = filter[key];
      if (value === null || value === undefined) continue;
      if (key === 'and') for (const item of asList(value)) ands.push(this.#tree(type, item));
      else if (key === 'or') or = Array.isArray(value) ? chain('or', (value as Record<string, unknown>[]).map((item) => this.#tree(type, item))) : this.#tree(type, value as Record<string, unknown>);
      else if (key === 'not') ands.push(chain('not', [this.#tree(type, value as Record<string, unknown>)]));
      else if (key === 'has') for (const name of asList(value)) ands.push(this.#leaf(type, String(name), { has: [name] }));
      else {
        const leaf = this.#leaf(type, key, { [key]: value });
        // `eq: null` is rewritten as NOT has(f): a dropped has leaves a childless (all-passing) NOT.
        ands.push(leaf === REMOVED && isObject(value) && 'eq' in value && value['eq'] === null ? ALL : leaf);
      }
    }
    const and = ands.length === 0 ? undefined : ands.length === 1 ? ands[0] : chain('and', ands);
    if (or === undefined) return and ?? REMOVED;
    return and === undefined ? or : chain('or', [and, or]);
  }

  #leaf(type: TypeModel, name: string, filter: Record<string, unknown>): Pruned {
    const field = type.fields.get(name);
    return field !== undefined && field.kind !== 'id' && !this.reads(field.predicate) ? REMOVED : filter;
  }

  #mentionsUnreadable(type: TypeModel, filter: Record<string, unknown>): boolean {
    for (const [key, value] of Object.entries(filter)) {
      if (key === 'and' || key === 'or' || key === 'not') {
        if (asList(value).some((item) => isObject(item) && this.#mentionsUnreadable(type, item))) return true;
      } else if (key === 'has') {
        if (asList(value).some((name) => this.#leaf(type, String(name), {}) === REMOVED)) return true;
      } else if (this.#leaf(type, key, {}) === REMOVED) return true;
    }
    return false;
  }

  /** `order: {asc|desc: f, then: …}`: Dgraph drops each key on an unreadable predicate. */
  #order(type: TypeModel, order: Record<string, unknown>): Record<string, unknown> | undefined {
    const keys: Record<string, unknown>[] = [];
    let changed = false;
    for (let at: unknown = order; isObject(at); at = at['then']) {
      const name = at['asc'] ?? at['desc'];
      const field = typeof name === 'string' ? type.fields.get(name) : undefined;
      if (field !== undefined && !this.reads(field.predicate)) changed = true;
      else keys.push(at);
    }
    if (!changed) return order;
    let out: Record<string, unknown> | undefined;
    for (let i = keys.length - 1; i >= 0; i--) {
      const { then: _then, ...key } = keys[i] as Record<string, unknown>;
      out = out === undefined ? key : { ...key, then: out };
    }
    return out;
  }
}

/** A filter leaf removed from the query. */
const REMOVED: unique symbol = Symbol('removed');
/** Every node passes (an and/or/not left without children). */
const ALL: unique symbol = Symbol('all');
/** No node passes (NOT of one that passes all). */
const NONE: unique symbol = Symbol('none');
type Pruned = typeof REMOVED | typeof ALL | typeof NONE | Record<string, unknown>;

/** A filter no node passes: no id, or (a type without an ID field) has and has not a field. */
function noneFilter(type: TypeModel): Record<string, unknown> {
  if (type.idField !== undefined) return { [type.idField]: [] };
  const field = [...type.fields.values()].find((f) => f.custom === undefined)?.name;
  return { has: [field], not: { has: [field] } };
}

/**
 * An and/or chain as Dgraph runs it: written `(a OP b OP c)` and parsed again into left-nested binary
 * nodes, each keeping its children that were not removed (none left: every node passes).
 */
function chain(op: 'and' | 'or' | 'not', items: readonly Pruned[]): Pruned {
  if (op === 'not') {
    const [child] = items;
    if (child === REMOVED) return ALL;
    return child === ALL ? NONE : child === NONE ? ALL : { not: child };
  }
  let acc = items[0] ?? REMOVED;
  for (let i = 1; i < items.length; i++) acc = binary(op, acc, items[i] as Pruned);
  return acc;
}

function binary(op: 'and' | 'or', a: Pruned, b: Pruned): Pruned {
  if (a === REMOVED && b === REMOVED) return ALL;
  if (a === REMOVED) return b;
  if (b === REMOVED) return a;
  const absorbing = op === 'and' ? NONE : ALL;
  const neutral = op === 'and' ? ALL : NONE;
  if (a === absorbing || b === absorbing) return absorbing;
  if (a === neutral) return b;
  if (b === neutral) return a;
  return { [op]: [a, b] };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const asList = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value : [value]) as Record<string, unknown>[];

function withArgument(args: Readonly<Record<string, unknown>>, name: string, value: unknown): Readonly<Record<string, unknown>> {
  const out: Record<string, unknown> = { ...args };
  if (value === undefined) delete out[name];
  else out[name] = value;
  return out;
}

const views = new WeakMap<AclState, Map<string, AclReads>>();

/** The read view of a non-guardian's groups, cached per ACL state. */
export function aclReads(state: AclState, groups: readonly string[]): AclReads {
  let byGroups = views.get(state);
  if (byGroups === undefined) views.set(state, (byGroups = new Map()));
  const key = groups.join('\u0000');
  let view = byGroups.get(key);
  if (view === undefined) {
    const of = new Set(groups);
    const readable = new Set<string>();
    let all = false;
    for (const group of state.groups) {
      if (!of.has(group.name)) continue;
      for (const rule of group.rules) {
        if ((rule.permission & READ) === 0) continue;
        if (rule.predicate === 'dgraph.all') all = true;
        else readable.add(rule.predicate);
      }
    }
    byGroups.set(key, (view = new AclReads(readable, all)));
  }
  return view;
}

/** The read view the ACL gate chose for a request (absent: it reads everything), for the executor. */
const requestViews = new WeakMap<GraphQLRequest, AclReads>();
let anyView = false;

export function setRequestReads(request: GraphQLRequest, reads: AclReads): void {
  anyView = true;
  requestViews.set(request, reads);
}

/** No lookup at all until ACL has restricted a request. */
export function requestReads(request: GraphQLRequest): AclReads | undefined {
  return anyView ? requestViews.get(request) : undefined;
}
