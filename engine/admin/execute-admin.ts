// One /admin GraphQL request: prepared against the admin schema, run on plain graphql-js (not a hot path).

import { execute, type GraphQLSchema } from 'graphql';
import type { EngineResponse } from '../api.js';
import { serializeResponse } from '../exec/serialize-response.js';
import { toWireError, type Prepared } from '../request/prepare-request.js';

/** What resolvers tell the answer: `lsn`, the log record of a stored change (the last one when several), for `extensions.lsn`. */
export interface AdminContext {
  lsn?: number;
}

/** `prepared`: the request prepared against `schema` (with or without the ACL's operations). */
export async function executeAdmin(prepared: Prepared, schema: GraphQLSchema, rootValue: Record<string, unknown>): Promise<EngineResponse> {
  if (!prepared.ok) return { kind: prepared.kind, body: serializeResponse({ errors: prepared.errors }) };
  const { checked, operation } = prepared.prepared;
  const context: AdminContext = {};
  const result = await execute({
    schema,
    document: checked.document,
    operationName: operation.name?.value,
    rootValue,
    contextValue: context,
    variableValues: prepared.prepared.variables,
  });
  // Dgraph's admin resolver errors carry the field's location but no path (resolve.EmptyResult).
  const errors = result.errors?.map((error) => {
    const { path: _path, ...rest } = toWireError(error);
    return rest;
  });
  const extensions = context.lsn === undefined ? {} : { extensions: { lsn: context.lsn } };
  return { kind: 'ok', body: serializeResponse({ ...(errors === undefined ? {} : { errors }), data: result.data ?? null, ...extensions }) };
}
