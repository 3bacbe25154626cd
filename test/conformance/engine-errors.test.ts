// e2e/common/error_test.yaml: request-validation errors against the e2e "normal" schema: every
// listed error exactly (message in Dgraph/gqlparser wording, locations, path, no other keys), and no `data`.

import { describe, expect, it } from 'vitest';
import { parseRequestJson } from '../../engine/request/json-numbers.js';
import { loadCases, openHarness, parseLoose, type Harness } from './helpers/engine-harness.js';

function decodeVariables(text: string): Record<string, unknown> | undefined {
  try {
    return parseRequestJson(text) as Record<string, unknown>;
  } catch {
    return parseLoose(text) as Record<string, unknown> | undefined;
  }
}

let h: Harness | undefined;
const tally = { passed: 0, total: 0 };

describe('error_test.yaml', () => {
  for (const c of loadCases('e2e/common/error_test.yaml')) {
    it(c.name, async () => {
      h ??= await openHarness('e2e/normal/schema.graphql');
      // Variables arrive as the server decodes the body: JSON text through parseRequestJson (keeps `180143985094.0`).
      const variables = c['gqlvariables'] === undefined ? undefined : decodeVariables(c['gqlvariables'] as string);
      const result = await h.gql(c['gqlrequest'] as string, variables ?? undefined);
      tally.total++;
      // Every error, whole (message, locations, path and nothing else), in order: Dgraph's
      // e2e test compares the error lists with require.Equal.
      const expected = (parseLoose(c['errors']) as Record<string, unknown>[]).map((e) => ({ ...e, message: String(e['message']).replace(/\s+/g, ' ').trim() }));
      expect(result.data).toBeUndefined();
      const actual = (result.errors ?? []).map((e: Record<string, unknown>) => ({ ...e, message: String(e['message']).replace(/\s+/g, ' ').trim() }));
      expect(actual).toEqual(expected);
      tally.passed++;
    });
  }
  it('a filter given through a variable holding two functions is refused like the literal (no data)', async () => {
    h ??= await openHarness('e2e/normal/schema.graphql');
    const literal = await h.gql(`query { queryPost(filter: { numLikes: { gt: 1, lt: 5 } }) { title } }`);
    const variable = await h.gql(`query ($f: PostFilter) { queryPost(filter: $f) { title } }`, { f: { numLikes: { gt: 1, lt: 5 } } });
    const deep = await h.gql(`query ($n: IntFilter) { queryPost(filter: { numLikes: $n }) { title } }`, { n: { gt: 1, lt: 5 } });
    for (const result of [literal, variable, deep]) {
      expect(result.kind).toBe('request-error');
      expect(result.data).toBeUndefined();
      expect(result.errors?.map((e: { message: string }) => e.message)).toEqual(['IntFilter filter expects only one filter function, got: 2']);
    }
    expect(variable.errors?.[0].locations).toEqual([{ line: 1, column: 44 }]);
    const fine = await h.gql(`query ($f: PostFilter) { queryPost(filter: $f) { title } }`, { f: { numLikes: { gt: 1 } } });
    expect(fine.errors).toBeUndefined();
  });

  it('counts', () => {
    console.log('engine-errors conformance:', JSON.stringify(tally));
  });
});
