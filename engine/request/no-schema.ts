// Before a schema is uploaded (or after it is dropped) only introspection answers; every other root
// field gets Dgraph's "no schema" error, whatever its name (so no validation against a real schema).

import { buildSchema, executeSync, Kind, type FieldNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { messages } from '../errors/messages.js';
import { wireError, type WireError } from '../errors/wire-error.js';
import type { PreparedOperation } from './prepare-request.js';
import { toWireError } from './prepare-request.js';

export const noSchemaApi: GraphQLSchema = buildSchema('type Query { _service_has_no_schema: Boolean }');

const introspectionFields = new Set(['__schema', '__type', '__typename']);

export interface NoSchemaResult {
  readonly errors?: readonly WireError[];
  readonly data: Record<string, unknown>;
}

export function answerWithoutSchema(prepared: PreparedOperation): NoSchemaResult {
  const { operation } = prepared;
  const errors: WireError[] = [];
  const data: Record<string, unknown> = {};
  const introspection: FieldNode[] = [];
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    if (introspectionFields.has(selection.name.value) && operation.operation === 'query') {
      introspection.push(selection);
      continue;
    }
    const start = selection.loc?.startToken;
    errors.push(wireError(messages.noSchema(selection.name.value), start ? [{ line: start.line, column: start.column }] : undefined));
    data[selection.alias?.value ?? selection.name.value] = null;
  }
  if (introspection.length > 0) {
    const introspectionOnly: OperationDefinitionNode = {
      ...operation,
      selectionSet: { kind: Kind.SELECTION_SET, selections: introspection },
    };
    const result = executeSync({
      schema: noSchemaApi,
      document: { kind: Kind.DOCUMENT, definitions: [introspectionOnly, ...Object.values(prepared.checked.fragments)] },
      variableValues: prepared.variables,
    });
    Object.assign(data, result.data ?? {});
    for (const error of result.errors ?? []) errors.push(toWireError(error));
  }
  return errors.length > 0 ? { errors, data } : { data };
}
