// findFragmentCycles against the request rule (graphql-js's NoFragmentCyclesRule placed as gqlparser
// places it): on random spread graphs (spreads directly, inside fields and inside inline fragments,
// unknown fragments, self spreads) it reports the same errors, messages, locations and order; and it takes a 1,000-fragment chain or cycle without recursion.
import fc from 'fast-check';
import { buildSchema, Kind, parse, validate, type DocumentNode, type FragmentDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { findFragmentCycles } from '../../../engine/request/fragment-cycles.js';
import { noFragmentCyclesAt } from '../../../engine/gqlparser/gqlparser-rules.js';

const schema = buildSchema('type Query { a: Q }  type Q { a: Q  b: String }');

function fragmentsOf(document: DocumentNode): Record<string, FragmentDefinitionNode> {
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  return fragments;
}

function bothWays(text: string): { ours: unknown; theirs: unknown } {
  const document = parse(text);
  const ours = findFragmentCycles(document, fragmentsOf(document)).errors.map((e) => ({ message: e.message, locations: e.locations }));
  const theirs = validate(schema, document, [noFragmentCyclesAt]).map((e) => ({ message: e.message, locations: e.locations }));
  return { ours, theirs };
}

/** A spread of fragment `n`, wrapped at random in a field or an inline fragment. */
const spread = fc.tuple(fc.integer({ min: 0, max: 7 }), fc.constantFrom('', 'field', 'inline')).map(([n, wrap]) =>
  wrap === 'field' ? `a { ...F${n} }` : wrap === 'inline' ? `... on Q { ...F${n} }` : `...F${n}`,
);
const documentText = fc.array(fc.array(spread, { maxLength: 4 }), { minLength: 1, maxLength: 7 }).map((bodies) => {
  let text = '{ a { ...F0 } }\n';
  bodies.forEach((body, i) => (text += `fragment F${i} on Q { b ${body.join(' ')} }\n`));
  return text;
});

describe('findFragmentCycles', () => {
  it('reports what the request rule reports, in the same order, on random spread graphs', () => {
    fc.assert(
      fc.property(documentText, (text) => {
        const { ours, theirs } = bothWays(text);
        expect(ours).toEqual(theirs);
      }),
      { numRuns: 500, seed: 19 },
    );
  });

  it('names the path of a two-fragment cycle as Dgraph does', () => {
    const { ours } = bothWays('{ a { ...A } } fragment A on Q { ...B } fragment B on Q { ...A }');
    expect(ours).toEqual([
      {
        message: 'Cannot spread fragment "A" within itself via "B".',
        locations: [{ line: 1, column: 62 }],
      },
    ]);
  });

  it('a self spread has no "via"', () => {
    expect(bothWays('{ a { ...A } } fragment A on Q { b ...A }').ours).toEqual([
      { message: 'Cannot spread fragment "A" within itself.', locations: [{ line: 1, column: 39 }] },
    ]);
  });

  it('walks a 5,000-fragment chain without recursion and measures it', () => {
    let text = '{ a { ...F0 } }\n';
    for (let i = 0; i < 5000; i++) text += `fragment F${i} on Q { ...F${i + 1} }\n`;
    text += 'fragment F5000 on Q { b }\n';
    const document = parse(text);
    const found = findFragmentCycles(document, fragmentsOf(document));
    expect(found).toEqual({ errors: [], longestPath: 5000 });
  });

  it('finds the one cycle of a 1,000-fragment ring', () => {
    let text = '{ a { ...F0 } }\n';
    for (let i = 0; i < 1000; i++) text += `fragment F${i} on Q { b ...F${(i + 1) % 1000} }\n`;
    const { ours, theirs } = bothWays(text);
    expect(ours).toEqual(theirs);
    expect(ours).toHaveLength(1);
  });
});
