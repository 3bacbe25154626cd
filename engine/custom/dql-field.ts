// `@custom(dql: "...")` root query fields (REFERENCE §8.4): the arguments become DQL variables `$<arg>`
// (as strings), the DQL runs over the store, and the block named like the field is the field's value.

import { DqlError, parseDql, type DqlQuery } from '../dql/parse-dql.js';
import { evaluateDql, type PredicateInfo } from '../dql/evaluate-dql.js';
import type { ExecContext } from '../exec/exec-context.js';
import type { FieldPlan } from '../plan/selection-plan.js';
import type { SchemaModel } from '../schema/model.js';
import { pruneDql } from '../acl/acl-dql.js';

export type DqlOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

const parsedQueries = new Map<string, DqlQuery | DqlError>();

function parsed(text: string): DqlQuery {
  let query = parsedQueries.get(text);
  if (query === undefined) {
    try {
      query = parseDql(text);
    } catch (error) {
      if (!(error instanceof DqlError)) throw error;
      query = error;
    }
    if (parsedQueries.size > 256) parsedQueries.clear();
    parsedQueries.set(text, query);
  }
  if (query instanceof DqlError) throw query;
  return query;
}

/** Storage predicates of a schema version, as the DQL evaluator needs them. */
export function predicateInfo(model: SchemaModel): Map<string, PredicateInfo> {
  const out = new Map<string, PredicateInfo>();
  for (const type of model.types.values()) {
    if (type.remote) continue;
    for (const field of type.fields.values()) {
      if (field.custom !== undefined || field.kind === 'id' || field.reverseOf !== undefined) continue;
      const edge = field.kind === 'object' || field.kind === 'interface' || field.kind === 'union';
      out.set(field.predicate, { edge, isList: field.isList, typeName: field.typeName, trigram: field.search.includes('trigram') });
    }
  }
  return out;
}

/** Go's convertScalarToString: strings as they are, numbers and booleans printed, null empty. */
function argumentText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '';
  throw new Error(`unexpected value type: ${Array.isArray(value) ? '[]interface {}' : 'map[string]interface {}'}`);
}

export function runDqlField(ctx: ExecContext, plan: FieldPlan, dql: string, predicates: ReadonlyMap<string, PredicateInfo>): DqlOutcome {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.argumentsOf(plan))) {
    try {
      variables[`$${name}`] = argumentText(value);
    } catch (error) {
      return { ok: false, error: `couldn't convert argument ${name} to string because ${(error as Error).message}` };
    }
  }
  let result: Record<string, unknown>;
  // Under ACL, Dgraph runs it through the same pruning as any query of the request.
  const pruned = ctx.acl === undefined ? undefined : pruneDql(parsed(dql), ctx.acl);
  try {
    result = evaluateDql(pruned?.query ?? parsed(dql), { store: ctx.graph.store, predicates, variables, ...(pruned === undefined ? {} : { removedVars: pruned.removedVars }) });
  } catch (error) {
    if (!(error instanceof DqlError)) throw error;
    return { ok: false, error: `Dgraph query failed because ${error.message}` };
  }
  // A removed block is missing from Dgraph's answer: its completion writes [] (a list) or null.
  return { ok: true, value: result[plan.fieldName] ?? (pruned?.removedBlocks.has(plan.fieldName) === true ? [] : null) };
}
