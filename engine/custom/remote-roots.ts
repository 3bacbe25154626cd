// Operations whose root fields are all resolved remotely (`@custom(http:)`, `@lambda`) or by
// introspection: they never touch the store. Dgraph's httpResolver never calls edgraph, so such an
// operation needs no ACL token (acl/acl-gate.ts), and a mutation of them writes nothing here, so it
// need not go through the commit queue (engine/index.ts). Mixed with stored root fields, the remote ones
// run between the stored ones' commits (exec/executor.ts CommitTurn); under a bad token the remote ones
// still answer and the stored ones fail (acl/acl-gate.ts).

import { Kind, type OperationDefinitionNode } from 'graphql';
import { isRemoteField, type SchemaModel } from '../schema/model.js';

export function onlyRemoteRoots(operation: OperationDefinitionNode, model: SchemaModel | undefined): boolean {
  return rootKinds(operation, model) === 'remote';
}

/** Whether the root fields are all remote, all reach the store, or some of each (Dgraph resolves the remote ones without a token). */
export function rootKinds(operation: OperationDefinitionNode, model: SchemaModel | undefined): 'remote' | 'stored' | 'mixed' {
  if (model === undefined || (operation.operation !== 'mutation' && operation.operation !== 'query')) return 'stored';
  const roots = operation.operation === 'mutation' ? model.mutations : model.queries;
  let remote = false;
  let stored = false;
  for (const selection of operation.selectionSet.selections) {
    // A fragment at the root: treated as reaching the store.
    if (selection.kind !== Kind.FIELD) stored = true;
    else if (!selection.name.value.startsWith('__')) {
      if (isRemoteField(roots.get(selection.name.value)?.custom)) remote = true;
      else stored = true;
    }
  }
  return stored ? (remote ? 'mixed' : 'stored') : 'remote';
}
