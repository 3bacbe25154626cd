// The cost estimate: nodes read level by level, root page × edge fan-out (capped by `first`), summed;
// filters counted only when refining. Fake statistics, so each figure is worked out by hand.

import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { coerceArguments } from '../../../engine/exec/exec-context.js';
import type { CostEstimates } from '../../../engine/plan/estimates.js';
import { estimateQueryCost } from '../../../engine/plan/query-cost.js';
import { SelectionPlan } from '../../../engine/plan/selection-plan.js';
import { compileSchema } from '../../../engine/schema/compile-schema.js';

const compiled = compileSchema(`
  interface Named { name: String! @search(by: [hash]) }
  type Person implements Named { id: ID!  friends: [Person]  best: Person  posts: [Post] @hasInverse(field: author) }
  type Post { id: ID!  title: String  author: Person }
  union Thing = Person | Post
  type Box { id: ID!  things: [Thing] }
`);
if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
const { apiSchema, model } = compiled.compiled;

/** 1,000 people with 50 friends each, 10 posts each; 5,000 posts; the name hash index has 1,000 keys. */
const estimates: CostEstimates = {
  typeCount: (type) => ({ Person: 1_000, Post: 5_000, Box: 10 })[type] ?? 0,
  indexSize: (predicate) => (predicate === 'Named.name' ? { entries: 1_000, keys: 1_000 } : undefined),
  fanOut: (predicate) => ({ 'Person.friends': 50, 'Person.best': 1, 'Person.posts': 10, 'Post.author': 1, 'Box.things': 200 })[predicate] ?? 0,
};

function cost(document: string, variables: Record<string, unknown> = {}, refine = false): { total: number; costliest: string | undefined } {
  const operation = parse(document).definitions[0] as OperationDefinitionNode;
  if (operation.kind !== Kind.OPERATION_DEFINITION) throw new Error('no operation');
  const plan = new SelectionPlan(apiSchema, [operation.selectionSet], {});
  const inputs = { model, estimates, argumentsOf: (p: Parameters<typeof coerceArguments>[0]) => coerceArguments(p, variables), pageSize: (p: Parameters<typeof coerceArguments>[0], argument: 'first' | 'topK') => coerceArguments(p, variables)[argument] };
  const result = estimateQueryCost(inputs, plan.forType('Query'), refine);
  return { total: result.total, costliest: result.costliest?.responseName };
}

describe('query cost estimate', () => {
  it('counts a get as one node and its edges by fan-out', () => {
    expect(cost('{ getPerson(id: "0x1") { name friends { name } best { name } } }').total).toBe(1 + 50 + 1);
  });

  it('multiplies fan-outs level by level and sums the levels', () => {
    // 1,000 + 1,000×50 + 1,000×50×50 + 1,000×50×50×10
    expect(cost('{ queryPerson { friends { friends { posts { title } } } } }').total).toBe(1_000 + 50_000 + 2_500_000 + 25_000_000);
  });

  it('caps each level by its page size, from literals or variables', () => {
    expect(cost('{ queryPerson(first: 10) { friends(first: 5) { name } } }').total).toBe(10 + 50);
    expect(cost('query ($n: Int, $m: Int) { queryPerson(first: $n) { friends(first: $m) { name } } }', { n: 2, m: 3 }).total).toBe(2 + 6);
    // A page larger than the fan-out reads the fan-out.
    expect(cost('{ queryPerson(first: 10) { friends(first: 500) { name } } }').total).toBe(10 + 500);
  });

  it('reads every target of an aggregate, and every node of a root aggregate', () => {
    expect(cost('{ queryPerson(first: 10) { friendsAggregate { count } } }').total).toBe(10 + 500);
    expect(cost('{ aggregatePost { count } }').total).toBe(5_000);
  });

  it('takes the costliest member of a union', () => {
    // Box.things: 200 per box; a Person member reads 50 friends each, a Post member its author.
    expect(cost('{ queryBox { things { ... on Person { friends { name } } ... on Post { author { name } } } } }').total).toBe(10 + 2_000 + 2_000 * 50);
  });

  it('sums root fields and names the costliest', () => {
    expect(cost('{ a: getPerson(id: "0x1") { name } b: queryPost { title } }')).toEqual({ total: 1 + 5_000, costliest: 'b' });
  });

  it('counts filters only when refining (hash eq: entries / keys)', () => {
    const doc = '{ queryPerson(filter: { name: { eq: "x" } }) { friends { name } } }';
    expect(cost(doc).total).toBe(1_000 + 50_000);
    expect(cost(doc, {}, true).total).toBe(1 + 50);
  });

  it('costs nothing for introspection and __typename', () => {
    expect(cost('{ __typename __schema { types { name } } }').total).toBe(0);
  });
});
