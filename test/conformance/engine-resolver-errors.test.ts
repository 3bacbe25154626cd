// resolve/resolver_error_test.yaml: completion and error propagation. Each case gives the JSON Dgraph
// returned for its query; here that JSON is written into the store as the nodes and edges that
// produce it (uids in order of appearance, so lists keep their order), and the query runs through
// the executor. The schema is the one Dgraph's resolver_error_test.go declares inline (the cases use
// fields like `postsRequired` that resolve/schema.graphql does not have).
//
// Not reproducible from stored data, listed in unsupported.ts and run to check they still fail (the
// rules are pinned by test/unit/exec/completion.test.ts instead):
// - "Sensible error when expecting single but multiple items returned": a get by ID finds one node at
//   most; the unit test gives a single-valued edge two targets.
// - "Sensible error when un-processable Dgraph result": no JSON is parsed between the store and the
//   executor, so there is nothing that can be malformed.

import { describe, expect, it } from 'vitest';
import type { FieldModel, TypeModel } from '../../engine/schema/model.js';
import { loadCases, parseLoose, type YamlCase } from './helpers/engine-harness.js';
import { openDirect, type DirectEngine } from './helpers/direct-engine.js';
import { unsupportedResolverErrors } from './unsupported.js';

export const resolverErrorSchema = `
type Author {
  id: ID!
  name: String!
  dob: DateTime
  postsRequired: [Post!]!
  postsElmntRequired: [Post!]
  postsNullable: [Post]
  postsNullableListRequired: [Post]!
}

type Post {
  id: ID!
  title: String!
  text: String
  author: Author!
}
`;

type DgraphObject = Record<string, unknown> & { uid: string };

/** Writes Dgraph's response objects for a root field of `type` into the store. */
function store(engine: DirectEngine, type: TypeModel, objects: readonly DgraphObject[], ids: Map<string, number>): void {
  const s = engine.graph.store;
  for (const object of objects) {
    let id = ids.get(object.uid);
    if (id === undefined) {
      id = s.createNode();
      ids.set(object.uid, id);
      s.addType(id, type.name);
    }
    for (const [key, value] of Object.entries(object)) {
      const field = type.fields.get(key);
      if (field === undefined || field.kind === 'id') continue;
      if (field.kind === 'object') {
        const children = (Array.isArray(value) ? value : [value]) as DgraphObject[];
        store(engine, engine.model.types.get(field.typeName) as TypeModel, children, ids);
        for (const child of children) s.edges(field.predicate).add(id, ids.get(child.uid) as number);
      } else s.scalar((field as FieldModel).predicate).set(id, value as string);
    }
  }
}

async function runCase(c: YamlCase): Promise<void> {
  const engine = openDirect(resolverErrorSchema);
  const response = JSON.parse(c['response'] as string) as Record<string, DgraphObject[]>;
  const ids = new Map<string, number>();
  for (const [root, objects] of Object.entries(response)) {
    const type = engine.model.types.get(engine.model.queries.get(root)?.type ?? '') as TypeModel;
    store(engine, type, objects, ids);
  }
  const result = await engine.gql(c['gqlquery'] as string);
  expect(result.data).toEqual(parseLoose(c['expected']));
  const expected = ((parseLoose(c['errors']) ?? []) as { message: string; path?: unknown[]; locations?: unknown }[]).map((e) => ({
    message: String(e.message).replace(/\s+/g, ' ').trim(),
    path: e.path?.map((p) => (typeof p === 'number' ? p : String(p))),
    locations: e.locations,
  }));
  const actual = (result.errors ?? []).map((e: { message: string; path?: unknown[]; locations?: unknown }) => ({
    message: e.message.replace(/\s+/g, ' ').trim(),
    path: e.path,
    locations: e.locations,
  }));
  expect(actual).toEqual(expected);
}

describe('resolver_error_test.yaml', () => {
  const cases = loadCases('resolve/resolver_error_test.yaml');
  for (const c of cases) {
    const reason = unsupportedResolverErrors[c.name];
    if (reason === undefined) {
      it(c.name, () => runCase(c));
      continue;
    }
    // A listed case must still fail; one that passes is to be taken off the list.
    it(`${c.name} [unsupported: ${reason}]`, async () => {
      const passed = await runCase(c).then(
        () => true,
        () => false,
      );
      expect(passed, `listed as unsupported (${reason}) but passes: remove it from unsupported.ts`).toBe(false);
    });
  }
  it('lists no case the corpus lacks', () => {
    expect(Object.keys(unsupportedResolverErrors).filter((n) => !cases.some((c) => c.name === n))).toEqual([]);
  });
});
