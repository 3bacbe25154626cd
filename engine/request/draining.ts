// Draining mode (/admin `draining(enable: true)`): Dgraph's x.HealthCheck refuses every query and
// mutation that reaches the store, and the GraphQL resolvers wrap its error. Introspection still answers.

import type { GraphQLSchema } from 'graphql';
import { messages } from '../errors/messages.js';
import { wireError } from '../errors/wire-error.js';
import { answerRootFields, locationOf, type RefusedResult } from './no-schema.js';
import type { PreparedOperation } from './prepare-request.js';

export function answerWhileDraining(prepared: PreparedOperation, schema: GraphQLSchema): RefusedResult {
  if (prepared.operation.operation !== 'mutation') {
    return answerRootFields(prepared, schema, (_field, name) => wireError(messages.drainingQuery, undefined, [name]));
  }
  // Mutations run one after another and stop at the first failure (resolve/resolver.go).
  return answerRootFields(prepared, schema, (field, name, index) =>
    wireError(index === 0 ? messages.drainingMutation(field.name.value) : messages.mutationNotExecuted(name), locationOf(field), [name]),
  );
}
