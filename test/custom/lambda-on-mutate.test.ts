// @lambdaOnMutate webhooks (REFERENCE §8.6), custom fields refused in subscriptions (§12), custom
// mutations in document order among stored ones, and null propagation out of a non-null custom field.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, send } from '../integration/helpers/http.js';
import { startServer, type ServerProcess } from '../integration/helpers/server-process.js';
import { startMockUpstream, type MockUpstream } from './helpers/mock-upstream.js';

interface Hook {
  readonly url: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: any;
}

let lambda: Server;
let lambdaUrl: string;
const hooks: Hook[] = [];
let lambdaDelayMs = 0;
let server: ServerProcess;
let mock: MockUpstream;

const schema = (m: string): string => `
type Post @lambdaOnMutate(add: true, update: true, delete: true) {
  id: ID!
  title: String! @search(by: [hash])
  score: Int
}
type Note @lambdaOnMutate(add: true, update: false) {
  id: ID!
  text: String
}
type Plain @withSubscription {
  id: ID!
  text: String
  mustHave: String! @custom(http: { url: "${m}/fault/html500", method: "POST", body: "{ id: $id }" })
  name: String @custom(http: { url: "${m}/userName", method: "POST", body: "{ uid: $id }" })
}
type Mutation {
  echoTitles: [String] @custom(http: { url: "${lambdaUrl.replace('/lambda', '')}/titles", method: "GET" })
}
`;

async function gql(query: string, headers: Record<string, string> = {}): Promise<any> {
  return (await postGraphql(server.url, { query }, headers)).json();
}

async function waitForHooks(n: number): Promise<void> {
  for (let i = 0; i < 200 && hooks.length < n; i++) await new Promise((r) => setTimeout(r, 10));
}

beforeAll(async () => {
  lambda = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      if (req.url === '/titles') {
        // The custom mutation answers with the titles stored when it runs (proves document order).
        void gql('query { queryPost(order: { asc: title }) { title } }').then((a) => {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(a.data.queryPost.map((p: { title: string }) => p.title)));
        });
        return;
      }
      setTimeout(() => {
        hooks.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(body) });
        res.writeHead(200).end('{}');
      }, lambdaDelayMs);
    });
  });
  await new Promise<void>((r) => lambda.listen(0, '127.0.0.1', r));
  lambdaUrl = `http://127.0.0.1:${(lambda.address() as AddressInfo).port}/lambda`;
  [server, mock] = await Promise.all([startServer({ args: ['--lambda-url', lambdaUrl] }), startMockUpstream()]);
  const answer = await send(`${server.url}/admin/schema`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: schema(mock.url) });
  expect(await answer.json()).toEqual({ data: { code: 'Success', message: 'Done' } });
});
afterAll(async () => {
  await Promise.all([server?.stop(), mock?.close(), new Promise((r) => lambda?.close(r))]);
});

describe('@lambdaOnMutate', () => {
  it('add / update / delete each POST one event after commit', async () => {
    hooks.length = 0;
    const added = await gql('mutation { addPost(input: [{ title: "a", score: 1 }, { title: "b" }]) { post { id title } } }', { 'X-Service-AccessToken': 'tok' });
    expect(added.errors).toBeUndefined();
    const ids = (added.data.addPost.post as { id: string }[]).map((p) => p.id);
    await waitForHooks(1);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.url).toBe('/lambda');
    expect(hooks[0]!.headers['content-type']).toBe('application/json');
    const add = hooks[0]!.body;
    expect(Object.keys(add)).toEqual(['resolver', 'X-Dgraph-AccessToken', 'event']);
    expect(add.resolver).toBe('$webhook');
    expect(add['X-Dgraph-AccessToken']).toBe('tok');
    expect(add.event).toMatchObject({ __typename: 'Post', operation: 'add', add: { rootUIDs: ids, input: [{ title: 'a', score: 1 }, { title: 'b' }] } });
    expect(typeof add.event.commitTs).toBe('number');

    await gql('mutation { updatePost(input: { filter: { title: { eq: "a" } }, set: { score: 5 }, remove: { score: 1 } }) { numUids } }');
    await waitForHooks(2);
    expect(hooks[1]!.body.event).toMatchObject({ __typename: 'Post', operation: 'update', update: { rootUIDs: [ids[0]], setPatch: { score: 5 }, removePatch: { score: 1 } } });
    expect(hooks[1]!.body.event.commitTs).toBeGreaterThan(add.event.commitTs);

    await gql('mutation { deletePost(filter: { title: { eq: "b" } }) { numUids } }');
    await waitForHooks(3);
    expect(hooks[2]!.body.event).toEqual({ __typename: 'Post', operation: 'delete', commitTs: hooks[2]!.body.event.commitTs, delete: { rootUIDs: [ids[1]] } });
  });

  it('only the operations the directive turns on; nothing for failed or empty mutations', async () => {
    hooks.length = 0;
    await gql('mutation { addNote(input: [{ text: "x" }]) { numUids } }');
    await gql('mutation { updateNote(input: { filter: {}, set: { text: "y" } }) { numUids } }');
    await gql('mutation { addPlain(input: [{ text: "p" }]) { numUids } }');
    await gql('mutation { deletePost(filter: { title: { eq: "none" } }) { numUids } }');
    await gql('mutation { addPost(input: [{ score: 3 }]) { numUids } }');
    await new Promise((r) => setTimeout(r, 200));
    expect(hooks.map((h) => `${h.body.event.__typename}.${h.body.event.operation}`)).toEqual(['Note.add']);
  });

  it('never blocks the response: a slow lambda does not delay the mutation', async () => {
    hooks.length = 0;
    lambdaDelayMs = 1_000;
    const started = performance.now();
    const answer = await gql('mutation { addPost(input: [{ title: "slow" }]) { numUids } }');
    expect(answer.data.addPost.numUids).toBe(1);
    expect(performance.now() - started).toBeLessThan(500);
    lambdaDelayMs = 0;
    await waitForHooks(1);
    expect(hooks[0]!.body.event.operation).toBe('add');
  });
});

describe('custom fields and subscriptions', () => {
  it('a custom http field in a subscription is refused', async () => {
    const answer = await gql('subscription {\n  queryPlain {\n    text\n    ... on Plain { name }\n  }\n}');
    expect(answer).toEqual({
      errors: [{ message: 'Custom field `name` is not supported in graphql subscription', locations: [{ line: 4, column: 20 }] }],
      data: null,
    });
    const plain = await gql('subscription { queryPlain { text } }');
    expect(plain.errors).toBeUndefined();
  });
});

describe('serial mutations and null propagation', () => {
  it('a custom mutation after stored mutations runs in document order', async () => {
    await gql('mutation { deletePost(filter: {}) { numUids } }');
    const answer = await gql('mutation { first: addPost(input: [{ title: "m1" }]) { numUids } titles: echoTitles second: addPost(input: [{ title: "m2" }]) { numUids } }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ first: { numUids: 1 }, titles: ['m1'], second: { numUids: 1 } });
  });

  it('a non-null custom field that fails nulls its parent object (nullable list item)', async () => {
    await gql('mutation { deletePlain(filter: {}) { numUids } }');
    await gql('mutation { addPlain(input: [{ text: "n" }]) { numUids } }');
    const answer = await gql('query { queryPlain { text mustHave } }');
    expect(answer.data).toEqual({ queryPlain: [null] });
    expect(answer.errors.map((e: { message: string; path: unknown }) => [e.message, e.path])).toEqual([
      ['Evaluation of custom field failed because external request returned an error: unexpected error with: 500 for field: mustHave within type: Plain.', ['queryPlain', 0, 'mustHave']],
      ["Non-nullable field 'mustHave' (type String!) was not present in result from Dgraph.  GraphQL error propagation triggered.", ['queryPlain', 0, 'mustHave']],
    ]);
  });
});
