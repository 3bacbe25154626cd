// Draining mode (/admin `draining(enable: true)`): Dgraph's x.HealthCheck refuses every query and
// mutation that reaches the store, and the GraphQL resolvers wrap its error. Introspection still answers.
// `refuseExecution` is the shape of every such refusal (the ACL's too, acl/acl-gate.ts).

import type { GraphQLSchema } from 'graphql';
import { messages } from '../errors/messages.js';
import { wireError } from '../errors/wire-error.js';
import { answerRootFields, locationOf, type RefusedResult } from './no-schema.js';
import type { PreparedOperation } from './prepare-request.js';

export function answerWhileDraining(prepared: PreparedOperation, schema: GraphQLSchema): RefusedResult {
  return refuseExecution(prepared, schema, messages.drainingQuery, messages.drainingMutation);
}

/**
 * Queries: every field fails with `queryMessage` (path, no location). Mutations run one after another
 * and stop at the first failure (resolve/resolver.go): the first field fails with
 * `mutationMessage(its name)`, the others are not executed.
 */
export function refuseExecution(prepared: PreparedOperation, schema: GraphQLSchema, queryMessage: string, mutationMessage: (field: string) => string): RefusedResult {
  if (prepared.operation.operation !== 'mutation') {
    return answerRootFields(prepared, schema, (_field, name) => wireError(queryMessage, undefined, [name]));
  }
  return answerRootFields(prepared, schema, (field, name, index) =>
    wireError(index === 0 ? mutationMessage(field.name.value) : messages.mutationNotExecuted(name), locationOf(field), [name]),
  );
}
