// Per-request execution state shared by the query and mutation code.

import { getArgumentValues, getNamedType, type FieldNode, type GraphQLOutputType, type GraphQLSchema } from 'graphql';
import { wireError, type WireError } from '../errors/wire-error.js';
import type { FieldPlan } from '../plan/selection-plan.js';
import type { EdgeRun } from '../plan/explain.js';
import type { SchemaModel, TypeModel } from '../schema/model.js';
import type { Graph } from './graph.js';
import { QueryBudget } from './query-budget.js';
import { cacheCounters } from '../util/cache-stats.js';
import type { RequestRules } from '../auth/rule-eval.js';
import type { AclReads } from '../acl/acl-read.js';

/** A response path as a linked list: cheap to extend per field, turned into an array only for errors. */
export interface Path {
  readonly parent: Path | undefined;
  readonly key: string | number;
}

export function pathOf(parent: Path | undefined, key: string | number): Path {
  return { parent, key };
}

export function pathToArray(path: Path | undefined): (string | number)[] {
  const out: (string | number)[] = [];
  for (let p = path; p !== undefined; p = p.parent) out.push(p.key);
  return out.reverse();
}

/** An error raised while resolving one field; becomes a GraphQL error at that field's path. */
export class FieldError extends Error {}

/** What Dgraph's store refuses as the mutation runs (not its GraphQL rewriting): `mutation X failed because Dgraph execution failed because …`. */
export class ExecutionError extends FieldError {}

const staticArguments = new WeakMap<FieldPlan, Readonly<Record<string, unknown>>>();
/** Per field, the arguments last coerced and the (per-request) variables object they were coerced with. */
const lastCoerced = new WeakMap<FieldPlan, { readonly variables: object; readonly values: Readonly<Record<string, unknown>> }>();

/** A `@custom` field met while reading stored data: filled by the custom second stage (engine/custom/). */
export interface CustomSlot {
  /** The parent node; undefined for root Query/Mutation fields. */
  readonly parentId: number | undefined;
  /** The parent's object type name (`Query` / `Mutation` for root fields). */
  readonly parentType: string;
  readonly plan: FieldPlan;
  /** The response object that receives `plan.responseName`. */
  readonly target: Record<string, unknown>;
  readonly path: Path;
}

/** A committed add/update/delete root field, for `@lambdaOnMutate` webhooks (engine/custom/webhooks.ts). */
export interface MutationEvent {
  readonly type: string;
  readonly operation: 'add' | 'update' | 'delete';
  readonly rootIds: readonly number[];
  /** The field's `input` argument (add: the list, update: `{filter, set, remove}`). */
  readonly input?: unknown;
}

export class ExecContext {
  readonly errors: WireError[] = [];
  /** Mutation root fields that succeeded, in document order. */
  readonly events: MutationEvent[] = [];
  /** `@custom` fields left for the second stage, in response order. */
  readonly customSlots: CustomSlot[] = [];
  /** `vector_distance` of the nodes of the similarity query being read (set by that root field only). */
  vectorDistances: ReadonlyMap<number, number> | undefined;
  /** EXPLAIN lines of the plans run (only when the engine is in debug mode and the request asks). */
  explain: string[] | undefined;
  /** With EXPLAIN: what each edge field occurrence ran, over all its parents (printed after the root plans). */
  edgeRuns: Map<FieldPlan, EdgeRun> | undefined;
  /**
   * `extensions.touched_uids`: one per field read on a node (Dgraph counts, per predicate, the uids it
   * was read for) and one per change a mutation made. Counted as the answer is built, never afterwards.
   */
  touched = 0;
  /** The request's `@auth` query rules (auth/rule-eval.ts); undefined when nothing it reads is restricted. */
  auth: RequestRules | undefined;
  /** Under ACL, what a non-guardian's groups may read (acl/acl-read.ts); undefined: everything. */
  acl: AclReads | undefined;

  constructor(
    readonly model: SchemaModel,
    readonly graph: Graph,
    readonly variables: Readonly<Record<string, unknown>>,
    readonly apiSchema: GraphQLSchema,
    /** Deadline and answer-size cap of this request (none unless the executor gives one). */
    readonly budget: QueryBudget = new QueryBudget(),
  ) {}

  typeModel(name: string): TypeModel {
    const type = this.model.types.get(name);
    if (type === undefined) throw new Error(`unknown type ${name}`);
    return type;
  }

  /** Coerced argument values of a field (see coerceArguments). */
  argumentsOf(plan: FieldPlan): Readonly<Record<string, unknown>> {
    const args = coerceArguments(plan, this.variables);
    return this.acl === undefined || plan.definition === undefined ? args : this.acl.arguments(this.#filteredType(plan.definition.type), args);
  }

  /**
   * `filter`/`order` arguments on `type` that are not a field's own (update's `input.filter`, delete's
   * filter of its payload's type), pruned by the ACL read view as Dgraph prunes the upsert query.
   */
  argumentsOn(type: TypeModel, args: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
    return this.acl === undefined ? args : this.acl.arguments(type, args);
  }

  /** The type a field's `filter` and `order` name fields of (`<T>AggregateResult` fields filter `T`). */
  #filteredType(type: GraphQLOutputType): TypeModel | undefined {
    const name = getNamedType(type).name;
    return this.model.types.get(name) ?? (name.endsWith('AggregateResult') ? this.model.types.get(name.slice(0, -'AggregateResult'.length)) : undefined);
  }

  /** `@skip` / `@include`: the field runs if any of its occurrences is included. */
  isIncluded(plan: FieldPlan): boolean {
    if (plan.unconditional) return true;
    return plan.conditions.some((directives) =>
      directives.every((d) => {
        const arg = d.arguments?.find((a) => a.name.value === 'if');
        if (arg === undefined) return true;
        const value =
          arg.value.kind === 'Variable' ? this.variables[arg.value.name.value] === true : arg.value.kind === 'BooleanValue' && arg.value.value;
        return d.name.value === 'skip' ? !value : value;
      }),
    );
  }

  addError(message: string, node: FieldNode | undefined, path: Path): void {
    const start = node?.loc?.startToken;
    this.errors.push(wireError(message, start ? [{ line: start.line, column: start.column }] : undefined, pathToArray(path)));
  }
}

/**
 * Coerced argument values of a field (literal lists from single objects, variables substituted).
 * Arguments written without variables are the same on every run, so they are coerced once per plan.
 */
export function coerceArguments(plan: FieldPlan, variables: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const definition = plan.definition;
  if (definition === undefined) return {};
  const shape = plan.argumentShape;
  if (shape.kind === 'static') {
    let values = staticArguments.get(plan);
    if (values === undefined) staticArguments.set(plan, (values = argumentValues(definition, plan, variables)));
    return values;
  }
  if (shape.kind === 'variables') {
    // Variables were coerced to their declared types already; a missing one may need the
    // argument's default, which graphql-js applies below.
    const substituted: Record<string, unknown> = {};
    let complete = true;
    for (const [argument, variable] of shape.pairs) {
      if (!(variable in variables)) complete = false;
      else substituted[argument] = variables[variable];
    }
    return complete ? substituted : argumentValues(definition, plan, variables);
  }
  // Admission (plan/query-cost.ts) and execution (once per parent, for edges) coerce the same field
  // of one request: a template's output is kept for its variables object.
  const last = lastCoerced.get(plan);
  if (last !== undefined && last.variables === variables) {
    cacheCounters.arguments.hits++;
    return last.values;
  }
  cacheCounters.arguments.misses++;
  const values = shape.template?.(variables) ?? argumentValues(definition, plan, variables);
  lastCoerced.set(plan, { variables, values });
  return values;
}

function argumentValues(definition: NonNullable<FieldPlan['definition']>, plan: FieldPlan, variables: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  return getArgumentValues(definition, plan.nodes[0] as FieldNode, variables) as Record<string, unknown>;
}
