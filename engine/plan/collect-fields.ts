// CollectFields (GraphQL spec §6.3.2) over the merged selection sets of one response key: fields grouped
// by response name in document order, each named fragment entered once per set of inherited
// `@skip`/`@include` conditions — not once per path, which expands 2^n times for fragments that spread
// the next one twice. Iterative, so long chains of fragments cannot exhaust the stack.

import { Kind, print, type DirectiveNode, type FieldNode, type FragmentDefinitionNode, type SelectionNode, type SelectionSetNode } from 'graphql';

export interface FieldGroup {
  readonly nodes: FieldNode[];
  /** The type condition of the fragment the first occurrence was written in (undefined: none, the selection's own type). */
  readonly on: string | undefined;
  /** `@skip`/`@include` directives per occurrence (inherited from enclosing fragments included). */
  readonly conditions: (readonly DirectiveNode[])[];
}

export interface CollectedFields {
  readonly groups: Map<string, FieldGroup>;
  /** Selections visited (fields, spreads, inline fragments), fragments expanded: the work done. */
  readonly visited: number;
}

interface Frame {
  readonly selections: readonly SelectionNode[];
  index: number;
  readonly inherited: readonly DirectiveNode[];
  readonly on: string | undefined;
}

/**
 * `applies(typeCondition)` says whether a fragment's type condition holds; collection stops early
 * (returning undefined) once more than `budget` selections were visited.
 */
export function collectFields(
  sets: readonly SelectionSetNode[],
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  applies: (typeCondition: string) => boolean,
  budget = Infinity,
): CollectedFields | undefined {
  const groups = new Map<string, FieldGroup>();
  const entered = new Set<string>();
  let visited = 0;
  const stack: Frame[] = [];
  for (let s = sets.length - 1; s >= 0; s--) stack.push({ selections: (sets[s] as SelectionSetNode).selections, index: 0, inherited: [], on: undefined });
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const selection = frame.selections[frame.index++];
    if (selection === undefined) {
      stack.pop();
      continue;
    }
    if (++visited > budget) return undefined;
    const directives = withConditions(frame.inherited, selection.directives);
    if (selection.kind === Kind.FIELD) {
      const name = selection.alias?.value ?? selection.name.value;
      let group = groups.get(name);
      if (group === undefined) {
        group = { nodes: [], conditions: [], on: frame.on };
        groups.set(name, group);
      }
      group.nodes.push(selection);
      group.conditions.push(directives);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition?.name.value;
      if (condition === undefined || applies(condition)) stack.push({ selections: selection.selectionSet.selections, index: 0, inherited: directives, on: condition ?? frame.on });
    } else {
      const fragment = fragments[selection.name.value];
      if (fragment === undefined || !applies(fragment.typeCondition.name.value)) continue;
      const key = directives.length === 0 ? selection.name.value : `${selection.name.value}\u0000${directives.map(printed).join(' ')}`;
      if (entered.has(key)) continue;
      entered.add(key);
      stack.push({ selections: fragment.selectionSet.selections, index: 0, inherited: directives, on: fragment.typeCondition.name.value });
    }
  }
  return { groups, visited };
}

/**
 * `inherited` plus the selection's own `@skip`/`@include`, less those already inherited: a fragment
 * spreading itself under a condition would otherwise grow its list on every entry, so it looked new
 * each time (entered until the budget ran out, printing ever longer lists: 41 s for 200 characters).
 */
function withConditions(inherited: readonly DirectiveNode[], own: readonly DirectiveNode[] | undefined): readonly DirectiveNode[] {
  if (own === undefined || own.length === 0) return inherited;
  let result = inherited;
  for (const directive of own) {
    if (directive.name.value !== 'skip' && directive.name.value !== 'include') continue;
    const text = printed(directive);
    if (result.some((d) => printed(d) === text)) continue;
    result = [...result, directive];
  }
  return result;
}

const printedDirectives = new WeakMap<DirectiveNode, string>();

function printed(directive: DirectiveNode): string {
  let text = printedDirectives.get(directive);
  if (text === undefined) {
    text = print(directive);
    printedDirectives.set(directive, text);
  }
  return text;
}
