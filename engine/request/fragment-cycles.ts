// Fragment cycles found without recursion, for documents with many fragments: graphql-js's
// NoFragmentCyclesRule recurses once per spread and a cyclic document then goes through every other
// rule too (OverlappingFieldsCanBeMerged follows the cycle: seconds for 1,000 fragments, all clients
// blocked). Same walk and same errors as the rule — a depth-first search from each fragment in document
// order, reporting every spread back into the current path — plus the length of the longest spread
// path it walked, so over-long chains can be refused before anything recursive sees them.

import { GraphQLError, Kind, type DocumentNode, type FragmentDefinitionNode, type FragmentSpreadNode, type SelectionSetNode } from 'graphql';

export interface FragmentCycles {
  readonly errors: readonly GraphQLError[];
  /** Most spreads on one path of the search (a chain F0 → F1 → … → Fn is n). */
  readonly longestPath: number;
}

interface Frame {
  readonly name: string;
  readonly spreads: readonly FragmentSpreadNode[];
  index: number;
}

export function findFragmentCycles(document: DocumentNode, fragments: Readonly<Record<string, FragmentDefinitionNode>>): FragmentCycles {
  const errors: GraphQLError[] = [];
  const visited = new Set<string>();
  const pathIndex = new Map<string, number>();
  const path: FragmentSpreadNode[] = [];
  let longestPath = 0;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
    const stack: Frame[] = [];
    /** Pushes a frame for the fragment unless it was visited or spreads nothing; says whether it did. */
    const enter = (fragment: FragmentDefinitionNode): boolean => {
      const name = fragment.name.value;
      if (visited.has(name)) return false;
      visited.add(name);
      const spreads = spreadsOf(fragment.selectionSet);
      if (spreads.length === 0) return false;
      pathIndex.set(name, path.length);
      stack.push({ name, spreads, index: 0 });
      return true;
    };
    enter(definition);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as Frame;
      const spread = frame.spreads[frame.index++];
      if (spread === undefined) {
        pathIndex.delete(frame.name);
        stack.pop();
        if (stack.length > 0) path.pop(); // the spread that entered this fragment
        continue;
      }
      const target = spread.name.value;
      const cycleAt = pathIndex.get(target);
      path.push(spread);
      longestPath = Math.max(longestPath, path.length);
      if (cycleAt !== undefined) errors.push(cycleError(target, path.slice(cycleAt)));
      else {
        const fragment = fragments[target];
        if (fragment !== undefined && enter(fragment)) continue;
      }
      path.pop();
    }
  }
  return { errors, longestPath };
}

function cycleError(target: string, cyclePath: readonly FragmentSpreadNode[]): GraphQLError {
  const via = cyclePath
    .slice(0, -1)
    .map((s) => `"${s.name.value}"`)
    .join(', ');
  // gqlparser places the error at the name of the spread that closes the cycle only.
  const closing = cyclePath[cyclePath.length - 1];
  return new GraphQLError(`Cannot spread fragment "${target}" within itself${via !== '' ? ` via ${via}.` : '.'}`, { nodes: closing?.name ?? [] });
}

/** The spreads of a selection set, inline fragments and sub-selections included, in graphql-js's order. */
function spreadsOf(selectionSet: SelectionSetNode): FragmentSpreadNode[] {
  const spreads: FragmentSpreadNode[] = [];
  const sets: SelectionSetNode[] = [selectionSet];
  for (let set = sets.pop(); set !== undefined; set = sets.pop()) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) spreads.push(selection);
      else if (selection.selectionSet !== undefined) sets.push(selection.selectionSet);
    }
  }
  return spreads;
}
