// Per-request execution state shared by the query and mutation code.

import { getArgumentValues, visit, BREAK, type FieldNode, type GraphQLSchema } from 'graphql';
import { wireError, type WireError } from '../errors/wire-error.js';
import type { FieldPlan } from '../plan/selection-plan.js';
import type { SchemaModel, TypeModel } from '../schema/model.js';
import type { Graph } from './graph.js';

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

const staticArguments = new WeakMap<FieldPlan, Readonly<Record<string, unknown>>>();

function usesVariables(node: FieldNode): boolean {
  let found = false;
  for (const argument of node.arguments ?? []) {
    visit(argument.value, {
      Variable() {
        found = true;
        return BREAK;
      },
    });
    if (found) return true;
  }
  return false;
}

export class ExecContext {
  readonly errors: WireError[] = [];
  /** `vector_distance` of the nodes of the similarity query being read (set by that root field only). */
  vectorDistances: ReadonlyMap<number, number> | undefined;
  /** EXPLAIN lines of the plans run (only when the engine is in debug mode and the request asks). */
  explain: string[] | undefined;

  constructor(
    readonly model: SchemaModel,
    readonly graph: Graph,
    readonly variables: Readonly<Record<string, unknown>>,
    readonly apiSchema: GraphQLSchema,
  ) {}

  typeModel(name: string): TypeModel {
    const type = this.model.types.get(name);
    if (type === undefined) throw new Error(`unknown type ${name}`);
    return type;
  }

  /**
   * Coerced argument values of a field (literal lists from single objects, variables substituted).
   * Arguments written without variables are the same on every run, so they are coerced once per plan.
   */
  argumentsOf(plan: FieldPlan): Readonly<Record<string, unknown>> {
    if (plan.definition === undefined) return {};
    const cached = staticArguments.get(plan);
    if (cached !== undefined) return cached;
    const node = plan.nodes[0] as FieldNode;
    const values = getArgumentValues(plan.definition, node, this.variables) as Record<string, unknown>;
    if (!usesVariables(node)) staticArguments.set(plan, values);
    return values;
  }

  /** `@skip` / `@include`: the field runs if any of its occurrences is included. */
  isIncluded(plan: FieldPlan): boolean {
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
