// The custom-logic second stage (REFERENCE §8), run once per request after the stored-data pass:
//   1. group the deferred slots by field plan; find the unique parents of each group;
//   2. read the values each call needs from the store (even when the request did not select them);
//   3. build the calls: one per root field, one per unique parent (SINGLE) or one per field (BATCH);
//   4. send them all as one batch (CallRunner: inline or a worker thread);
//   5. turn each outcome into a value or Dgraph's error, complete it against the field type and graft it
//      under every slot; a non-null violation nulls the nearest nullable ancestor.

import { getNamedType, getNullableType, isLeafType, isListType, isNonNullType, isObjectType, isScalarType, type GraphQLOutputType, type GraphQLSchema } from 'graphql';
import type { GraphQLRequest } from '../api.js';
import { wireError, type WireError, type WireLocation } from '../errors/wire-error.js';
import { pathToArray, type CustomSlot, type ExecContext } from '../exec/exec-context.js';
import type { CustomResolver } from '../exec/custom-resolver.js';
import type { FieldPlan } from '../plan/selection-plan.js';
import type { CompiledSchema } from '../schema/compile-schema.js';
import type { SchemaModel } from '../schema/model.js';
import type { CallRunner } from './call-runner.js';
import { Completer, coerceScalar, INVALID, nonNullMissing } from './complete.js';
import { buildCalls, failed, type BuildContext } from './build-calls.js';
import { customFieldSpec, type CustomFieldSpec } from './custom-field.js';
import { goJsonError } from './go-json.js';
import type { CallOutcome, OutboundCall } from './outbound.js';
import { predicateInfo, runDqlField } from './dql-field.js';
import { sliceCheckEvery, TimeSlice } from './time-slice.js';
import type { PredicateInfo } from '../dql/evaluate-dql.js';
import { exceedsJsonNesting } from '../util/json-nesting.js';
import { messages } from '../errors/messages.js';

/** One group of slots answered together: a root field, or a type field over its unique parents. */
interface Group {
  readonly spec: CustomFieldSpec;
  readonly plan: FieldPlan;
  readonly slots: CustomSlot[];
  /** Unique parents (node ids) in first-seen order; empty for root fields. */
  readonly parents: number[];
  readonly slotsByParent: Map<number, CustomSlot[]>;
  /** Index of this group's first call in the batch, and how many it made. */
  first: number;
  count: number;
  /** Set when the calls could not be built (the error applies to the whole group). */
  buildError?: string;
  /** Per-call build failures (e.g. a bad header value), by call offset. */
  callErrors: Map<number, string>;
}

export class CustomStage implements CustomResolver {
  readonly #specs = new Map<string, CustomFieldSpec | null>();
  /** Per field plan: its spec (saves a key string per slot) and, for nullable scalar fields, the scalar name. */
  readonly #planSpecs = new WeakMap<FieldPlan, CustomFieldSpec | null>();
  readonly #leafScalars = new WeakMap<FieldPlan, string | null>();
  readonly #completer: Completer;
  readonly #model: SchemaModel;
  readonly #schema: GraphQLSchema;
  #predicates: Map<string, PredicateInfo> | undefined;

  constructor(
    compiled: CompiledSchema,
    private readonly runner: CallRunner,
  ) {
    this.#model = compiled.model;
    this.#schema = compiled.apiSchema;
    this.#completer = new Completer(compiled.apiSchema);
  }

  async resolve(ctx: ExecContext, request: GraphQLRequest, rootPlans: readonly FieldPlan[], data: Record<string, unknown>): Promise<boolean> {
    let nullData = false;
    const httpSlots: CustomSlot[] = [];
    for (const slot of ctx.customSlots) {
      const dql = slot.parentId === undefined ? this.#dql(slot.parentType, slot.plan.fieldName) : undefined;
      if (dql === undefined) httpSlots.push(slot);
      else if (this.#resolveDql(ctx, slot, dql, rootPlans, data)) nullData = true;
    }
    if (httpSlots.length === 0) return nullData;
    const groups = this.#group(ctx, httpSlots);
    const build: BuildContext = { ctx, request, model: this.#model, schema: this.#schema };
    const calls: OutboundCall[] = [];
    // The query's deadline is checked as the stage goes (a build error would hide it, so again after).
    const checkpoint = (): void => ctx.budget.check();
    const slice = new TimeSlice(1, checkpoint);
    for (const group of groups) {
      group.first = calls.length;
      try {
        await buildCalls(build, group.spec, group.plan, group.parents, calls, group.callErrors, slice);
      } catch (error) {
        group.buildError = error instanceof Error ? error.message : String(error);
      }
      group.count = calls.length - group.first;
    }
    const sendable = calls.map((call, i) => (isSendable(groups, i) ? call : undefined));
    const toSend = sendable.filter((c): c is OutboundCall => c !== undefined);
    checkpoint();
    const waitStarted = performance.now();
    const sent = await this.runner.run(toSend);
    ctx.budget.excludeWaitSince(waitStarted);
    checkpoint();
    const outcomes: CallOutcome[] = [];
    let next = 0;
    for (const call of sendable) outcomes.push(call === undefined ? { ok: false, error: '' } : (sent[next++] as CallOutcome));
    const finishing = new TimeSlice(1, checkpoint);
    for (const group of groups) if (await this.#finish(ctx, group, outcomes, rootPlans, data, finishing)) nullData = true;
    return nullData;
  }

  /** The DQL text of a `@custom(dql:)` root query (also when subscribed to). */
  #dql(parentType: string, field: string): string | undefined {
    if (parentType === 'Query') return this.#model.queries.get(field)?.custom?.dql;
    if (parentType === 'Subscription') return this.#model.subscriptions.get(field)?.custom?.dql ?? this.#model.queries.get(field)?.custom?.dql;
    return undefined;
  }

  #resolveDql(ctx: ExecContext, slot: CustomSlot, dql: string, rootPlans: readonly FieldPlan[], data: Record<string, unknown>): boolean {
    this.#predicates ??= predicateInfo(this.#model);
    const outcome = runDqlField(ctx, slot.plan, dql, this.#predicates);
    if (!outcome.ok) {
      ctx.addError(outcome.error, slot.plan.nodes[0], slot.path);
      return this.#graft(ctx, slot, null, rootPlans, data, false);
    }
    let value = outcome.value;
    const type = slot.plan.definition?.type;
    if (Array.isArray(value) && type !== undefined && !isListType(getNullableType(type))) {
      // A single-object field reads the block's only node (Dgraph's completion does the same).
      if (value.length > 1) {
        ctx.addError(
          messages.listForOne,
          slot.plan.nodes[0],
          slot.path,
        );
        return this.#graft(ctx, slot, null, rootPlans, data, false);
      }
      value = value[0] ?? null;
    }
    return this.#graft(ctx, slot, value, rootPlans, data, true);
  }

  #spec(parentType: string, field: string): CustomFieldSpec | null {
    const key = `${parentType}.${field}`;
    let spec = this.#specs.get(key);
    if (spec === undefined) {
      const custom =
        parentType === 'Query'
          ? this.#model.queries.get(field)?.custom
          : parentType === 'Mutation'
            ? this.#model.mutations.get(field)?.custom
            : this.#model.types.get(parentType)?.fields.get(field)?.custom;
      spec = custom?.http === undefined ? null : customFieldSpec(parentType, field, custom.http, custom.lambda);
      this.#specs.set(key, spec);
    }
    return spec;
  }

  #group(ctx: ExecContext, slots: readonly CustomSlot[]): Group[] {
    const byPlan = new Map<FieldPlan, Group>();
    const groups: Group[] = [];
    // Slots of one field come in runs (one per parent of a list): look the spec up once per run.
    let lastPlan: FieldPlan | undefined;
    let lastSpec: CustomFieldSpec | null | undefined;
    for (const slot of slots) {
      let spec = slot.plan === lastPlan ? lastSpec : this.#planSpecs.get(slot.plan);
      if (spec === undefined) {
        spec = this.#spec(slot.parentType, slot.plan.fieldName);
        this.#planSpecs.set(slot.plan, spec);
      }
      lastPlan = slot.plan;
      lastSpec = spec;
      if (spec === null) {
        ctx.addError(messages.notSupportedYet(slot.plan.fieldName), slot.plan.nodes[0], slot.path);
        continue;
      }
      const key = slot.plan;
      let group = slot.parentId === undefined ? undefined : byPlan.get(key);
      if (group === undefined) {
        group = { spec, plan: slot.plan, slots: [], parents: [], slotsByParent: new Map(), first: 0, count: 0, callErrors: new Map() };
        groups.push(group);
        if (slot.parentId !== undefined) byPlan.set(key, group);
      }
      group.slots.push(slot);
      if (slot.parentId !== undefined) {
        const same = group.slotsByParent.get(slot.parentId);
        if (same === undefined) {
          group.parents.push(slot.parentId);
          group.slotsByParent.set(slot.parentId, [slot]);
        } else same.push(slot);
      }
    }
    return groups;
  }

  /** Turns the group's outcomes into values and grafts them; true when the whole `data` must become null. */
  async #finish(ctx: ExecContext, group: Group, outcomes: readonly CallOutcome[], rootPlans: readonly FieldPlan[], data: Record<string, unknown>, slice: TimeSlice): Promise<boolean> {
    const { spec, plan } = group;
    const fail = (message: string, slots: readonly CustomSlot[]): boolean => {
      const first = slots[0];
      if (first !== undefined && message !== '') ctx.addError(message, plan.nodes[0], first.path);
      let nullData = false;
      for (const slot of slots) if (this.#graft(ctx, slot, null, rootPlans, data, false)) nullData = true;
      return nullData;
    };
    if (group.buildError !== undefined) return fail(group.buildError, group.slots);
    const results: { value: unknown; error?: string; remoteErrors?: unknown[] }[] = [];
    for (let i = 0; i < group.count; i++) {
      if (i % sliceCheckEvery === sliceCheckEvery - 1) await slice.pause();
      const buildError = group.callErrors.get(i);
      results.push(
        buildError !== undefined ? { value: null, error: failed(buildError, spec.field, spec.parentType) } : interpret(spec, outcomes[group.first + i] as CallOutcome),
      );
    }
    let nullData = false;
    const isBatch = group.parents.length > 0 && spec.http.mode === 'BATCH';
    for (const r of results) for (const e of r.remoteErrors ?? []) ctx.errors.push(remoteError(e));
    if (group.parents.length === 0) {
      const r = results[0] ?? { value: null };
      if (r.error !== undefined) return fail(r.error, group.slots);
      for (const slot of group.slots) if (this.#graft(ctx, slot, r.value, rootPlans, data, true)) nullData = true;
      return nullData;
    }
    if (isBatch) {
      const r = results[0] ?? { value: null };
      let error = r.error;
      if (error === undefined && r.value !== undefined && !Array.isArray(r.value)) {
        error = failed(`expected result of external BATCH request to be of list type, got: ${goType(r.value)}`, spec.field, spec.parentType);
      } else if (error === undefined && Array.isArray(r.value) && r.value.length !== group.parents.length) {
        error = failed(`expected result of external request to be of size ${group.parents.length}, got: ${r.value.length}`, spec.field, spec.parentType);
      }
      if (error !== undefined || !Array.isArray(r.value)) return fail(error ?? '', group.slots);
      const list = r.value as unknown[];
      const leaf = this.#groupLeaf(plan);
      for (let i = 0; i < group.parents.length; i++) {
        if (i % sliceCheckEvery === sliceCheckEvery - 1) await slice.pause();
        if (this.#graftParent(ctx, group, i, list[i], leaf, rootPlans, data)) nullData = true;
      }
      return nullData;
    }
    const leaf = this.#groupLeaf(plan);
    for (let i = 0; i < group.parents.length; i++) {
      if (i % sliceCheckEvery === sliceCheckEvery - 1) await slice.pause();
      const r = results[i] ?? { value: null };
      if (r.error !== undefined) {
        if (fail(r.error, group.slotsByParent.get(group.parents[i] as number) ?? [])) nullData = true;
      } else if (this.#graftParent(ctx, group, i, r.value, leaf, rootPlans, data)) nullData = true;
    }
    return nullData;
  }

  /** The scalar name of a group's field when its values can take the per-parent fast path (nullable scalar), else null. */
  #groupLeaf(plan: FieldPlan): string | null {
    const type = plan.definition?.type;
    return type === undefined ? null : this.#leafScalar(plan, type);
  }

  /** Grafts parent number `i`'s value under each of its slots. */
  #graftParent(ctx: ExecContext, group: Group, i: number, value: unknown, leaf: string | null, rootPlans: readonly FieldPlan[], data: Record<string, unknown>): boolean {
    const slots = group.slotsByParent.get(group.parents[i] as number) ?? [];
    // Fast path, no type walk: a nullable scalar (the slots already hold null) or a value that coerces.
    if (leaf !== null && value !== undefined && (value === null || typeof value !== 'object')) {
      const coerced = value === null ? null : coerceScalar(leaf, value);
      if (coerced !== INVALID) {
        const name = group.plan.responseName;
        for (const slot of slots) slot.target[name] = coerced;
        return false;
      }
    }
    let nullData = false;
    for (const slot of slots) if (this.#graft(ctx, slot, value, rootPlans, data, true)) nullData = true;
    return nullData;
  }

  #leafScalar(plan: FieldPlan, type: GraphQLOutputType): string | null {
    let leaf = this.#leafScalars.get(plan);
    if (leaf === undefined) {
      leaf = isScalarType(type) ? type.name : null;
      this.#leafScalars.set(plan, leaf);
    }
    return leaf;
  }

  /** Completes `value` into the slot; a non-null violation nulls the nearest nullable ancestor. */
  #graft(ctx: ExecContext, slot: CustomSlot, value: unknown, rootPlans: readonly FieldPlan[], data: Record<string, unknown>, complete: boolean): boolean {
    const type = slot.plan.definition?.type;
    if (type === undefined) return false;
    let completed: unknown;
    const leaf = complete ? this.#leafScalar(slot.plan, type) : null;
    // Fast path for the common nullable scalar field: no type walk per parent.
    const quick = leaf === null || value === undefined || typeof value === 'object' ? INVALID : coerceScalar(leaf, value);
    if (quick !== INVALID) completed = quick;
    else if (complete) completed = this.#completer.complete(ctx, type, value, slot.plan, slot.path);
    else if (slot.parentId === undefined && isListType(getNullableType(type))) completed = [];
    else completed = isNonNullType(type) ? INVALID : null;
    if (completed !== INVALID) {
      slot.target[slot.plan.responseName] = completed;
      return false;
    }
    if (!complete) ctx.addError(nonNullMissing(slot.plan.fieldName, type), slot.plan.nodes[0], slot.path);
    return nullAncestor(this.#schema, pathToArray(slot.path), rootPlans, data);
  }
}

function isSendable(groups: readonly Group[], index: number): boolean {
  for (const g of groups) {
    if (index >= g.first && index < g.first + g.count) return g.buildError === undefined && !g.callErrors.has(index - g.first);
  }
  return true;
}

interface Interpreted {
  value: unknown;
  error?: string;
  remoteErrors?: unknown[];
}

/** An outcome as a value or Dgraph's error (REFERENCE §8.3); remote bodies are never echoed. */
function interpret(spec: CustomFieldSpec, outcome: CallOutcome): Interpreted {
  const { field, parentType } = spec;
  if (!outcome.ok) return { value: null, error: failed(`external request returned an error: ${outcome.error}`, field, parentType) };
  let parsed: unknown;
  let parseError: string | undefined;
  try {
    // Go's decoder stops at 10000 levels with this error; the walkers here take fewer.
    if (exceedsJsonNesting(outcome.body)) parseError = 'exceeded max depth';
    else parsed = outcome.body === '' ? undefined : JSON.parse(outcome.body);
  } catch {
    parseError = goJsonError(outcome.body);
  }
  const errors = typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { errors?: unknown }).errors) ? (parsed as { errors: unknown[] }).errors : undefined;
  if (outcome.status < 200 || outcome.status > 299) {
    if (errors !== undefined) return { value: null, error: '', remoteErrors: errors };
    return { value: null, error: failed(`external request returned an error: unexpected error with: ${outcome.status}`, field, parentType) };
  }
  if (parseError !== undefined || (outcome.body === '' && spec.graphql !== undefined)) {
    return { value: null, error: failed(`json unmarshalling result of external request failed (with error: ${parseError ?? 'unexpected end of JSON input'})`, field, parentType) };
  }
  if (spec.graphql === undefined) return { value: parsed ?? null };
  const dataObject = (parsed as { data?: unknown }).data;
  const remoteField = spec.graphql.field;
  if (typeof dataObject !== 'object' || dataObject === null || !(remoteField in dataObject)) {
    if (errors !== undefined && errors.length > 0) return { value: null, error: '', remoteErrors: errors };
    return {
      value: null,
      error: failed(`key: ${remoteField} could not be found in the JSON response returned by external request`, field, parentType),
    };
  }
  return { value: (dataObject as Record<string, unknown>)[remoteField], ...(errors !== undefined ? { remoteErrors: errors } : {}) };
}

function remoteError(error: unknown): WireError {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const e = error as Record<string, unknown>;
  return wireError(
    typeof e['message'] === 'string' ? e['message'] : '',
    Array.isArray(e['locations']) ? (e['locations'] as WireLocation[]) : undefined,
    Array.isArray(e['path']) ? (e['path'] as (string | number)[]) : undefined,
  );
}

function goType(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'float64';
  if (typeof value === 'boolean') return 'bool';
  if (value === null) return '<nil>';
  return 'map[string]interface {}';
}

/**
 * Null propagation out of a custom field (REFERENCE §7): walks `path` from the root, finds the nearest
 * nullable position above the field and sets it to null; true when none exists (data becomes null).
 */
function nullAncestor(schema: GraphQLSchema, path: readonly (string | number)[], rootPlans: readonly FieldPlan[], data: Record<string, unknown>): boolean {
  const containers: unknown[] = [data];
  const types: GraphQLOutputType[] = [];
  let plans: readonly FieldPlan[] | undefined = rootPlans;
  let type: GraphQLOutputType | undefined;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as string | number;
    if (typeof key === 'number') {
      const list = isNonNullType(type) ? type.ofType : type;
      type = list !== undefined && isListType(list) ? (list.ofType as GraphQLOutputType) : undefined;
    } else {
      const plan: FieldPlan | undefined = plans?.find((p) => p.responseName === key);
      type = plan?.definition?.type;
      plans = plan?.selection === undefined || type === undefined ? undefined : plansFor(schema, plan, type);
    }
    if (type === undefined) return false;
    types.push(type);
    const container = containers[i] as Record<string | number, unknown> | null;
    containers.push(container === null || container === undefined ? undefined : container[key]);
  }
  for (let i = path.length - 2; i >= 0; i--) {
    if (!isNonNullType(types[i])) {
      const container = containers[i] as Record<string | number, unknown> | null | undefined;
      if (container !== null && container !== undefined) container[path[i] as string | number] = null;
      return false;
    }
  }
  return true;
}

function plansFor(schema: GraphQLSchema, plan: FieldPlan, type: GraphQLOutputType): readonly FieldPlan[] | undefined {
  const named = getNamedType(type);
  if (isLeafType(named) || plan.selection === undefined) return undefined;
  if (isObjectType(named)) return plan.selection.forType(named.name);
  const all: FieldPlan[] = [];
  for (const t of schema.getPossibleTypes(named as never)) all.push(...plan.selection.forType(t.name));
  return all;
}

