// resolve/{add,update,delete}_mutation_test.yaml through the engine facade, against
// resolve/schema.graphql: each case's `gqlmutation` runs on a fresh, empty engine. Cases with an
// `error` (or `error2`, the error of Dgraph's second step) must fail with that message (wrapped as `couldn't rewrite mutation <name> because ...`)
// and change nothing; the others must run without errors, except references to nodes the empty
// store cannot hold (`ID "0x123" isn't a ...`), which are counted separately.

import { describe, expect, it } from 'vitest';
import { loadCases, openHarness, parseLoose, type Harness } from './helpers/engine-harness.js';

const dataDependent = /isn't a |multiple nodes found|already exists/;
const counts: Record<string, Record<string, number>> = {};
/**
 * Data a case assumes to exist (its `qnametouid` shows Dgraph's existence query finding the node),
 * added before the case runs. Without it the case takes the other branch, which its `error2` pins.
 */
const preconditions: Record<string, string> = {
  'add:Add mutation with deep xid that must be reference 1': 'mutation { addState(input: [{ code: "dg", name: "Dgraph State" }]) { numUids } }',
};

async function nodeCount(h: Harness): Promise<number> {
  const types = [...h.model.types.values()].filter((t) => t.kind === 'object' && !t.remote && h.model.queries.has(`aggregate${t.name}`));
  const query = `{ ${types.map((t) => `${t.name}: aggregate${t.name} { count }`).join(' ')} }`;
  const result = await h.gql(query);
  return Object.values(result.data as Record<string, { count: number }>).reduce((a, b) => a + b.count, 0);
}

for (const file of ['add', 'update', 'delete']) {
  describe(`${file}_mutation_test.yaml`, () => {
    const tally = (counts[file] = { clean: 0, errorMatched: 0, dataDependent: 0, total: 0 });
    for (const c of loadCases(`resolve/${file}_mutation_test.yaml`)) {
      it(c.name, async () => {
        const h = await openHarness('resolve/schema.graphql');
        const setup = preconditions[`${file}:${c.name}`];
        if (setup !== undefined) expect((await h.gql(setup)).errors).toBeUndefined();
        const variables = c['gqlvariables'] === undefined ? undefined : parseLoose(c['gqlvariables']);
        const before = c['error'] === undefined ? 0 : await nodeCount(h);
        const result = await h.gql(c['gqlmutation'] as string, variables);
        tally.total++;
        expect(result.kind).toBe('ok');
        // `error2` is the error of Dgraph's second step; it holds here when the existence queries found nothing.
        const found = typeof c['qnametouid'] === 'string' && c['qnametouid'].trim() !== '' && Object.keys(JSON.parse(c['qnametouid']) as object).length > 0;
        const expected = ((c['error'] ?? (found ? undefined : c['error2'])) as { message: string } | undefined)?.message;
        if (expected !== undefined) {
          const first = expected.split('\n')[0] as string;
          expect(result.errors?.[0]?.message).toMatch(/^couldn't rewrite mutation \w+ because /);
          expect(result.errors?.[0]?.message).toContain(first);
          expect(await nodeCount(h)).toBe(before);
          tally.errorMatched++;
        } else if (result.errors !== undefined) {
          // A case whose existence queries found nodes ran against data the empty store lacks: any error is the data's.
          if (!found) expect(result.errors.map((e: { message: string }) => e.message).join('\n')).toMatch(dataDependent);
          tally.dataDependent++;
        } else tally.clean++;
      });
    }
  });
}

describe('counts', () => {
  it('reports mutation conformance counts', () => {
    console.log('engine-mutation conformance:', JSON.stringify(counts));
  });
});
