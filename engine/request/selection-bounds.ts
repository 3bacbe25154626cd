// Bounds on the resolved selections of a document, checked once per cached document before it is
// validated (graphql-js's validation of a 2^n expansion costs time too): depth counted in field levels
// with fragments expanded (inline fragments add none), and the work of collecting the selections
// (selections visited, fragments expanded once per selection set as the plan does), shared by all
// operations of the document. An explicit stack, so neither a long fragment chain nor a deep selection
// can exhaust the call stack.

import type { FragmentDefinitionNode, OperationDefinitionNode, SelectionSetNode } from 'graphql';
import { messages } from '../errors/messages.js';
import { wireError, type WireError } from '../errors/wire-error.js';
import { collectFields } from '../plan/collect-fields.js';

export interface SelectionLimits {
  readonly maxQueryDepth: number;
  readonly maxQuerySelections: number;
}

/** The first bound the document's operations exceed, as the error to answer, or undefined. */
export function selectionBoundsError(
  operations: readonly OperationDefinitionNode[],
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  limits: SelectionLimits,
): WireError | undefined {
  const tooMany = wireError(messages.tooManySelections(limits.maxQuerySelections));
  // Type conditions are ignored: every fragment counts, an upper bound for any concrete type.
  const always = (): boolean => true;
  const pending = operations.map((operation): { readonly sets: readonly SelectionSetNode[]; readonly depth: number } => ({ sets: [operation.selectionSet], depth: 1 }));
  let visited = 0;
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const collected = collectFields(item.sets, fragments, always, limits.maxQuerySelections - visited);
    if (collected === undefined) return tooMany;
    visited += collected.visited;
    if (collected.groups.size > 0 && item.depth > limits.maxQueryDepth) return wireError(messages.queryTooDeep(limits.maxQueryDepth));
    for (const group of collected.groups.values()) {
      const sets: SelectionSetNode[] = [];
      for (const node of group.nodes) if (node.selectionSet !== undefined) sets.push(node.selectionSet);
      if (sets.length > 0) pending.push({ sets, depth: item.depth + 1 });
    }
  }
  return undefined;
}
