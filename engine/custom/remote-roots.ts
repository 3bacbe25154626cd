// Operations whose root fields are all resolved remotely (`@custom(http:)`, `@lambda`) or by
// introspection: they never touch the store. Dgraph's httpResolver never calls edgraph, so such an
// operation needs no ACL token (acl/acl-gate.ts), and a mutation of them writes nothing here, so it
// need not wait in the commit queue (engine/index.ts): a lambda's own mutations back into the service
// would otherwise queue behind the mutation waiting for that lambda.

import { Kind, type OperationDefinitionNode } from 'graphql';
import type { SchemaModel } from '../schema/model.js';

export function onlyRemoteRoots(operation: OperationDefinitionNode, model: SchemaModel | undefined): boolean {
  if (model === undefined) return false;
  const roots = operation.operation === 'mutation' ? model.mutations : operation.operation === 'query' ? model.queries : undefined;
  if (roots === undefined) return false;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) return false;
    const name = selection.name.value;
    if (name.startsWith('__')) continue;
    const custom = roots.get(name)?.custom;
    if (custom === undefined || custom.dql !== undefined) return false;
  }
  return true;
}
