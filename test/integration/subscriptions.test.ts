// GraphQL subscriptions over WebSocket against the real server process, with both client libraries
// (graphql-ws for `graphql-transport-ws`, subscriptions-transport-ws for the legacy `graphql-ws` that
// Dgraph speaks) and raw sockets for the protocols' refusals. Answers are pushed after commits, only
// when they changed; HTTP keeps being served throughout.

import { createClient, type Client } from 'graphql-ws';
import { SubscriptionClient } from 'subscriptions-transport-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aclLogin, aclPost } from './helpers/acl-client.js';
import { askWithoutExtensions, send, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { makeTempDir, startServer, startWithSchema, type ServerProcess } from './helpers/server-process.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const schema = `type Todo @withSubscription { id: ID! text: String! @search(by: [term]) done: Boolean }
type Note @generate(subscription: true) { id: ID! text: String }
type Pet @withSubscription { id: ID! name: String! @search(by: [hash]) owner: Owner age: Int }
type Owner { id: ID! name: String! @search(by: [hash]) pets: [Pet] @hasInverse(field: owner) }
type Plain { id: ID! name: String }
type Query { petNames(name: String!): [Pet] @withSubscription @custom(dql: "query q($name: string) { petNames(func: type(Pet)) @filter(eq(Pet.name, $name)) { name: Pet.name } }") }
`;
let server: ServerProcess;
let wsUrl: string;

beforeAll(async () => {
  server = await startWithSchema(schema);
  wsUrl = `${server.url.replace('http', 'ws')}/graphql`;
});
afterAll(async () => {
  await server.stop();
});

const gql = (query: string): Promise<unknown> => askWithoutExtensions(server.url, query);
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Collects a subscription's messages; `next(n)` waits for the n-th. */
function collector<T>() {
  const items: T[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  return {
    items,
    push(item: T) {
      items.push(item);
      for (const w of waiters.filter((w) => items.length >= w.n)) w.resolve();
    },
    async next(n: number, ms = 3000): Promise<T> {
      if (items.length < n) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no message ${n} within ${ms} ms (got ${JSON.stringify(items)})`)), ms);
          waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
        });
      }
      return items[n - 1] as T;
    },
  };
}

/** Strips `extensions` (touched_uids varies) from an answer. */
const dataOf = (answer: unknown): unknown => {
  const { extensions: _e, ...rest } = answer as Record<string, unknown>;
  return rest;
};

describe('graphql-transport-ws (the graphql-ws client)', () => {
  let client: Client;
  beforeAll(() => {
    client = createClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
  });
  afterAll(async () => {
    await client.dispose();
  });

  it('sends the first answer at once, then each answer a commit changed, and nothing when it did not change', async () => {
    const got = collector<unknown>();
    const done = collector<string>();
    const stop = client.subscribe({ query: 'subscription { queryTodo(filter: { text: { anyofterms: "alpha" } }, order: { asc: text }) { text done } }' }, {
      next: (value) => got.push(dataOf(value)),
      error: (error) => done.push(`error ${JSON.stringify(error)}`),
      complete: () => done.push('complete'),
    });
    expect(await got.next(1)).toEqual({ data: { queryTodo: [] } });
    await gql('mutation { addTodo(input: [{ text: "alpha one", done: false }]) { numUids } }');
    expect(await got.next(2)).toEqual({ data: { queryTodo: [{ text: 'alpha one', done: false }] } });
    // A commit that leaves this answer as it was sends nothing.
    await gql('mutation { addTodo(input: [{ text: "beta", done: false }]) { numUids } addNote(input: [{ text: "n" }]) { numUids } }');
    await gql('mutation { updateTodo(input: { filter: { text: { anyofterms: "alpha" } }, set: { done: true } }) { numUids } }');
    expect(await got.next(3)).toEqual({ data: { queryTodo: [{ text: 'alpha one', done: true }] } });
    await pause(150);
    expect(got.items).toHaveLength(3);
    stop();
    await gql('mutation { addTodo(input: [{ text: "alpha two" }]) { numUids } }');
    await pause(150);
    expect(got.items).toHaveLength(3);
    expect(done.items).toEqual(['complete']); // the client's own complete on stop: no error came
  });

  it('a write to a type the selection reads through an edge is pushed; writes elsewhere are not evaluated', async () => {
    const got = collector<unknown>();
    const stop = client.subscribe({ query: 'subscription { queryPet { name owner { name } } }' }, { next: (v) => got.push(dataOf(v)), error: (e) => got.push({ error: e }), complete: () => undefined });
    expect(await got.next(1)).toEqual({ data: { queryPet: [] } });
    await gql('mutation { addPet(input: [{ name: "rex", owner: { name: "ann" } }]) { numUids } }');
    expect(await got.next(2)).toEqual({ data: { queryPet: [{ name: 'rex', owner: { name: 'ann' } }] } });
    await gql('mutation { updateOwner(input: { filter: { name: { eq: "ann" } }, set: { name: "anna" } }) { numUids } }');
    expect(await got.next(3)).toEqual({ data: { queryPet: [{ name: 'rex', owner: { name: 'anna' } }] } });
    await gql('mutation { addNote(input: [{ text: "elsewhere" }]) { numUids } }');
    await pause(150);
    expect(got.items).toHaveLength(3);
    stop();
  });

  it('per predicate: a commit writing only predicates a subscription does not read evaluates nothing and sends nothing; filters and nested edges count', async () => {
    const evaluations = async (): Promise<number> => Number(/\ngraphdb_subscription_evaluations_total (\d+)\n/.exec((await send(`${server.url}/metrics`)).text)?.[1]);
    await gql('mutation { addPet(input: [{ name: "fido", age: 1, owner: { name: "oscar" } }, { name: "spot", age: 2 }]) { numUids } }');
    const got = collector<unknown>();
    const stop = client.subscribe({ query: 'subscription { queryPet(filter: { name: { in: ["fido", "fido2"] } }, order: { asc: name }) { owner { name } } }' }, { next: (v) => got.push(dataOf(v)), error: (e) => got.push({ error: e }), complete: () => undefined });
    expect(await got.next(1)).toEqual({ data: { queryPet: [{ owner: { name: 'oscar' } }] } });
    // Pet.age: read by no subscription (nor a new Todo's predicates): not evaluated, nothing sent.
    let before = await evaluations();
    await gql('mutation { updatePet(input: { filter: { name: { eq: "fido" } }, set: { age: 5 } }) { numUids } }');
    await gql('mutation { addTodo(input: [{ text: "unrelated" }]) { numUids } }');
    await pause(150);
    expect(await evaluations()).toBe(before);
    expect(got.items).toHaveLength(1);
    // Owner.name, a nested edge's field: evaluated, and the new answer sent.
    before = await evaluations();
    await gql('mutation { updateOwner(input: { filter: { name: { eq: "oscar" } }, set: { name: "otto" } }) { numUids } }');
    expect(await got.next(2)).toEqual({ data: { queryPet: [{ owner: { name: 'otto' } }] } });
    expect(await evaluations()).toBeGreaterThan(before);
    // Pet.name, the filter's (and order's) field, on a node the answer did not hold.
    await gql('mutation { updatePet(input: { filter: { name: { eq: "spot" } }, set: { name: "fido2" } }) { numUids } }');
    expect(await got.next(3)).toEqual({ data: { queryPet: [{ owner: { name: 'otto' } }, { owner: null }] } });
    stop();
  });

  it('a @custom(dql:) query with @withSubscription is pushed after any commit that changes it', async () => {
    const got = collector<unknown>();
    const stop = client.subscribe({ query: 'subscription { petNames(name: "rover") { name } }' }, { next: (v) => got.push(dataOf(v)), error: (e) => got.push({ error: e }), complete: () => undefined });
    expect(await got.next(1)).toEqual({ data: { petNames: [] } });
    await gql('mutation { addPet(input: [{ name: "rover" }]) { numUids } }');
    expect(await got.next(2)).toEqual({ data: { petNames: [{ name: 'rover' }] } });
    stop();
  });

  it('@generate(subscription: true) types and aggregate<T> subscriptions', async () => {
    const got = collector<unknown>();
    const stop = client.subscribe({ query: 'subscription { aggregateNote { count } }' }, { next: (v) => got.push(dataOf(v)), error: (e) => got.push({ error: e }), complete: () => undefined });
    const before = ((await got.next(1)) as { data: { aggregateNote: { count: number } } }).data.aggregateNote.count;
    await gql('mutation { addNote(input: [{ text: "counted" }]) { numUids } }');
    expect(await got.next(2)).toEqual({ data: { aggregateNote: { count: before + 1 } } });
    stop();
  });

  it('refuses an operation that is not a subscription, and a custom HTTP field, with an error message', async () => {
    const refused = collector<unknown>();
    client.subscribe({ query: '{ queryTodo { text } }' }, { next: () => undefined, error: (e) => refused.push(e), complete: () => undefined });
    expect(await refused.next(1)).toEqual([{ message: 'given GraphQL operation is not a subscription' }]);
    client.subscribe({ query: 'subscription { queryPlain { name } }' }, { next: () => undefined, error: (e) => refused.push(e), complete: () => undefined });
    expect(await refused.next(2)).toEqual([{ message: 'Cannot query field "queryPlain" on type "Subscription". Did you mean "queryPet", "queryTodo", or "queryNote"?', locations: [{ line: 1, column: 16 }] }]);
  });
});

describe('the legacy graphql-ws protocol (the subscriptions-transport-ws client, as Dgraph speaks)', () => {
  it('pushes answers as `data`, and completes on stop', async () => {
    const client = new SubscriptionClient(wsUrl, { reconnect: false }, WebSocket);
    const got = collector<unknown>();
    const subscription = client.request({ query: 'subscription Q($t: String!) { queryTodo(filter: { text: { anyofterms: $t } }) { text } }', variables: { t: 'gamma' } }).subscribe({
      next: (value) => got.push(dataOf(value)),
      error: (e) => got.push({ error: e }),
    });
    expect(await got.next(1)).toEqual({ data: { queryTodo: [] } });
    await gql('mutation { addTodo(input: [{ text: "gamma" }]) { numUids } }');
    expect(await got.next(2)).toEqual({ data: { queryTodo: [{ text: 'gamma' }] } });
    subscription.unsubscribe();
    client.close();
  });
});

/** A raw socket speaking `protocol` (its `opened` resolves once open, or rejects with the refusal's status). */
function rawSocket(protocol: string | undefined, url = wsUrl) {
  const socket = protocol === undefined ? new WebSocket(url) : new WebSocket(url, protocol);
  const messages = collector<unknown>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
  const opened = new Promise<void>((resolve, reject) => {
    socket.on('open', () => resolve());
    socket.on('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    socket.on('error', reject);
  });
  return { socket, messages, closed, opened, send: (m: unknown) => socket.send(typeof m === 'string' ? m : JSON.stringify(m)) };
}

describe('protocol refusals (raw sockets)', () => {
  it('graphql-transport-ws: subscribe before init 4401, invalid JSON 4400, second init 4429, duplicate id 4409', async () => {
    const early = await rawSocket('graphql-transport-ws');
    await early.opened;
    early.send({ id: '1', type: 'subscribe', payload: { query: 'subscription { queryTodo { text } }' } });
    expect(await early.closed).toEqual({ code: 4401, reason: 'Unauthorized' });

    const garbage = await rawSocket('graphql-transport-ws');
    await garbage.opened;
    garbage.send('{not json');
    expect(await garbage.closed).toEqual({ code: 4400, reason: 'Invalid message received' });

    const twice = await rawSocket('graphql-transport-ws');
    await twice.opened;
    twice.send({ type: 'connection_init' });
    expect(await twice.messages.next(1)).toEqual({ type: 'connection_ack' });
    twice.send({ type: 'ping' });
    expect(await twice.messages.next(2)).toEqual({ type: 'pong' });
    twice.send({ type: 'connection_init' });
    expect(await twice.closed).toEqual({ code: 4429, reason: 'Too many initialisation requests' });

    const dup = await rawSocket('graphql-transport-ws');
    await dup.opened;
    dup.send({ type: 'connection_init', payload: {} });
    const subscribe = { id: 'a', type: 'subscribe', payload: { query: 'subscription { queryTodo(filter: { text: { anyofterms: "nothing" } }) { text } }' } };
    dup.send(subscribe);
    expect(await dup.messages.next(2)).toEqual({ type: 'next', id: 'a', payload: { data: { queryTodo: [] } } });
    dup.send(subscribe);
    expect(await dup.closed).toEqual({ code: 4409, reason: 'Subscriber for a already exists' });
  });

  it('legacy graphql-ws: unknown type, start without id, start with a bad payload, stop', async () => {
    const legacy = await rawSocket('graphql-ws');
    await legacy.opened;
    legacy.send({ type: 'connection_init', payload: {} });
    expect(await legacy.messages.next(1)).toEqual({ type: 'connection_ack' });
    expect(await legacy.messages.next(2)).toEqual({ type: 'ka' });
    legacy.send({ type: 'hello' });
    expect(await legacy.messages.next(3)).toEqual({ type: 'error', payload: { message: 'unknown operation message of type: hello' } });
    legacy.send({ type: 'start', payload: { query: 'subscription { queryTodo { text } }' } });
    expect(await legacy.messages.next(4)).toEqual({ type: 'connection_error', payload: { message: 'missing ID for start operation' } });
    legacy.send({ type: 'start', id: '7', payload: { query: '{ queryTodo { text } }' } });
    expect(await legacy.messages.next(5)).toEqual({ type: 'error', id: '7', payload: { message: 'given GraphQL operation is not a subscription' } });
    expect(await legacy.messages.next(6)).toEqual({ type: 'complete', id: '7' });
    legacy.send({ type: 'start', id: '8', payload: { query: 'subscription { queryTodo(filter: { text: { anyofterms: "nothing" } }) { text } }' } });
    expect(await legacy.messages.next(7)).toEqual({ type: 'data', id: '8', payload: { data: { queryTodo: [] } } });
    legacy.send({ type: 'stop', id: '8' });
    expect(await legacy.messages.next(8)).toEqual({ type: 'complete', id: '8' });
    legacy.socket.close();
  });

  it('an upgrade without a subprotocol we speak is refused with 400', async () => {
    const none = await rawSocket(undefined);
    await expect(none.opened).rejects.toThrow('upgrade refused: 400');
    const other = await rawSocket('mqtt');
    await expect(other.opened).rejects.toThrow('upgrade refused: 400');
  });

  it('a schema update completes every subscription; HTTP answered throughout', async () => {
    const legacy = await rawSocket('graphql-ws');
    await legacy.opened;
    legacy.send({ type: 'connection_init' });
    legacy.send({ type: 'start', id: 's', payload: { query: 'subscription { queryTodo(first: 1) { id } }' } });
    await legacy.messages.next(3);
    expect(await gql('{ aggregateNote { count } }')).toEqual({ data: { aggregateNote: { count: 3 } } });
    expect(await uploadSchema(server.url, schema)).toEqual(uploadSucceeded);
    expect(await legacy.messages.next(4)).toEqual({ type: 'complete', id: 's' });
    legacy.socket.close();
  });
});

describe('@auth over subscriptions: the connection_init payload carries the token', () => {
  const secret = 'a-very-secret-hmac-key-of-32-bytes!!';
  const authSchema = `type Secret @withSubscription @auth(query: { rule: "query($USER: String!) { querySecret(filter: { owner: { eq: $USER } }) { id } }" }) {
  id: ID!
  owner: String! @search(by: [hash])
  text: String
}
# Dgraph.Authorization {"Header":"X-Test-Auth","Namespace":"https://example.com/claims","Algo":"HS256","VerificationKey":"${secret}"}
`;
  let authServer: ServerProcess;
  beforeAll(async () => {
    authServer = await startWithSchema(authSchema);
    await askWithoutExtensions(authServer.url, 'mutation { addSecret(input: [{ owner: "ann", text: "a1" }, { owner: "bob", text: "b1" }]) { numUids } }');
  });
  afterAll(async () => {
    await authServer.stop();
  });

  it('each token sees only what its rules let through, live', async () => {
    const { SignJWT } = await import('jose');
    const tokenOf = (user: string) => new SignJWT({ 'https://example.com/claims': { USER: user } }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));
    const url = `${authServer.url.replace('http', 'ws')}/graphql`;
    const seen = { ann: collector<unknown>(), bob: collector<unknown>(), none: collector<unknown>() };
    const clients: Client[] = [];
    for (const user of ['ann', 'bob', 'none'] as const) {
      const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: user === 'none' ? {} : { 'X-Test-Auth': await tokenOf(user) } });
      clients.push(client);
      client.subscribe({ query: 'subscription { querySecret(order: { asc: text }) { text } }' }, { next: (v) => seen[user].push(dataOf(v)), error: (e) => seen[user].push({ error: e }), complete: () => undefined });
    }
    expect(await seen.ann.next(1)).toEqual({ data: { querySecret: [{ text: 'a1' }] } });
    expect(await seen.bob.next(1)).toEqual({ data: { querySecret: [{ text: 'b1' }] } });
    expect(await seen.none.next(1)).toEqual({ data: { querySecret: [] } });
    await askWithoutExtensions(authServer.url, 'mutation { addSecret(input: [{ owner: "ann", text: "a2" }]) { numUids } }');
    expect(await seen.ann.next(2)).toEqual({ data: { querySecret: [{ text: 'a1' }, { text: 'a2' }] } });
    await pause(150);
    expect([seen.bob.items.length, seen.none.items.length]).toEqual([1, 1]);
    for (const client of clients) await client.dispose();
  });

  it('a subscription ends with an error when its token expires; another token of the same claims lives on', async () => {
    const { SignJWT } = await import('jose');
    const key = new TextEncoder().encode(secret);
    const exp = Math.floor(Date.now() / 1000) + 2;
    const short = await new SignJWT({ 'https://example.com/claims': { USER: 'ann' } }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp).sign(key);
    const long = await new SignJWT({ 'https://example.com/claims': { USER: 'ann' } }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp + 3600).sign(key);
    const url = `${authServer.url.replace('http', 'ws')}/graphql`;
    const events = { short: collector<unknown>(), long: collector<unknown>() };
    const clients = (['short', 'long'] as const).map((which) => {
      const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { 'X-Test-Auth': which === 'short' ? short : long } });
      client.subscribe({ query: 'subscription { querySecret(first: 1, order: { asc: text }) { text } }' }, { next: (v) => events[which].push(dataOf(v)), error: (e) => events[which].push({ error: e }), complete: () => events[which].push('complete') });
      return client;
    });
    expect(await events.short.next(1)).toEqual({ data: { querySecret: [{ text: 'a1' }] } });
    expect(await events.short.next(2, 5000)).toEqual({ error: [{ message: 'subscription terminated: its JWT expired' }] });
    expect(events.short.items).toHaveLength(2);
    expect(events.long.items).toEqual([{ data: { querySecret: [{ text: 'a1' }] } }]);
    for (const client of clients) await client.dispose();
  });
});

describe('limits (flags) and a client that never reads', () => {
  let limited: ServerProcess;
  beforeAll(async () => {
    // One thread: subscription groups are per thread (README, Threads); threads.test.ts has the limit across threads.
    limited = await startWithSchema(schema, { args: ['--ws-max-connections', '2', '--ws-init-timeout-ms', '300', '--ws-max-backpressure-bytes', '65536', '--ws-max-subscriptions', '1', '--threads', '1'] });
  });
  afterAll(async () => {
    await limited.stop();
  });
  const open = (protocol = 'graphql-transport-ws') => rawSocket(protocol, `${limited.url.replace('http', 'ws')}/graphql`);

  it('a flood of connections dropped without closing: HTTP answered throughout, every place freed', async () => {
    for (let round = 0; round < 20; round++) {
      const a = open();
      const b = open('graphql-ws');
      await Promise.all([a.opened, b.opened]);
      a.socket.send(JSON.stringify({ type: 'connection_init' }));
      a.socket.send(JSON.stringify({ id: 'x', type: 'subscribe', payload: { query: 'subscription { queryTodo(first: 1) { text } }' } }));
      b.socket.send(JSON.stringify({ type: 'start', id: 'y', payload: { query: 'subscription { queryTodo(first: 1) { text } }' } }));
      a.socket.terminate();
      b.socket.terminate();
      expect(await askWithoutExtensions(limited.url, '{ __typename }')).toEqual({ data: { __typename: 'Query' } });
    }
    await pause(200);
    const metrics = (await send(`${limited.url}/metrics`)).text;
    expect(metrics).toContain('\ngraphdb_ws_connections 0\n');
    expect(metrics).toContain('\ngraphdb_subscriptions 0\n');
  });

  it('the same subscription on different connections (no token) is one group, evaluated once per commit', async () => {
    const sockets = [open(), open('graphql-ws')];
    await Promise.all(sockets.map((s) => s.opened));
    const query = 'subscription { queryTodo(filter: { text: { anyofterms: "shared" } }) { text } }';
    sockets[0]!.socket.send(JSON.stringify({ type: 'connection_init' }));
    sockets[0]!.socket.send(JSON.stringify({ id: 'a', type: 'subscribe', payload: { query } }));
    sockets[1]!.socket.send(JSON.stringify({ type: 'connection_init' }));
    sockets[1]!.socket.send(JSON.stringify({ type: 'start', id: 'b', payload: { query } }));
    await sockets[0]!.messages.next(2);
    await sockets[1]!.messages.next(3);
    const metrics = (await send(`${limited.url}/metrics`)).text;
    expect(metrics).toContain('\ngraphdb_subscriptions 2\n');
    expect(metrics).toContain('\ngraphdb_subscription_groups 1\n');
    for (const s of sockets) s.socket.close();
    await Promise.all(sockets.map((s) => s.closed));
  });

  it('no connection_init within --ws-init-timeout-ms: 4408', async () => {
    const idle = open();
    await idle.opened;
    expect(await idle.closed).toEqual({ code: 4408, reason: 'Connection initialisation timeout' });
  });

  it('past --ws-max-connections an upgrade is refused with 503; a closed connection frees its place', async () => {
    const a = open();
    const b = open();
    await Promise.all([a.opened, b.opened]);
    const c = open();
    await expect(c.opened).rejects.toThrow('upgrade refused: 503');
    a.socket.close();
    await a.closed;
    const d = open();
    await d.opened;
    b.socket.close();
    d.socket.close();
    await Promise.all([b.closed, d.closed]);
  });

  it('past --ws-max-subscriptions a subscribe is refused with an error', async () => {
    const s = open();
    await s.opened;
    s.socket.send(JSON.stringify({ type: 'connection_init' }));
    const query = 'subscription { queryTodo(filter: { text: { anyofterms: "nothing" } }) { text } }';
    s.socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
    s.socket.send(JSON.stringify({ id: '2', type: 'subscribe', payload: { query } }));
    await s.messages.next(3);
    expect(s.messages.items).toContainEqual({ type: 'error', id: '2', payload: [{ message: 'too many subscriptions on this connection (at most 1)' }] });
    s.socket.close();
    await s.closed;
  });

  it('a client that stops reading is disconnected past --ws-max-backpressure-bytes; HTTP is served meanwhile', async () => {
    const text = 'x'.repeat(200);
    await askWithoutExtensions(limited.url, `mutation { addTodo(input: [${Array.from({ length: 500 }, (_, i) => `{ text: "${text} big${i}" }`).join(',')}]) { numUids } }`);
    const slow = open('graphql-ws');
    await slow.opened;
    slow.socket.send(JSON.stringify({ type: 'connection_init' }));
    slow.socket.send(JSON.stringify({ type: 'start', id: 'big', payload: { query: 'subscription { queryTodo { text done } }' } }));
    await slow.messages.next(3); // ack, ka, the first (~100 KB) answer
    // Stop reading: the kernel buffers fill, then uWS's own; each commit adds another answer.
    (slow.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    let closedEarly = false;
    void slow.closed.then(() => (closedEarly = true));
    for (let i = 0; i < 120 && !closedEarly; i++) {
      expect(await askWithoutExtensions(limited.url, `mutation { updateTodo(input: { filter: { text: { anyofterms: "big${i % 500}" } }, set: { done: ${i % 2 === 0} } }) { numUids } }`)).toEqual({ data: { updateTodo: { numUids: 1 } } });
    }
    (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    const closed = await Promise.race([slow.closed, pause(5000).then(() => 'still open')]);
    expect(closed).not.toBe('still open');
    expect(await askWithoutExtensions(limited.url, '{ aggregateTodo { count } }')).toEqual({ data: { aggregateTodo: { count: 500 } } });
    // Counted, and gone from the open connections and subscriptions.
    const metrics = (await send(`${limited.url}/metrics`)).text;
    expect(metrics).toContain('\ngraphdb_ws_slow_clients_closed_total 1\n');
    expect(metrics).toContain('\ngraphdb_ws_connections 0\n');
    expect(metrics).toContain('\ngraphdb_subscriptions 0\n');
  });
});

describe('ACL: the access token in connection_init', () => {
  it('reads under the token, and the subscription ends when the access token expires', async () => {
    const dir = makeTempDir('subs-acl');
    writeFileSync(join(dir, 'secret'), 'an-acl-secret-of-at-least-32-bytes!!');
    const acl = await startServer({ args: ['--acl-secret-file', join(dir, 'secret'), '--acl-access-ttl', '3s'] });
    try {
      const login = async () =>
        ((await (await fetch(`${acl.url}/admin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'mutation { login(userId: "groot", password: "password") { response { accessJWT } } }' }) })).json()) as { data: { login: { response: { accessJWT: string } } } }).data.login.response.accessJWT;
      const token = await login();
      const uploaded = await (await fetch(`${acl.url}/admin/schema`, { method: 'POST', headers: { 'x-dgraph-accesstoken': token }, body: schema })).json();
      expect(uploaded).toEqual({ data: { code: 'Success', message: 'Done' } });
      const client = createClient({ url: `${acl.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { 'X-Dgraph-AccessToken': await login() } });
      const got = collector<unknown>();
      client.subscribe({ query: 'subscription { queryTodo { text } }' }, { next: (v) => got.push(dataOf(v)), error: (e) => got.push({ error: e }), complete: () => got.push('complete') });
      expect(await got.next(1)).toEqual({ data: { queryTodo: [] } });
      expect(await got.next(2, 6000)).toEqual({ error: [{ message: 'subscription terminated: its JWT expired' }] });
      await client.dispose();
    } finally {
      await acl.stop();
    }
  });
});

describe('ACL: group rules changed by updateGroup', () => {
  it('re-evaluate live subscriptions at once: a field whose READ is revoked leaves the answer, one granted appears', async () => {
    const dir = makeTempDir('subs-acl-rules');
    writeFileSync(join(dir, 'secret'), 'an-acl-secret-of-at-least-32-bytes!!');
    const acl = await startServer({ args: ['--acl-secret-file', join(dir, 'secret')] });
    try {
      const groot = await aclLogin(acl.url, 'groot', 'password');
      const as = { 'X-Dgraph-AccessToken': groot };
      expect(await uploadSchema(acl.url, schema, as)).toEqual(uploadSucceeded);
      expect((await aclPost(acl.url, '/graphql', 'mutation { addTodo(input: [{ text: "one", done: true }]) { numUids } }', as)).data).toEqual({ addTodo: { numUids: 1 } });
      const setRules = async (change: string): Promise<void> => {
        const answer = await aclPost(acl.url, '/admin', `mutation { updateGroup(input: {filter: {name: {eq: "readers"}}, ${change}}) { group { name } } }`, as);
        expect(answer).toEqual({ data: { updateGroup: { group: [{ name: 'readers' }] } } });
      };
      const added = await aclPost(acl.url, '/admin', 'mutation { addUser(input: [{name: "ann", password: "annpass1", groups: [{name: "readers"}]}]) { user { name } } }', as);
      expect(added).toEqual({ data: { addUser: { user: [{ name: 'ann' }] } } });
      await setRules('set: {rules: [{predicate: "dgraph.type", permission: 4}, {predicate: "Todo.text", permission: 4}]}');
      const client = createClient({ url: `${acl.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { 'X-Dgraph-AccessToken': await aclLogin(acl.url, 'ann', 'annpass1') } });
      const got = collector<unknown>();
      client.subscribe({ query: 'subscription { queryTodo { text done } }' }, { next: (v) => got.push(dataOf(v)), error: (e) => got.push({ error: e }), complete: () => got.push('complete') });
      expect(await got.next(1)).toEqual({ data: { queryTodo: [{ text: 'one', done: null }] } });
      // `set` adds or updates rules (Dgraph): revoking Todo.text takes `remove`.
      await setRules('set: {rules: [{predicate: "Todo.done", permission: 4}]}, remove: {rules: ["Todo.text"]}');
      // Todo.text is non-null: absent from the pruned result, it is Dgraph's error and a null item.
      expect(await got.next(2)).toEqual({
        data: { queryTodo: [null] },
        errors: [
          {
            message: "Non-nullable field 'text' (type String!) was not present in result from Dgraph.  GraphQL error propagation triggered.",
            locations: [{ line: 1, column: 28 }],
            path: ['queryTodo', 0, 'text'],
          },
        ],
      });
      await client.dispose();
    } finally {
      await acl.stop();
    }
  });
});

describe('keys: with --client-key and no anonymous access, a socket needs the key as HTTP does', () => {
  let keyed: ServerProcess;
  beforeAll(async () => {
    keyed = await startServer({ args: ['--client-key', 'client-secret-1', '--admin-key', 'admin-secret-1'] });
    expect(await uploadSchema(keyed.url, schema, { 'X-Auth-Token': 'admin-secret-1' })).toEqual(uploadSucceeded);
  });
  afterAll(async () => {
    await keyed.stop();
  });
  const open = (protocol: string) => rawSocket(protocol, `${keyed.url.replace('http', 'ws')}/graphql`);
  const subscribe = { id: 's', type: 'subscribe', payload: { query: 'subscription { queryTodo(first: 1) { text } }' } };

  it('graphql-transport-ws: no key or a wrong one in connection_init closes 4403; the client or admin key opens it', async () => {
    for (const payload of [undefined, { 'X-Auth-Token': 'wrong' }, { 'X-Auth-Token': '' }]) {
      const refused = open('graphql-transport-ws');
      await refused.opened;
      refused.send(payload === undefined ? { type: 'connection_init' } : { type: 'connection_init', payload });
      expect(await refused.closed).toEqual({ code: 4403, reason: 'Forbidden' });
      expect(refused.messages.items).toEqual([]);
    }
    for (const key of ['client-secret-1', 'admin-secret-1']) {
      const ok = open('graphql-transport-ws');
      await ok.opened;
      ok.send({ type: 'connection_init', payload: { 'x-auth-token': key } });
      expect(await ok.messages.next(1)).toEqual({ type: 'connection_ack' });
      ok.send(subscribe);
      expect(await ok.messages.next(2)).toEqual({ id: 's', type: 'next', payload: { data: { queryTodo: [] } } });
      ok.socket.close();
      await ok.closed;
    }
  });

  it('legacy graphql-ws: connection_error with the HTTP refusal text, then 4403; a start is refused before a good init', async () => {
    const refused = open('graphql-ws');
    await refused.opened;
    refused.send({ type: 'start', id: 'early', payload: subscribe.payload });
    refused.send({ type: 'connection_init', payload: { 'X-Auth-Token': 'wrong' } });
    expect(await refused.messages.next(2)).toEqual({ type: 'connection_error', payload: { message: 'Invalid X-Auth-Token' } });
    expect(refused.messages.items[0]).toEqual({ type: 'error', id: 'early', payload: { message: 'Invalid X-Auth-Token: the X-Auth-Token header is missing' } });
    expect(await refused.closed).toEqual({ code: 4403, reason: 'Forbidden' });
    const ok = open('graphql-ws');
    await ok.opened;
    ok.send({ type: 'connection_init', payload: { 'X-Auth-Token': 'client-secret-1' } });
    expect(await ok.messages.next(1)).toEqual({ type: 'connection_ack' });
    ok.send({ type: 'start', id: 'l', payload: subscribe.payload });
    expect(await ok.messages.next(3)).toEqual({ id: 'l', type: 'data', payload: { data: { queryTodo: [] } } });
    ok.socket.close();
    await ok.closed;
  });
});
