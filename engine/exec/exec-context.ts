// Per-request execution state shared by the query and mutation code.

import type { FieldNode } from 'graphql';
import { getArgumentValues } from 'graphql';
import { wireError, type WireError } from '../errors/wire-error.js';
import type { FieldPlan } from '../plan/selection-plan.js';
import type { SchemaModel, TypeModel } from '../schema/model.js';
import type { Graph } from './graph.js';

export type Path = readonly (string | number)[];

/** An error raised while resolving one field; becomes a GraphQL error at that field's path. */
export class FieldError extends Error {}

export class ExecContext {
  readonly errors: WireError[] = [];

  constructor(
    readonly model: SchemaModel,
    readonly graph: Graph,
    readonly variables: Readonly<Record<string, unknown>>,
  ) {}

  typeModel(name: string): TypeModel {
    const type = this.model.types.get(name);
    if (type === undefined) throw new Error(`unknown type ${name}`);
    return type;
  }

  /** Coerced argument values of a field (literal lists from single objects, variables substituted). */
  argumentsOf(plan: FieldPlan): Record<string, unknown> {
    if (plan.definition === undefined) return {};
    return getArgumentValues(plan.definition, plan.nodes[0] as FieldNode, this.variables) as Record<string, unknown>;
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
    this.errors.push(wireError(message, start ? [{ line: start.line, column: start.column }] : undefined, path));
  }
}
