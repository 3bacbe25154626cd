// collectFields: grouping by response key in document order, @skip/@include inherited from enclosing
// fragments, a named fragment entered once per set of conditions (repeats of a condition add nothing),
// type conditions, and the budget (exactly at the cap passes, one over fails).
import { Kind, parse, print, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { collectFields } from '../../../engine/plan/collect-fields.js';

function collect(text: string, applies: (type: string) => boolean = () => true, budget = Infinity): { keys: Record<string, string[][]>; visited: number } | undefined {
  const document = parse(text);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  let operation: OperationDefinitionNode | undefined;
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
    else if (d.kind === Kind.OPERATION_DEFINITION) operation = d;
  }
  const collected = collectFields([(operation as OperationDefinitionNode).selectionSet], fragments, applies, budget);
  if (collected === undefined) return undefined;
  const keys: Record<string, string[][]> = {};
  for (const [key, group] of collected.groups) keys[key] = group.conditions.map((c) => c.map((d) => print(d)));
  return { keys, visited: collected.visited };
}

describe('collectFields', () => {
  it('groups by alias in document order, one entry per occurrence', () => {
    expect(collect('{ b: name a: name name b: id }')).toEqual({ keys: { b: [[], []], a: [[]], name: [[]] }, visited: 4 });
  });

  it('inherits @skip/@include of spreads and inline fragments, and ignores other directives', () => {
    const found = collect('{ ...F @include(if: $x) ... @skip(if: true) { a @deprecated } } fragment F on T { a @skip(if: $y) }');
    expect(found?.keys).toEqual({ a: [['@include(if: $x)', '@skip(if: $y)'], ['@skip(if: true)']] });
  });

  it('enters a fragment once per set of conditions, so the same fragment under two conditions counts twice', () => {
    const found = collect('{ ...F ...F ...F @include(if: $x) ...F @include(if: $x) } fragment F on T { a }');
    expect(found?.keys).toEqual({ a: [[], ['@include(if: $x)']] });
  });

  it('a condition repeated by a self spread adds nothing, so the fragment is not entered again', () => {
    const found = collect('{ ...G } fragment G on T { a ...G @include(if: $b) }');
    expect(found).toEqual({ keys: { a: [[], ['@include(if: $b)']] }, visited: 5 });
  });

  it('keeps the sub-selections of the same field reached through several fragments', () => {
    const document = '{ ...A ...B } fragment A on T { r { x } } fragment B on T { r { y } }';
    const found = collect(document);
    expect(found?.keys).toEqual({ r: [[], []] });
  });

  it('follows type conditions of fragments and inline fragments (interfaces and unions alike)', () => {
    const text = '{ ... on Human { h } ... on Droid { d } ...C } fragment C on Character { c }';
    expect(collect(text, (t) => t === 'Human' || t === 'Character')?.keys).toEqual({ h: [[]], c: [[]] });
  });

  it('passes with the budget exactly at the work, fails one below it', () => {
    const text = '{ a ...F } fragment F on T { b c }';
    expect(collect(text)?.visited).toBe(4);
    expect(collect(text, () => true, 4)?.visited).toBe(4);
    expect(collect(text, () => true, 3)).toBeUndefined();
  });
});
