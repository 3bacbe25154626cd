// Before a schema is uploaded (or after it is dropped) only introspection answers; every other root
// field gets Dgraph's "no schema" error, whatever its name (so no validation against a real schema).
// Draining mode refuses root fields the same way (answerRootFields).

import { buildSchema, executeSync, Kind, type FieldNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { messages } from '../errors/messages.js';
import { wireError, type WireError } from '../errors/wire-error.js';
import type { PreparedOperation } from './prepare-request.js';
import { toWireError } from './prepare-request.js';

export const noSchemaApi: GraphQLSchema = buildSchema('type Query { _service_has_no_schema: Boolean }');

const introspectionFields = new Set(['__schema', '__type', '__typename']);

export interface RefusedResult {
  readonly errors?: readonly WireError[];
  readonly data: Record<string, unknown>;
}

/** The error for the `index`-th refused root field of the operation. */
export type Refusal = (field: FieldNode, responseName: string, index: number) => WireError;

export function answerWithoutSchema(prepared: PreparedOperation): RefusedResult {
  return answerRootFields(prepared, noSchemaApi, (field) => wireError(messages.noSchema(field.name.value), locationOf(field)));
}

/** Answers the introspection fields of a query from `schema` and every other root field with `refuse`'s error and null. */
export function answerRootFields(prepared: PreparedOperation, schema: GraphQLSchema, refuse: Refusal): RefusedResult {
  const { operation } = prepared;
  const errors: WireError[] = [];
  const data: Record<string, unknown> = {};
  const introspection: FieldNode[] = [];
  let refused = 0;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    if (introspectionFields.has(selection.name.value) && operation.operation === 'query') {
      introspection.push(selection);
      continue;
    }
    const responseName = selection.alias?.value ?? selection.name.value;
    errors.push(refuse(selection, responseName, refused++));
    data[responseName] = null;
  }
  if (introspection.length > 0) {
    const introspectionOnly: OperationDefinitionNode = {
      ...operation,
      selectionSet: { kind: Kind.SELECTION_SET, selections: introspection },
    };
    const result = executeSync({
      schema,
      document: { kind: Kind.DOCUMENT, definitions: [introspectionOnly, ...Object.values(prepared.checked.fragments)] },
      variableValues: prepared.variables,
    });
    Object.assign(data, result.data ?? {});
    for (const error of result.errors ?? []) errors.push(toWireError(error));
  }
  return errors.length > 0 ? { errors, data } : { data };
}

export function locationOf(field: FieldNode): { line: number; column: number }[] | undefined {
  const start = field.loc?.startToken;
  return start ? [{ line: start.line, column: start.column }] : undefined;
}
