// Runs a prepared operation against the graph: root query fields independently (one failing leaves
// the others' data intact), root mutation fields serially, stopping after the first failure.

import { executeSync, isNonNullType, Kind, type FieldNode, type OperationDefinitionNode } from 'graphql';
import type { GraphQLRequest } from '../api.js';
import { messages } from '../errors/messages.js';
import type { WireError } from '../errors/wire-error.js';
import { SelectionPlan, type FieldPlan } from '../plan/selection-plan.js';
import type { PreparedOperation } from '../request/prepare-request.js';
import type { CompiledSchema } from '../schema/compile-schema.js';
import { isRemoteField, type RootFieldModel, type TypeModel } from '../schema/model.js';
import { existingByXid } from './xid-lookup.js';
import { coerceArguments, ExecContext, FieldError, pathOf, type MutationEvent, type Path } from './exec-context.js';
import type { Graph } from './graph.js';
import { resolveMutationRoot } from './mutation-root.js';
import { resolveQueryRoot } from './query-root.js';
import { resolveEntities } from './entities.js';
import { installApiScalars } from './api-scalars.js';
import { INVALID, type Completed } from './read-objects.js';
import type { CustomResolver } from './custom-resolver.js';
import { NOT_WRITABLE, writeQueryRoot } from './write-objects.js';
import { asciiBytes, asciiChunk, ByteLimitExceeded, JsonBytes, type ByteChunk } from '../util/json-bytes.js';
import { shownOnlyInDebug, wireError } from '../errors/wire-error.js';
import { estimateQueryCost, type CostInputs } from '../plan/query-cost.js';
import { storeEstimates, type CostEstimates } from '../plan/estimates.js';
import { BudgetExceeded, noBudgetLimits, QueryBudget, type BudgetLimits } from './query-budget.js';
import { serializeResponse } from './serialize-response.js';
import { cacheCounters } from '../util/cache-stats.js';
import { explainEdge } from '../plan/explain.js';
import { AuthRules } from '../auth/auth-rules.js';
import { RequestRules, RuleCache } from '../auth/rule-eval.js';
import { restrictedReads, type RestrictedReads } from '../auth/rule-reach.js';
import { requestReads, type AclReads } from '../acl/acl-read.js';
import { requestWriteCheck } from '../acl/acl-writes.js';
import { storedRootsRefusal } from '../acl/acl-gate.js';

/** Failed direct-JSON attempts after which an operation always takes the general path. */
const maxDirectMisses = 4;
/** Reused by every directly written answer (writing is synchronous; `finish` copies the bytes out). */
const directBody = new JsonBytes();
const DATA_OPEN = asciiBytes('{"data":{');
const TOUCHED_OPEN = asciiChunk('},"extensions":{"touched_uids":');

export interface ExecutionResult {
  readonly errors?: readonly WireError[];
  readonly data: Record<string, unknown> | null;
  readonly extensions?: Record<string, unknown>;
  /** The count in `extensions.touched_uids` (also for the Graphql-TouchedUids header); never serialized. */
  readonly touchedUids?: number;
}

/**
 * Commits one segment of a mutation: a run of root fields between remote ones (`@custom`/`@lambda`),
 * which run between turns holding nothing, as Dgraph runs each root field in its own transaction and a
 * remote one as a plain HTTP call. `segment` writes synchronously and gives its add/update/delete events
 * (for `@lambdaOnMutate`); the promise settles once the segment is durable (undefined) or rolled back (why).
 * `fresh`: nothing of the request ran before (the commit path may then prepare it again against a newer schema).
 */
export type CommitTurn = (segment: () => readonly MutationEvent[], fresh: boolean) => Promise<string | undefined>;

/** Without a commit path (tests reading answers): the segment runs in place. */
const inPlace: CommitTurn = (segment) => {
  segment();
  return Promise.resolve(undefined);
};

export class Executor {
  /** Plans of the root selection, keyed by the (cached, so stable) operation node. */
  readonly #plans = new WeakMap<OperationDefinitionNode, SelectionPlan>();
  /** How often an operation had to leave the direct JSON path; past a few times it stops trying. */
  readonly #notWritable = new WeakMap<OperationDefinitionNode, number>();
  /** touched_uids of the answer `writeDirect` last returned (writing is synchronous: read it right after, as the bytes). */
  directTouched = 0;
  readonly #estimates: CostEstimates;
  /** Operations whose cost bound is fixed by the document and was under the limit, with the store version it was computed at. */
  readonly #admitted = new WeakMap<OperationDefinitionNode, number>();
  /** `#directRoots`, keyed by the (cached) root field list of an operation. */
  readonly #roots = new WeakMap<readonly FieldPlan[], readonly DirectRoot[]>();
  /** The schema's `@auth` rules and their results per claims (absent: no type has a rule). */
  readonly #auth: RuleCache | undefined;
  /** Where an operation reads types with query rules (auth/rule-reach.ts): below its roots, it takes the general path. */
  readonly #restricted = new WeakMap<OperationDefinitionNode, RestrictedReads>();

  constructor(
    private readonly compiled: CompiledSchema,
    private readonly graph: Graph,
    private readonly debug = false,
    /** The `@custom` second stage (absent: custom fields stay null). */
    private readonly custom?: CustomResolver,
    /** Try write-objects.ts's direct JSON for queries first (EngineOptions.directJson). */
    private readonly directJson = true,
    /** Cost, size and time bounds of queries (`--max-query-cost`, `--max-result-bytes`, `--query-timeout-ms`). */
    private readonly limits: BudgetLimits = noBudgetLimits,
  ) {
    installApiScalars(compiled.apiSchema);
    this.#estimates = storeEstimates(graph.store);
    const rules = new AuthRules(compiled.sdl, compiled.model);
    this.#rules = rules;
    this.#auth = rules.empty ? undefined : new RuleCache(rules);
  }

  readonly #rules: AuthRules;

  /** Whether reading `typeName` is under `@auth` query rules (which may read other types). */
  hasQueryRules(typeName: string): boolean {
    return this.#rules.rulesOf(typeName, 'query').length > 0;
  }

  /**
   * The budget a query runs under (its deadline starts now), or the error refusing it when its
   * estimated cost (plan/query-cost.ts) is over `maxQueryCost`. Mutations run without a budget.
   */
  admit(prepared: PreparedOperation): QueryBudget | WireError {
    const max = this.limits.maxQueryCost;
    const operation = prepared.operation;
    const version = this.graph.store.version;
    if (max > 0 && this.#admitted.get(operation) === version) cacheCounters.admission.hits++;
    else if (max > 0) {
      cacheCounters.admission.misses++;
      const roots = this.#plan(prepared).forType('Query');
      const variables = prepared.variables;
      let pagesFixed = true;
      const inputs: CostInputs = {
        model: this.compiled.model,
        estimates: this.#estimates,
        argumentsOf: (plan) => coerceArguments(plan, variables),
        pageSize: (plan, argument) => {
          const node = plan.nodes[0]?.arguments?.find((a) => a.name.value === argument);
          if (node === undefined) return undefined;
          if (node.value.kind !== Kind.INT) pagesFixed = false;
          return coerceArguments(plan, variables)[argument];
        },
      };
      // The cheap bound (page sizes only) first; filter estimates only when it is over the limit.
      if (estimateQueryCost(inputs, roots).total > max) {
        const { total, costliest } = estimateQueryCost(inputs, roots, true);
        if (total > max) return wireError(messages.queryTooCostly(total, max), locationOf(costliest));
      } else if (pagesFixed) {
        // Under the limit by page sizes written in the document and statistics only: admitted again
        // without estimating until the store changes.
        this.#admitted.set(operation, version);
      }
    }
    return new QueryBudget(this.limits);
  }

  /**
   * The answer written directly as JSON (write-objects.ts), synchronously, or undefined when the
   * request needs `run`: not a query, EXPLAIN asked for, or some field needs the general path.
   */
  writeDirect(prepared: PreparedOperation, request: GraphQLRequest, budget = new QueryBudget(this.limits), claims?: Readonly<Record<string, unknown>>): Buffer | undefined {
    // ACL read restrictions are applied on the general path only.
    if (!this.directJson || prepared.operation.operation !== 'query' || (this.debug && wantsExplain(request.extensions)) || requestReads(request) !== undefined) return undefined;
    const restricted = claims === undefined ? 'none' : this.#restrictedReads(prepared);
    if (restricted === 'nested') return undefined;
    return this.#writeQuery(prepared, budget, restricted === 'roots' ? claims : undefined);
  }

  /**
   * Whether a nested mutation input names an existing node by one of its @id values: Dgraph's rewriting
   * then links that node and writes nothing of it (the ACL's WRITE check, acl/acl-writes.ts).
   */
  readonly referencesExisting = (type: TypeModel, input: Readonly<Record<string, unknown>>, reads?: AclReads): boolean => {
    const ctx = new ExecContext(this.compiled.model, this.graph, {}, this.compiled.apiSchema);
    ctx.acl = reads;
    for (const name of type.xidFields) {
      const field = type.fields.get(name);
      const value = input[name];
      if (field !== undefined && value !== undefined && value !== null && existingByXid(ctx, type, field, value) !== undefined) return true;
    }
    return false;
  };

  /**
   * The general path: response objects, errors, custom logic, mutations (callers try `writeDirect` first).
   * With `claims` (the request's JWT claims; `ANONYMOUS` without a token) reads follow the `@auth` query rules.
   */
  async run(prepared: PreparedOperation, request: GraphQLRequest, budget?: QueryBudget, claims?: Readonly<Record<string, unknown>>, commit: CommitTurn = inPlace): Promise<ExecutionResult> {
    const ctx = new ExecContext(this.compiled.model, this.graph, prepared.variables, this.compiled.apiSchema, budget);
    if (claims !== undefined && this.#auth !== undefined) ctx.auth = new RequestRules(this.#auth, claims, ctx);
    ctx.acl = requestReads(request);
    const running: Running = { root: undefined, failed: undefined, nullData: false };
    try {
      return await this.#run(ctx, prepared, request, running, commit);
    } catch (error) {
      // Over budget: no partial answer, one error at the root field that was running.
      if (!(error instanceof BudgetExceeded)) throw error;
      return { errors: [budgetError(error.message, running.root)], data: null };
    }
  }

  async #run(ctx: ExecContext, prepared: PreparedOperation, request: GraphQLRequest, running: Running, commit: CommitTurn): Promise<ExecutionResult> {
    const { operation } = prepared;
    const explain = this.debug && wantsExplain(request.extensions);
    if (explain) {
      ctx.explain = [];
      ctx.edgeRuns = new Map();
    }
    const rootType = operation.operation === 'mutation' ? 'Mutation' : operation.operation === 'subscription' ? 'Subscription' : 'Query';
    const roots =
      operation.operation === 'mutation'
        ? this.compiled.model.mutations
        : operation.operation === 'subscription'
          ? this.compiled.model.subscriptions
          : this.compiled.model.queries;
    const fields = this.#plan(prepared).forType(rootType);
    const data: Record<string, unknown> = {};
    // Under ACL a non-guardian's mutation fields are WRITE-checked one by one as they run (acl/acl-writes.ts).
    const writeCheck = operation.operation === 'mutation' ? requestWriteCheck(request) : undefined;
    const run: RootRun = { ctx, prepared, roots, rootType, data, running, writeCheck, storedRefusal: storedRootsRefusal(request) };
    let remoteRan = false;
    for (let i = 0; i < fields.length; ) {
      const plan = fields[i] as FieldPlan;
      if (running.failed === undefined && ctx.isIncluded(plan) && roots.get(plan.fieldName)?.kind === 'custom') {
        data[plan.responseName] = null;
        ctx.customSlots.push({ parentId: undefined, parentType: rootType, plan, target: data, path: pathOf(undefined, plan.responseName) });
        if (operation.operation === 'mutation' && this.custom !== undefined) {
          // Serial mutation semantics: a custom mutation runs where it stands in the document, between commits.
          const errorsBefore = ctx.errors.length;
          remoteRan = true;
          if (await this.custom.resolve(ctx, request, fields, data)) running.nullData = true;
          ctx.customSlots.length = 0;
          if (ctx.errors.length > errorsBefore && data[plan.responseName] === null) running.failed = plan.responseName;
        }
        i++;
        continue;
      }
      // The fields up to the next remote one: for a mutation, one commit.
      let end = i + 1;
      while (end < fields.length && roots.get((fields[end] as FieldPlan).fieldName)?.kind !== 'custom') end++;
      const segment = fields.slice(i, end);
      i = end;
      // After a failed mutation field they are all "not executed": nothing to commit.
      if (operation.operation === 'mutation' && running.failed === undefined) await this.#commitSegment(run, segment, commit, !remoteRan);
      else for (const field of segment) this.#storedRoot(run, field);
    }
    // Second stage: the @custom calls, grafted into `data` (REFERENCE §8).
    running.root = rootOf(ctx.customSlots[0]?.path, fields);
    if (ctx.customSlots.length > 0 && this.custom !== undefined && (await this.custom.resolve(ctx, request, fields, data))) running.nullData = true;
    const result: { -readonly [K in keyof ExecutionResult]: ExecutionResult[K] } = { data: running.nullData ? null : data };
    // Outside debug mode Dgraph drops some texts (their fields stay failed: null, later mutations not executed).
    const errors = this.debug || ctx.errors.length === 0 ? ctx.errors : ctx.errors.filter((e) => !shownOnlyInDebug(e));
    if (errors.length > 0) result.errors = errors;
    // touched_uids first, as Dgraph orders its extensions; omitted when 0, as Dgraph's omitempty does.
    const extensions: Record<string, unknown> = {};
    if (ctx.touched > 0) extensions['touched_uids'] = ctx.touched;
    if (ctx.explain !== undefined) extensions['explain'] = [...ctx.explain, ...[...(ctx.edgeRuns?.values() ?? [])].map(explainEdge)].join('\n');
    if (ctx.touched > 0 || ctx.explain !== undefined) result.extensions = extensions;
    result.touchedUids = ctx.touched;
    return result;
  }

  /**
   * Runs `segment` (stored root mutation fields) as one commit. Rolled back (the log write failed), its
   * fields answer null with the reason, without locations, and nothing of it stays in the answer.
   */
  async #commitSegment(run: RootRun, segment: readonly FieldPlan[], commit: CommitTurn, fresh: boolean): Promise<void> {
    const { ctx, data, running } = run;
    const before = { errors: ctx.errors.length, events: ctx.events.length, slots: ctx.customSlots.length, touched: ctx.touched, failed: running.failed };
    const restore = (): void => {
      ctx.errors.length = before.errors;
      ctx.events.length = before.events;
      ctx.customSlots.length = before.slots;
      ctx.touched = before.touched;
      running.failed = before.failed;
    };
    const lost = await commit(() => {
      // The segment may run again (a cluster node that lost to another node's write re-runs it after it).
      restore();
      for (const field of segment) this.#storedRoot(run, field);
      return ctx.events.slice(before.events);
    }, fresh);
    if (lost === undefined) return;
    restore();
    for (const field of segment) {
      if (!ctx.isIncluded(field)) continue;
      data[field.responseName] = null;
      ctx.errors.push(wireError(lost, undefined, [field.responseName]));
      running.failed = field.responseName;
    }
  }

  /** One root field that is not remote (a mutation's runs in its segment's commit). */
  #storedRoot(run: RootRun, plan: FieldPlan): void {
    const { ctx, prepared, roots, rootType, data, running, storedRefusal } = run;
    const mutation = rootType === 'Mutation';
    if (!ctx.isIncluded(plan)) return;
    if (running.failed !== undefined) {
      ctx.addError(messages.mutationNotExecuted(plan.responseName), plan.nodes[0], pathOf(undefined, plan.responseName));
      data[plan.responseName] = null;
      return;
    }
    if (storedRefusal !== undefined && !plan.fieldName.startsWith('__') && !isRemoteField(roots.get(plan.fieldName)?.custom)) {
      // A bad token with remote root fields beside: this stored one fails as Dgraph's store refuses it.
      if (mutation) ctx.addError(messages.failedMutation(plan.fieldName, storedRefusal), plan.nodes[0], pathOf(undefined, plan.responseName));
      else ctx.addError(messages.failedQuery(storedRefusal), undefined, pathOf(undefined, plan.responseName));
      data[plan.responseName] = null;
      if (mutation) running.failed = plan.responseName;
      return;
    }
    const refusal = run.writeCheck?.(this.compiled.model, this.compiled.apiSchema, plan.nodes[0] as FieldNode, prepared.variables, this.referencesExisting);
    if (refusal !== undefined) {
      ctx.addError(messages.failedMutation(plan.fieldName, refusal), plan.nodes[0], pathOf(undefined, plan.responseName));
      data[plan.responseName] = null;
      running.failed = plan.responseName;
      return;
    }
    running.root = plan;
    const errorsBefore = ctx.errors.length;
    const value = this.#resolveRoot(ctx, prepared, roots.get(plan.fieldName), plan, rootType);
    if (mutation && ctx.errors.length > errorsBefore && value === null) running.failed = plan.responseName;
    if (value === INVALID || (value === null && plan.definition !== undefined && isNonNullType(plan.definition.type))) {
      running.nullData ||= plan.definition !== undefined && isNonNullType(plan.definition.type);
      data[plan.responseName] = null;
    } else data[plan.responseName] = value;
  }

  /**
   * The whole answer of a query written as JSON text with no response objects, or undefined when
   * some root field needs the general path (which then answers the request from the start).
   */
  #writeQuery(prepared: PreparedOperation, budget: QueryBudget, claims: Readonly<Record<string, unknown>> | undefined): Buffer | undefined {
    const { operation } = prepared;
    const misses = this.#notWritable.get(operation) ?? 0;
    if (misses >= maxDirectMisses) return undefined;
    const ctx = new ExecContext(this.compiled.model, this.graph, prepared.variables, this.compiled.apiSchema, budget);
    if (claims !== undefined && this.#auth !== undefined) ctx.auth = new RequestRules(this.#auth, claims, ctx);
    const out = directBody;
    out.reset();
    out.limit = budget.limits.maxResultBytes;
    out.bytes(DATA_OPEN);
    let first = true;
    let running: FieldPlan | undefined;
    try {
      for (const { plan, key, root } of this.#directRoots(prepared)) {
        if (!ctx.isIncluded(plan)) continue;
        running = plan;
        if (!first) out.byte(0x2c);
        first = false;
        out.chunk(key);
        if (plan.fieldName === '__typename') out.ascii('"Query"');
        else if (root === undefined || !writeQueryRoot(ctx, root, plan, out)) throw NOT_WRITABLE;
      }
      // Errors are reported (with their paths) by the general path only.
      if (ctx.errors.length > 0) throw NOT_WRITABLE;
      // Dgraph's extensions.touched_uids (omitted when 0), appended where the data object ends.
      if (ctx.touched > 0) {
        out.chunk(TOUCHED_OPEN);
        out.number(ctx.touched);
      }
      out.ascii('}}');
      this.directTouched = ctx.touched;
      return out.finish();
    } catch (error) {
      this.directTouched = 0;
      // Over budget: no partial answer, one error at the root field that was running.
      if (error instanceof ByteLimitExceeded) return budgetBody(messages.resultTooLarge(error.size, budget.limits.maxResultBytes), running);
      if (error instanceof BudgetExceeded) return budgetBody(error.message, running);
      if (error !== NOT_WRITABLE && !(error instanceof FieldError)) throw error;
      this.#notWritable.set(operation, misses + 1);
      return undefined;
    } finally {
      out.release();
    }
  }

  /**
   * `body` (the serialized answer of a general-path query), or its size error when it is over the
   * cap: reading checked a lower bound of the size as it went, this checks the exact one.
   */
  capAnswer(body: string, data: ExecutionResult['data'], prepared: PreparedOperation): string {
    const max = this.limits.maxResultBytes;
    if (body.length * 3 <= max) return body; // UTF-8 takes at most 3 bytes per UTF-16 unit
    const bytes = Buffer.byteLength(body);
    if (bytes <= max) return body;
    // Point at the root field holding the most (measured only on this rare path).
    let root: FieldPlan | undefined;
    let largest = -1;
    for (const plan of this.#plan(prepared).forType('Query')) {
      const size = data === null ? 0 : JSON.stringify(data[plan.responseName] ?? null).length;
      if (size > largest) [root, largest] = [plan, size];
    }
    return serializeResponse({ errors: [budgetError(messages.resultTooLarge(bytes, max), root)], data: null });
  }

  /** The root fields of a query with their key bytes and root models, resolved once per operation. */
  #directRoots(prepared: PreparedOperation): readonly DirectRoot[] {
    const plans = this.#plan(prepared).forType('Query');
    let roots = this.#roots.get(plans);
    if (roots === undefined) {
      roots = plans.map((plan) => ({ plan, key: asciiChunk(`"${plan.responseName}":`), root: this.compiled.model.queries.get(plan.fieldName) }));
      this.#roots.set(plans, roots);
    }
    return roots;
  }

  #restrictedReads(prepared: PreparedOperation): RestrictedReads {
    if (this.#auth === undefined) return 'none';
    let restricted = this.#restricted.get(prepared.operation);
    if (restricted === undefined) {
      restricted = restrictedReads(this.compiled.model, this.#auth.rules, this.#plan(prepared).forType('Query'));
      this.#restricted.set(prepared.operation, restricted);
    }
    return restricted;
  }

  #plan(prepared: PreparedOperation): SelectionPlan {
    let plan = this.#plans.get(prepared.operation);
    if (plan === undefined) {
      plan = new SelectionPlan(this.compiled.apiSchema, [prepared.operation.selectionSet], prepared.checked.fragments);
      this.#plans.set(prepared.operation, plan);
    }
    return plan;
  }

  #resolveRoot(
    ctx: ExecContext,
    prepared: PreparedOperation,
    root: RootFieldModel | undefined,
    plan: FieldPlan,
    rootType: string,
  ): Completed {
    if (plan.fieldName === '__typename') return rootType;
    try {
      if (plan.fieldName === '__schema' || plan.fieldName === '__type') return introspect(this.compiled, prepared, plan, ctx);
      if (root === undefined && plan.fieldName === '_entities') return resolveEntities(ctx, plan, pathOf(undefined, plan.responseName));
      if (root === undefined) throw new FieldError(messages.notSupportedYet(plan.fieldName));
      return rootType === 'Mutation'
        ? resolveMutationRoot(ctx, root, plan, pathOf(undefined, plan.responseName))
        : resolveQueryRoot(ctx, root, plan, pathOf(undefined, plan.responseName));
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      ctx.addError(error.message, plan.nodes[0], pathOf(undefined, plan.responseName));
      return null;
    }
  }
}

/** A root field of the direct JSON path: `"responseName":` as bytes, and its root model (undefined: not a generated query). */
interface DirectRoot {
  readonly plan: FieldPlan;
  readonly key: ByteChunk;
  readonly root: RootFieldModel | undefined;
}

/** Where the root fields stand (mutable: the executor moves it along). */
interface Running {
  /** The root field running when the budget ran out. */
  root: FieldPlan | undefined;
  /** A mutation field failed: the ones after it are not executed. */
  failed: string | undefined;
  /** A non-null root field is null: so is `data`. */
  nullData: boolean;
}

/** What every root field of one run reads. */
interface RootRun {
  readonly ctx: ExecContext;
  readonly prepared: PreparedOperation;
  readonly roots: ReadonlyMap<string, RootFieldModel>;
  readonly rootType: string;
  readonly data: Record<string, unknown>;
  readonly running: Running;
  readonly writeCheck: ReturnType<typeof requestWriteCheck>;
  readonly storedRefusal: ReturnType<typeof storedRootsRefusal>;
}

function locationOf(plan: FieldPlan | undefined): { line: number; column: number }[] | undefined {
  const start = plan?.nodes[0]?.loc?.startToken;
  return start === undefined ? undefined : [{ line: start.line, column: start.column }];
}

function budgetError(message: string, root: FieldPlan | undefined): WireError {
  return wireError(message, locationOf(root), root === undefined ? undefined : [root.responseName]);
}

function budgetBody(message: string, root: FieldPlan | undefined): Buffer {
  return Buffer.from(serializeResponse({ errors: [budgetError(message, root)], data: null }));
}

/** The root field a response path starts at. */
function rootOf(path: Path | undefined, roots: readonly FieldPlan[]): FieldPlan | undefined {
  let top = path;
  while (top?.parent !== undefined) top = top.parent;
  return roots.find((plan) => plan.responseName === top?.key);
}

function wantsExplain(extensions: unknown): boolean {
  return typeof extensions === 'object' && extensions !== null && (extensions as Record<string, unknown>)['explain'] === true;
}

/** Introspection fields are answered by graphql-js over the generated API schema. */
function introspect(compiled: CompiledSchema, prepared: PreparedOperation, plan: FieldPlan, ctx: ExecContext): Completed {
  const result = executeSync({
    schema: compiled.apiSchema,
    document: {
      kind: Kind.DOCUMENT,
      definitions: [
        {
          kind: Kind.OPERATION_DEFINITION,
          operation: prepared.operation.operation,
          variableDefinitions: prepared.operation.variableDefinitions ?? [],
          selectionSet: { kind: Kind.SELECTION_SET, selections: plan.nodes as FieldNode[] },
        },
        ...Object.values(prepared.checked.fragments),
      ],
    },
    variableValues: ctx.variables,
  });
  for (const error of result.errors ?? []) ctx.addError(error.message, plan.nodes[0], pathOf(undefined, plan.responseName));
  return result.data?.[plan.responseName] ?? null;
}
