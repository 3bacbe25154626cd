// resolve/custom_query_test.yaml and custom_mutation_test.yaml: the exact outgoing request (method, URL,
// body, forwarded headers) for REST custom queries/mutations, and the resolved response.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { rewriteHosts, testdata } from './helpers/mock-upstream.js';
import { startRig, uploaded, type Rig } from './helpers/service.js';

interface Case {
  readonly name: string;
  readonly gqlquery: string;
  readonly variables?: string;
  readonly httpresponse: string;
  readonly url: string;
  readonly method: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, readonly string[]>>;
  readonly resolvedresponse: string;
}

const files = ['resolve/custom_query_test.yaml', 'resolve/custom_mutation_test.yaml'];
let rig: Rig;

beforeAll(async () => {
  rig = await startRig();
  const sdl = rewriteHosts(readFileSync(join(testdata, 'resolve/schema.graphql'), 'utf8'), rig.mock.url);
  expect(await rig.upload(sdl)).toEqual(uploaded);
});
afterAll(async () => {
  await rig?.stop();
});

for (const file of files) {
  const cases = parseYaml(readFileSync(join(testdata, file), 'utf8')) as Case[];
  describe(file, () => {
    for (const c of cases) {
      it(c.name, async () => {
        rig.mock.requests.length = 0;
        rig.mock.responder = () => ({ body: c.httpresponse });
        const incoming: Record<string, string> = {};
        for (const [name, values] of Object.entries(c.headers ?? {})) if (name.toLowerCase() !== 'content-type') incoming[name.toLowerCase()] = values[0] ?? '';
        const answer = await rig.gql(c.gqlquery, c.variables === undefined ? undefined : (JSON.parse(c.variables) as Record<string, unknown>), incoming);
        expect(rig.mock.requests).toHaveLength(1);
        const sent = rig.mock.requests[0]!;
        expect(sent.method).toBe(c.method);
        expect(`http://myapi.com${sent.url.slice('/yaml'.length)}`).toBe(c.url);
        if (c.body === undefined) expect(sent.body).toBe('');
        else expect(JSON.parse(sent.body)).toEqual(JSON.parse(c.body));
        for (const [name, values] of Object.entries(c.headers ?? {})) expect(sent.headers[name.toLowerCase()]).toBe(values[0]);
        expect(answer.data).toEqual(JSON.parse(c.resolvedresponse));
      });
    }
  });
}
