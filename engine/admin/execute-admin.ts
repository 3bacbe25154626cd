// One /admin GraphQL request: prepared against the admin schema, run on plain graphql-js (not a hot path).

import { execute, type GraphQLSchema, type OperationTypeNode } from 'graphql';
import type { EngineResponse, GraphQLRequest } from '../api.js';
import { serializeResponse } from '../exec/serialize-response.js';
import { toWireError, type RequestPreparer } from '../request/prepare-request.js';

/**
 * `schema`: the one `preparer` checks against (with or without the ACL's operations). `noteOperation`
 * hears the operation type synchronously, before the first await (for /metrics).
 */
export async function executeAdmin(
  preparer: RequestPreparer,
  schema: GraphQLSchema,
  request: GraphQLRequest,
  rootValue: Record<string, unknown>,
  noteOperation: (type: OperationTypeNode) => void,
): Promise<EngineResponse> {
  const prepared = preparer.prepare(request);
  if (!prepared.ok) return { kind: prepared.kind, body: serializeResponse({ errors: prepared.errors }) };
  const { checked, operation } = prepared.prepared;
  noteOperation(operation.operation);
  const result = await execute({
    schema,
    document: checked.document,
    operationName: operation.name?.value,
    rootValue,
    variableValues: prepared.prepared.variables,
  });
  // Dgraph's admin resolver errors carry the field's location but no path (resolve.EmptyResult).
  const errors = result.errors?.map((error) => {
    const { path: _path, ...rest } = toWireError(error);
    return rest;
  });
  return { kind: 'ok', body: serializeResponse({ ...(errors === undefined ? {} : { errors }), data: result.data ?? null }) };
}
