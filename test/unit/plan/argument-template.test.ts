// Argument templates must give exactly what graphql-js's getArgumentValues gives, or decline.

import { getArgumentValues, Kind, parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileArguments, hasVariables } from '../../../engine/plan/argument-template.js';
import { compileSchema } from '../../../engine/schema/compile-schema.js';

const compiled = compileSchema(`
  enum Kind { BOOK FILM }
  type Item { id: ID!  name: String! @search(by: [term, hash])  rank: Int @search  kind: Kind @search  tags: [String] @search(by: [exact]) }
`);
if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
const queryType = compiled.compiled.apiSchema.getQueryType();

function rootField(document: string): FieldNode {
  const operation = parse(document).definitions[0] as OperationDefinitionNode;
  const field = operation.selectionSet.selections[0];
  if (field?.kind !== Kind.FIELD) throw new Error('no field');
  return field;
}

function compare(document: string, variables: Record<string, unknown>): unknown {
  const node = rootField(document);
  const definition = queryType?.getFields()[node.name.value];
  if (definition === undefined) throw new Error('no definition');
  const template = compileArguments(definition, node.arguments ?? []);
  const expected = getArgumentValues(definition, node, variables);
  const actual = template?.(variables);
  if (actual !== undefined) expect(actual).toEqual(expected);
  return actual;
}

describe('argument templates', () => {
  it('fill variables into literal filters', () => {
    const doc = 'query($t: String!, $n: Int) { queryItem(filter: { name: { anyofterms: $t }, rank: { ge: $n } }, first: 5) { id } }';
    expect(compare(doc, { t: 'a b', n: 3 })).toEqual({ filter: { name: { anyofterms: 'a b' }, rank: { ge: 3 } }, first: 5 });
  });

  it('coerce single values in list positions, enums and nested lists', () => {
    const doc = 'query($k: Kind, $x: String!) { queryItem(filter: { kind: { in: BOOK }, tags: { in: [$x, "lit"] }, or: { kind: { eq: $k } } }) { id } }';
    expect(compare(doc, { k: 'FILM', x: 'x' })).toEqual({ filter: { kind: { in: ['BOOK'] }, tags: { in: ['x', 'lit'] }, or: [{ kind: { eq: 'FILM' } }] } });
  });

  it('pass explicit null through', () => {
    const doc = 'query($n: Int) { queryItem(filter: { rank: { eq: $n } }) { id } }';
    expect(compare(doc, { n: null })).toEqual({ filter: { rank: { eq: null } } });
  });

  it('decline when a variable is missing, leaving defaults and omission to graphql-js', () => {
    const doc = 'query($n: Int) { queryItem(filter: { rank: { eq: $n } }) { id } }';
    expect(compare(doc, {})).toBeUndefined();
  });
});

describe('hasVariables', () => {
  it('finds a variable at any depth of lists and objects, and none in literals', () => {
    const args = (document: string) => (rootField(document).arguments ?? []).map((a) => hasVariables(a.value));
    expect(args('query ($v: String) { q(a: $v, b: "x", c: [1, [2, { d: [$v] }]], e: { f: { g: null, h: $v } }, i: [{ j: X }], k: { l: [] }) { id } }')).toEqual([
      true,
      false,
      true,
      true,
      false,
      false,
    ]);
  });
});
