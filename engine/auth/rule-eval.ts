// One request's view of the `@auth` query rules: per object type, which nodes its claims may read.
// RBAC rules decide for the whole type (no per-node work); graph-traversal rules run their query's
// plan on the engine with the claims as variables, their root ids are the allowed nodes (nested
// selections must all be present, as Dgraph's implicit `@cascade` on rule queries). Results are cached
// per claims object (tokens are verified once, so a repeated token gives the same object) and type,
// until the store's next commit.

import { getVariableValues } from 'graphql';
import { coerceVariablesFast } from '../request/compiled-variables.js';
import { membershipOf, type Membership } from '../indexes/postings/membership.js';
import { SelectionPlan, type FieldPlan } from '../plan/selection-plan.js';
import { isEdgeField, type TypeModel } from '../schema/model.js';
import { difference, EMPTY_IDS, intersect, union, type SortedIds } from '../util/sorted-ids.js';
import { ExecContext } from '../exec/exec-context.js';
import { concreteTypeOf, filteredTargets } from '../exec/read-objects.js';
import { queryIds } from '../exec/query-root.js';
import { runFilter } from '../exec/filter-eval.js';
import { planFilter } from '../plan/filter-plan.js';
import { storeEstimates } from '../plan/estimates.js';
import type { AuthOperation, AuthRules, GraphLeaf, RbacLeaf, RuleNode } from './auth-rules.js';
import { jsonEqual } from '../util/json-equal.js';
import type { AclReads } from '../acl/acl-read.js';
import { restrictedReads } from './rule-reach.js';

/** What a type's query rules let one request read. `denied`: a rule is false for the claims as a whole (Dgraph's static evaluation). */
export type Allowed = { readonly kind: 'all' } | { readonly kind: 'denied' } | { readonly kind: 'some'; readonly members: Membership };

const ALL: Allowed = { kind: 'all' };
const DENIED: Allowed = { kind: 'denied' };

/** The claims of a request without a token. */
export const ANONYMOUS: Readonly<Record<string, unknown>> = Object.freeze({});

const enum Static {
  Positive,
  Negative,
  Uncertain,
}

/** Per claims object: the store version the entries were computed at, and the allowed nodes per type. */
interface CacheEntry {
  version: number;
  readonly byType: Map<string, Allowed>;
}

export class RuleCache {
  readonly entries = new WeakMap<object, CacheEntry>();
  /** Under ACL, per read view: its rule queries read only what the view reads (Dgraph prunes them with the query). */
  readonly #viewEntries = new WeakMap<AclReads, WeakMap<object, CacheEntry>>();
  /** The rule query's root field plan, made once per schema. */
  readonly plans = new WeakMap<GraphLeaf, FieldPlan>();
  constructor(readonly rules: AuthRules) {}

  entriesOf(view: AclReads | undefined): WeakMap<object, CacheEntry> {
    if (view === undefined) return this.entries;
    let entries = this.#viewEntries.get(view);
    if (entries === undefined) this.#viewEntries.set(view, (entries = new WeakMap()));
    return entries;
  }
}

export class RequestRules {
  /**
   * Set by mutations (`refresh`): results kept for this request only, since the store changes in the
   * open transaction before the commit that would expire the shared cache.
   */
  #local: Map<string, Allowed> | undefined;

  constructor(
    private readonly cache: RuleCache,
    private readonly claims: Readonly<Record<string, unknown>>,
    private readonly ctx: ExecContext,
  ) {}

  /** Forgets the results computed so far in this request (a mutation field starts, or has written). */
  refresh(): void {
    this.#local = new Map();
  }

  /** Whether reading a node of this object type needs its rules (false: the type has no query rule). */
  restricts(typeName: string): boolean {
    return this.cache.rules.rulesOf(typeName, 'query').length > 0;
  }

  /** Whether nodes read as `declared` (an object type, or any implementation of an interface) are restricted. */
  restrictsType(declared: TypeModel): boolean {
    return declared.kind === 'object' ? this.restricts(declared.name) : declared.possibleTypes.some((name) => this.restricts(name));
  }

  /**
   * Whether a root field reads a type with query rules, itself or anywhere in its selection (Dgraph's
   * hasAuthRules: its rewriting then moves the root's filter into an auth var block).
   */
  readsRestricted(plan: FieldPlan): boolean {
    return restrictedReads(this.ctx.model, this.cache.rules, [plan]) !== 'none';
  }

  /** A rule of the object type is false for these claims as a whole (aggregates then answer null, as Dgraph). */
  denies(declared: TypeModel): boolean {
    return declared.kind === 'object' && this.allowed(declared.name).kind === 'denied';
  }

  /** The nodes of an object type these claims may read (or update, delete: the rules of `operation`). */
  allowed(typeName: string, operation: AuthOperation = 'query'): Allowed {
    const rules = this.cache.rules.rulesOf(typeName, operation);
    if (rules.length === 0) return ALL;
    let byType = this.#local;
    if (byType === undefined) {
      const version = this.ctx.graph.store.version;
      const entries = this.cache.entriesOf(this.ctx.acl);
      let entry = entries.get(this.claims);
      if (entry === undefined || entry.version !== version) entries.set(this.claims, (entry = { version, byType: new Map() }));
      byType = entry.byType;
    }
    const key = operation === 'query' ? typeName : `${operation} ${typeName}`;
    let allowed = byType.get(key);
    if (allowed === undefined) byType.set(key, (allowed = this.#evaluate(typeName, rules)));
    return allowed;
  }

  /**
   * EXPLAIN of a type's query rules for this request: each rule as the claims decide it (`rbac true`,
   * `graph on the engine`, ...), then whether the allowed nodes were decided by the claims alone,
   * evaluated now or taken from the per-claims cache, and how many nodes they let through.
   */
  explain(typeName: string, cached: boolean): string {
    const rules = this.cache.rules.rulesOf(typeName, 'query');
    const allowed = this.allowed(typeName);
    const decided = rules.every((rule) => staticOf(rule, this.claims) !== Static.Uncertain);
    const how = decided ? 'decided by the claims' : cached ? 'cached for these claims' : 'evaluated for these claims';
    const outcome = allowed.kind === 'all' ? 'every node' : allowed.kind === 'denied' ? 'no node' : `${allowed.members.size} of ${this.ctx.graph.store.countOfType(typeName)} nodes`;
    return `  @auth query rules of ${typeName}: ${rules.map((rule) => describeRule(rule, this.claims)).join(', ')}; ${how}: ${outcome} allowed`;
  }

  /** Whether `allowed(typeName)` would come from a cache (the request's own, or the shared one at this store version). */
  isCached(typeName: string): boolean {
    if (this.#local !== undefined) return this.#local.has(typeName);
    const entry = this.cache.entriesOf(this.ctx.acl).get(this.claims);
    return entry !== undefined && entry.version === this.ctx.graph.store.version && entry.byType.has(typeName);
  }

  /**
   * Dgraph's check after an add (or a deep update): every node the mutation created passes its object
   * type's `add` rules (the type's own and its interfaces'), evaluated now, in the open transaction,
   * over the new nodes only. `created`: ascending ids.
   */
  mayAdd(created: readonly number[]): boolean {
    if (created.length === 0) return true;
    const byType = new Map<string, number[]>();
    const store = this.ctx.graph.store;
    for (const id of created) {
      const name = store.typesOf(id).find((t) => this.ctx.model.types.get(t)?.kind === 'object');
      if (name === undefined || this.cache.rules.rulesOf(name, 'add').length === 0) continue;
      let ids = byType.get(name);
      if (ids === undefined) byType.set(name, (ids = []));
      ids.push(id);
    }
    for (const [name, ids] of byType) if (!this.#allPass(ids, name, 'add')) return false;
    return true;
  }

  /** Whether an existing node read as `declared` passes its object type's `update` rules (evaluated over that node only). */
  mayUpdate(id: number, declared: TypeModel): boolean {
    const type = concreteTypeOf(this.ctx, id, declared);
    return type === undefined || this.#allPass([id], type.name, 'update');
  }

  /** Whether every node of `ids` (of object type `typeName`) passes the rules of `operation`, uncached. */
  #allPass(ids: SortedIds, typeName: string, operation: AuthOperation): boolean {
    for (const rule of this.cache.rules.rulesOf(typeName, operation)) {
      const decided = staticOf(rule, this.claims);
      if (decided === Static.Negative) return false;
      if (decided === Static.Positive) continue;
      const passed = this.#dynamic(typeName, rule, ids);
      if (passed === 'none' || (passed !== 'all' && passed.length !== ids.length)) return false;
    }
    return true;
  }

  /**
   * The nodes an update or delete of an object type affects: those its rule lets through (Dgraph
   * reports nothing for the others; they are simply not matched). Mutations run in their own
   * transaction, so the rule sees the store as the mutation starts. `password`: the node
   * `check<T>Password` may answer (its password rules only, not the query rule).
   */
  affected(ids: SortedIds, type: TypeModel, operation: 'update' | 'delete' | 'password'): SortedIds {
    if (type.kind !== 'object') {
      // An interface's mutation: each node under its implementation's rules (which include the interface's).
      return ids.filter((id) => {
        const concrete = concreteTypeOf(this.ctx, id, type);
        const allowed = concrete === undefined ? ALL : this.allowed(concrete.name, operation);
        return allowed.kind === 'all' || (allowed.kind === 'some' && allowed.members.has(id));
      });
    }
    const allowed = this.allowed(type.name, operation);
    if (allowed.kind === 'all') return ids;
    if (allowed.kind === 'denied') return EMPTY_IDS;
    return ids.filter((id) => allowed.members.has(id));
  }

  /**
   * The nodes of an object type the claims may read, as a candidate list to run a root filter over
   * ('all': unrestricted); undefined for interfaces (their nodes are checked one by one, `filter`).
   */
  scope(declared: TypeModel): SortedIds | 'all' | undefined {
    if (declared.kind !== 'object') return undefined;
    const allowed = this.allowed(declared.name);
    return allowed.kind === 'all' ? 'all' : allowed.kind === 'denied' ? EMPTY_IDS : allowed.members.ids;
  }

  /** `ids` (of `declared`, an object or interface type) that may be read, in their order. */
  filter(ids: SortedIds, declared: TypeModel): SortedIds {
    if (declared.kind === 'object') {
      const allowed = this.allowed(declared.name);
      if (allowed.kind === 'all') return ids;
      if (allowed.kind === 'denied') return [];
      return ids.filter((id) => allowed.members.has(id));
    }
    if (!this.restrictsType(declared)) return ids;
    return ids.filter((id) => this.mayRead(id, declared));
  }

  /** Whether one node read through a field of type `declared` may be read. */
  mayRead(id: number, declared: TypeModel): boolean {
    const type = concreteTypeOf(this.ctx, id, declared);
    if (type === undefined) return true;
    const allowed = this.allowed(type.name);
    return allowed.kind === 'all' || (allowed.kind === 'some' && allowed.members.has(id));
  }

  #evaluate(typeName: string, rules: readonly RuleNode[]): Allowed {
    let ids: SortedIds | undefined;
    for (const rule of rules) {
      const decided = staticOf(rule, this.claims);
      if (decided === Static.Negative) return DENIED;
      if (decided === Static.Positive) continue;
      const some = this.#dynamic(typeName, rule);
      const list = some === 'all' ? undefined : some === 'none' ? [] : some;
      if (list !== undefined) ids = ids === undefined ? list : intersect(ids, list);
    }
    return ids === undefined ? ALL : { kind: 'some', members: membershipOf(ids) };
  }

  /**
   * The nodes of `typeName` a rule lets through ('all' / 'none' / ascending ids); with `within`, only
   * those of `within` (ascending nodes of the type) are looked at.
   */
  #dynamic(typeName: string, rule: RuleNode, within?: SortedIds): SortedIds | 'all' | 'none' {
    switch (rule.kind) {
      case 'rbac':
        return rbacMatches(rule, this.claims) ? 'all' : 'none';
      case 'graph':
        return this.#graph(typeName, rule, within);
      case 'and': {
        let out: SortedIds | 'all' = 'all';
        for (const child of rule.rules) {
          const ids = this.#dynamic(typeName, child, within);
          if (ids === 'none') return 'none';
          if (ids !== 'all') out = out === 'all' ? ids : intersect(out, ids);
        }
        return out;
      }
      case 'or': {
        let out: SortedIds | 'none' = 'none';
        for (const child of rule.rules) {
          const ids = this.#dynamic(typeName, child, within);
          if (ids === 'all') return 'all';
          if (ids !== 'none') out = out === 'none' ? ids : union(out, ids);
        }
        return out;
      }
      case 'not': {
        // A rule whose claims are missing stays false under `not` (Dgraph: only RBAC results are negated then).
        if (rule.rule.kind !== 'rbac' && staticOf(rule.rule, this.claims) === Static.Negative) return 'none';
        const ids = this.#dynamic(typeName, rule.rule, within);
        if (ids === 'all') return 'none';
        if (ids === 'none') return 'all';
        return difference(within ?? this.ctx.graph.store.nodesOfType(typeName), ids);
      }
    }
  }

  /**
   * Over given nodes (Dgraph roots the rule query at them) only the rule's filter applies, planned with
   * the store's statistics so that a few new nodes are tested one by one rather than the filter's
   * index answer (all the nodes sharing the claim's value) being looked up and intersected.
   */
  #filterWithin(ctx: ExecContext, type: TypeModel, filter: Filter | null | undefined, within: SortedIds): SortedIds {
    if (filter === null || filter === undefined) return within;
    const store = ctx.graph.store;
    return runFilter(ctx, type, planFilter(type, filter, storeEstimates(store), store.countOfType(type.name), false), filter, within);
  }

  /** A graph-traversal rule: its root field's matches (among `within`, if given) whose nested selections are all present. */
  #graph(typeName: string, leaf: GraphLeaf, within?: SortedIds): SortedIds | 'none' {
    const outer = this.ctx;
    // The request path's compiled coercion; graphql-js only when it fails (then with errors: the rule is false).
    const claims = asDgraphWritesThem(leaf, this.claims as Record<string, unknown>);
    const variables = coerceVariablesFast(outer.apiSchema, leaf.operation, claims) ?? getVariableValues(outer.apiSchema, leaf.variables, claims).coerced;
    if (variables === undefined) return 'none';
    const root = outer.model.queries.get(leaf.root.name.value);
    const type = root?.type === undefined ? undefined : outer.model.types.get(root.type);
    if (root === undefined || type === undefined) return 'none';
    let plan = this.cache.plans.get(leaf);
    if (plan === undefined) {
      plan = new SelectionPlan(outer.apiSchema, [leaf.operation.selectionSet], {}).forType('Query')[0];
      if (plan === undefined) return 'none';
      this.cache.plans.set(leaf, plan);
    }
    // The rule query runs without rules of its own, as Dgraph's rewritten rule queries do, and under
    // the caller's ACL read view: it is part of the DQL query Dgraph prunes (filters on unreadable
    // predicates dropped, their fields out of the implicit @cascade).
    const ctx = new ExecContext(outer.model, outer.graph, variables, outer.apiSchema);
    ctx.acl = outer.acl;
    const args = ctx.argumentsOf(plan);
    const matches = within === undefined ? queryIds(ctx, root.name, type, args, plan) : this.#filterWithin(ctx, type, args['filter'] as Filter | null | undefined, within);
    const selection = plan.selection;
    const kept = selection === undefined ? matches : matches.filter((id) => present(ctx, id, type, selection));
    const store = outer.graph.store;
    return kept.filter((id) => store.hasType(id, typeName));
  }
}

type Filter = Readonly<Record<string, unknown>>;

/**
 * Dgraph writes a claim into the rule's DQL as it is (`%v`, quoted), where the predicate's type converts
 * it: so a string claim "30" fills an Int variable as 30 (Go's ParseInt), "2.5" a Float, a Boolean one
 * as Go's ParseBool reads it ("true", "T", "0", …: auth_query_test.yaml's ANS: "true"), and a number or
 * boolean claim a String variable as its text. What the predicate cannot convert fails Dgraph's query;
 * here graphql-js refuses it and the rule is false.
 */
function asDgraphWritesThem(leaf: GraphLeaf, claims: Record<string, unknown>): Record<string, unknown> {
  let out = claims;
  for (const { name, type } of leaf.scalars) {
    const value = claims[name];
    const converted = convertClaim(type, value);
    if (converted === value) continue;
    if (out === claims) out = { ...claims };
    out[name] = converted;
  }
  return out;
}

const goBools: Readonly<Record<string, boolean>> = { 1: true, t: true, T: true, TRUE: true, true: true, True: true, 0: false, f: false, F: false, FALSE: false, false: false, False: false };

function convertClaim(type: 'Boolean' | 'Int' | 'Float' | 'String', value: unknown): unknown {
  if (type === 'String') return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  if (type === 'Boolean' && (value === 0 || value === 1)) return value === 1;
  if (typeof value !== 'string') return value;
  if (type === 'Boolean') return goBools[value] ?? value;
  if (type === 'Int') return /^[+-]?\d+$/.test(value) ? Number(value) : value;
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value) ? Number(value) : value;
}

/** Dgraph's implicit `@cascade` on a rule query: every selected field has a value (edges: a target passing in turn). */
function present(ctx: ExecContext, id: number, declared: TypeModel, selection: SelectionPlan): boolean {
  const type = concreteTypeOf(ctx, id, declared);
  if (type === undefined) return false;
  for (const plan of selection.forType(type.name)) {
    const field = type.fields.get(plan.fieldName);
    if (field === undefined || field.kind === 'id') continue; // __typename, aggregates
    if (ctx.acl !== undefined && !ctx.acl.reads(field.predicate)) continue; // not in the pruned query
    if (isEdgeField(field)) {
      const target = ctx.typeModel(field.typeName);
      const targets = filteredTargets(ctx, id, field, target, ctx.argumentsOf(plan), plan);
      const sub = plan.selection;
      if (!(sub === undefined ? targets.length > 0 : targets.some((t) => present(ctx, t, target, sub)))) return false;
    } else if (ctx.graph.store.scalar(field.predicate).get(id) === undefined) return false;
  }
  return true;
}

/** A rule as EXPLAIN shows it: RBAC and claim-less graph rules decided by the claims, the rest on the engine. */
function describeRule(rule: RuleNode, claims: Readonly<Record<string, unknown>>): string {
  switch (rule.kind) {
    case 'rbac':
      return `rbac ${staticOf(rule, claims) === Static.Positive}`;
    case 'graph':
      return staticOf(rule, claims) === Static.Negative ? 'graph false (a claim it reads is missing)' : 'graph on the engine';
    case 'not':
      return `not(${describeRule(rule.rule, claims)})`;
    default:
      return `${rule.kind}(${rule.rules.map((child) => describeRule(child, claims)).join(', ')})`;
  }
}

/** Dgraph's static evaluation: RBAC decided, graph rules uncertain unless a claim they use is missing. */
function staticOf(rule: RuleNode, claims: Readonly<Record<string, unknown>>): Static {
  switch (rule.kind) {
    case 'rbac':
      return rbacMatches(rule, claims) ? Static.Positive : Static.Negative;
    case 'graph':
      for (const variable of rule.variables) {
        const value = claims[variable.variable.name.value];
        if (value === undefined || value === null) return Static.Negative;
      }
      return Static.Uncertain;
    case 'or': {
      let uncertain = false;
      for (const child of rule.rules) {
        const value = staticOf(child, claims);
        if (value === Static.Positive) return Static.Positive;
        if (value === Static.Uncertain) uncertain = true;
      }
      return uncertain ? Static.Uncertain : Static.Negative;
    }
    case 'and': {
      let uncertain = false;
      for (const child of rule.rules) {
        const value = staticOf(child, claims);
        if (value === Static.Negative) return Static.Negative;
        if (value === Static.Uncertain) uncertain = true;
      }
      return uncertain ? Static.Uncertain : Static.Positive;
    }
    case 'not': {
      const value = staticOf(rule.rule, claims);
      // Only an RBAC result is negated: for anything else it says whether the claims it needs are there.
      if (rule.rule.kind !== 'rbac') return value;
      return value === Static.Positive ? Static.Negative : value === Static.Negative ? Static.Positive : Static.Uncertain;
    }
  }
}

/** Dgraph's RBAC match: a claim array matches when any element does; an `in` operand when any of its values does. */
function rbacMatches(rule: RbacLeaf, claims: Readonly<Record<string, unknown>>): boolean {
  const value = claims[rule.variable];
  if (Array.isArray(value)) return value.some((v) => matchesOne(rule, v));
  return matchesOne(rule, value);
}

function matchesOne(rule: RbacLeaf, value: unknown): boolean {
  if (Array.isArray(rule.operand)) return rule.operand.some((operand) => matchValue(rule, operand, value));
  return matchValue(rule, rule.operand, value);
}

function matchValue(rule: RbacLeaf, operand: unknown, value: unknown): boolean {
  if (rule.regex !== undefined) return typeof value === 'string' && rule.regex.test(value);
  return jsonEqual(operand, value);
}

