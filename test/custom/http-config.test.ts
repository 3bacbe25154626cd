// schema/custom_http_config_test.yaml: the exact remote GraphQL query text and variables sent for
// @custom(http: {graphql: ...}) on root queries, mutations and fields (SINGLE and BATCH).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { rewriteHosts, testdata } from './helpers/mock-upstream.js';
import { startRig, uploaded, type Rig } from './helpers/service.js';

interface Case {
  readonly name: string;
  readonly type: 'query' | 'mutation' | 'field';
  readonly gqlschema: string;
  readonly gqlquery: string;
  readonly gqlvariables?: string;
  readonly remotequery: string;
  readonly remotevariables?: string;
  readonly inputvariables?: string;
}

const cases = parseYaml(readFileSync(join(testdata, 'schema/custom_http_config_test.yaml'), 'utf8')) as Case[];
let rig: Rig;

beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.stop();
});

describe('schema/custom_http_config_test.yaml', () => {
  for (const c of cases) {
    // The mutation-only schema has no generated Query; the served API gets a placeholder root.
    it(c.name, async () => {
      expect(await rig.upload(rewriteHosts(c.gqlschema, rig.mock.url))).toEqual(uploaded);
      let expectedVariables: unknown = JSON.parse(c.remotevariables ?? c.inputvariables ?? '{}');
      if (c.type === 'field') {
        // Stored parents matching the expected variables; their ids are whatever the store assigns.
        await rig.gql('mutation { deleteUser(filter: {}) { numUids } }');
        const wanted = c.inputvariables?.includes('random') ? (expectedVariables as { random: { age: string }[] }).random : [expectedVariables as { age: unknown }];
        const input = wanted.map((w) => `{ age: ${JSON.stringify(w.age)} }`).join(', ');
        const added = await rig.gql(`mutation { addUser(input: [${input}]) { user { id age } } }`);
        expect(added.errors).toBeUndefined();
        const ids = (added.data.addUser.user as { id: string }[]).map((u) => u.id);
        expectedVariables = c.inputvariables?.includes('random')
          ? { random: wanted.map((w, i) => ({ ...w, id: ids[i] })) }
          : { ...(expectedVariables as object), id: ids[0] };
      }
      rig.mock.requests.length = 0;
      const answer = await rig.gql(c.gqlquery, c.gqlvariables === undefined ? undefined : (JSON.parse(c.gqlvariables) as Record<string, unknown>));
      expect(answer.errors?.[0]?.message ?? '').not.toMatch(/not supported|Internal/);
      const sent = rig.mock.requests.filter((r) => !r.body.includes('__schema'));
      expect(sent).toHaveLength(1);
      const body = JSON.parse(sent[0]!.body) as { query: string; variables: unknown };
      expect(body.query).toBe(c.remotequery);
      expect(body.variables).toEqual(expectedVariables);
    });
  }
});
