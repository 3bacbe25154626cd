// Lone UTF-16 surrogates. Dgraph decodes request JSON with Go's encoding/json and reads `\uXXXX`
// escapes of the query text with gqlparser: both turn a lone surrogate into U+FFFD. Ours used to store
// the surrogate as given (or refuse the literal), and the msgpack/UTF-8 files read it back as U+FFFD,
// so an `eq` lookup that matched before a restart stopped matching after it. Now every lone surrogate
// becomes U+FFFD at the edge, so answers are identical before and after a restart (log replay or snapshot).

import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, send } from '../integration/helpers/http.js';
import type { ServerProcess } from '../integration/helpers/server-process.js';
import { crashDir, startOn, uploadSchema } from '../crash/crash-helpers.js';

const schema = `
type Item {
  key: String! @id
  label: String @search(by: [hash])
}
`;

const readAll = '{ queryItem(order: { asc: key }) { key label } }';
const byKey = 'query ($key: String!) { getItem(key: $key) { key label } }';
const byLabel = 'query ($label: String!) { queryItem(filter: { label: { eq: $label } }, order: { asc: key }) { key } }';
const byLiteral = '{ getItem(key: "lit\\ud800eral") { key } l: queryItem(filter: { label: { eq: "x\\udc00y" } }) { key } }';

/** What every answer must be, before and after restarts: each lone surrogate read back as U+FFFD. */
const expected = {
  all: {
    data: {
      queryItem: [
        { key: 'body\uFFFDgraphql', label: 'g\uFFFD' },
        { key: 'lit\uFFFDeral', label: 'x\uFFFDy' },
        { key: 'pair\u{1F600}', label: 'ok' },
        { key: 'var\uFFFDa', label: 'lab\uFFFDel' },
      ],
    },
    extensions: { touched_uids: 8 },
  },
  byKey: { data: { getItem: { key: 'var\uFFFDa', label: 'lab\uFFFDel' } }, extensions: { touched_uids: 2 } },
  byLabel: { data: { queryItem: [{ key: 'var\uFFFDa' }] }, extensions: { touched_uids: 1 } },
  byLiteral: { data: { getItem: { key: 'lit\uFFFDeral' }, l: [{ key: 'lit\uFFFDeral' }] }, extensions: { touched_uids: 2 } },
  byReplacement: { data: { getItem: { key: 'var\uFFFDa', label: 'lab\uFFFDel' } }, extensions: { touched_uids: 2 } },
};

async function answers(url: string): Promise<unknown[]> {
  return Promise.all([
    postGraphql(url, { query: readAll }).then((a) => a.json()),
    postGraphql(url, { query: byKey, variables: { key: 'var\ud800a' } }).then((a) => a.json()),
    postGraphql(url, { query: byLabel, variables: { label: 'lab\udfffel' } }).then((a) => a.json()),
    postGraphql(url, { query: byLiteral }).then((a) => a.json()),
    postGraphql(url, { query: byKey, variables: { key: 'var\uFFFDa' } }).then((a) => a.json()),
  ]);
}

const expectedAnswers = [expected.all, expected.byKey, expected.byLabel, expected.byLiteral, expected.byReplacement];

let dir: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  dir = crashDir();
  server = await startOn(dir);
  await uploadSchema(server, schema);
}, 30_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('lone surrogates', () => {
  it('are stored as U+FFFD from variables, inline literals and application/graphql bodies', async () => {
    const url = (server as ServerProcess).url;
    const byVariables = await postGraphql(url, {
      query: 'mutation ($input: [AddItemInput!]!) { addItem(input: $input) { item { key label } } }',
      variables: { input: [{ key: 'var\ud800a', label: 'lab\udfffel' }, { key: 'pair\ud83d\ude00', label: 'ok' }] },
    });
    expect(byVariables.json()).toMatchObject({
      data: { addItem: { item: [{ key: 'var\uFFFDa', label: 'lab\uFFFDel' }, { key: 'pair\u{1F600}', label: 'ok' }] } },
    });
    const byLiteralAdd = await postGraphql(url, { query: 'mutation { addItem(input: [{ key: "lit\\ud800eral", label: "x\\udc00y" }]) { item { key label } } }' });
    expect(byLiteralAdd.json()).toMatchObject({ data: { addItem: { item: [{ key: 'lit\uFFFDeral', label: 'x\uFFFDy' }] } } });
    const byBody = await send(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/graphql' },
      body: 'mutation { addItem(input: [{ key: "body\\uDBFFgraphql", label: "g\\ud800" }]) { item { key label } } }',
    });
    expect(byBody.json()).toMatchObject({ data: { addItem: { item: [{ key: 'body\uFFFDgraphql', label: 'g\uFFFD' }] } } });
    expect(await answers(url)).toEqual(expectedAnswers);
  });

  it('read back identically after a restart that replays the log (SIGKILL, no snapshot)', async () => {
    const first = server as ServerProcess;
    first.child.kill('SIGKILL');
    await first.exited;
    server = await startOn(dir);
    expect(await answers(server.url)).toEqual(expectedAnswers);
  });

  it('read back identically after a restart from a snapshot (SIGTERM writes one)', async () => {
    const second = server as ServerProcess;
    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    server = await startOn(dir);
    expect(await answers(server.url)).toEqual(expectedAnswers);
  });

  it('a block string keeps `\\ud800` as the six characters it is', async () => {
    const url = (server as ServerProcess).url;
    const answer = await postGraphql(url, { query: 'mutation { addItem(input: [{ key: """block\\ud800""" }]) { item { key } } }' });
    expect(answer.json()).toMatchObject({ data: { addItem: { item: [{ key: 'block\\ud800' }] } } });
  });
});
