// Where `@custom` calls may go, against the real server and a real upstream on loopback:
// - with --custom-deny-private, the spellings that used to slip past the check (IPv4-mapped IPv6,
//   NAT64 64:ff9b::/96, IPv4-compatible ::/96, the long form of ::1) are refused before any byte is sent;
// - always, a call to the service's own address and port is refused (a client-built body could
//   otherwise reach /admin and read the schema secrets back), for calls and for the remote
//   introspection done at schema upload.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRig, uploaded, type Rig } from './helpers/service.js';

let deny: Rig;
let open: Rig;

const failed = (url: string, detail: string, field: string): string =>
  `Evaluation of custom field failed because external request returned an error: Post "${url}": ${detail} for field: ${field} within type: Item.`;

beforeAll(async () => {
  [deny, open] = await Promise.all([startRig(['--custom-deny-private', '--custom-timeout-ms', '2000']), startRig(['--custom-timeout-ms', '2000'])]);
});
afterAll(async () => {
  await Promise.all([deny?.stop(), open?.stop()]);
});

describe('--custom-deny-private', () => {
  const hosts = {
    mapped: '[::ffff:127.0.0.1]',
    mappedHex: '[::ffff:7f00:1]',
    nat64: '[64:ff9b::7f00:1]',
    compatible: '[::7f00:1]',
    longLoopback: '[0:0:0:0:0:0:0:1]',
    unspecified: '[::]',
  } as const;
  const normalised: Record<keyof typeof hosts, string> = {
    mapped: '[::ffff:7f00:1]',
    mappedHex: '[::ffff:7f00:1]',
    nat64: '[64:ff9b::7f00:1]',
    compatible: '[::7f00:1]',
    longLoopback: '[::1]',
    unspecified: '[::]',
  };

  it('refuses IPv4-mapped, NAT64, IPv4-compatible and long-form loopback literals; nothing reaches the upstream', async () => {
    const port = new URL(deny.mock.url).port;
    const fields = Object.entries(hosts)
      .map(([name, host]) => `  ${name}: String @custom(http: { url: "http://${host}:${port}/userName", method: "POST", body: "{ uid: $id }" })`)
      .join('\n');
    expect(await deny.upload(`type Item {\n  id: ID!\n  title: String\n${fields}\n}`)).toEqual(uploaded);
    await deny.gql('mutation { addItem(input: [{ title: "a" }]) { numUids } }');
    const answer = await deny.gql(`query { queryItem { title ${Object.keys(hosts).join(' ')} } }`);
    expect(answer.data.queryItem).toEqual([{ title: 'a', mapped: null, mappedHex: null, nat64: null, compatible: null, longLoopback: null, unspecified: null }]);
    const messages = (answer.errors as { message: string }[]).map((e) => e.message).sort();
    const expected = Object.keys(hosts)
      .map((name) => failed(`http://${normalised[name as keyof typeof hosts]}:${port}/userName`, 'destination address not allowed', name))
      .sort();
    expect(messages).toEqual(expected);
    expect(deny.mock.requests).toHaveLength(0);
  });
});

describe("calls to the service's own address and port", () => {
  it('are refused for IP literals and names, with or without --custom-deny-private', async () => {
    const port = new URL(open.server.url).port;
    const targets = {
      literal: `http://127.0.0.1:${port}/admin`,
      otherLoopback: `http://127.0.0.2:${port}/admin`,
      byName: `http://localhost:${port}/admin`,
      mapped: `http://[::ffff:127.0.0.1]:${port}/admin`,
      unspecified: `http://0.0.0.0:${port}/admin`,
    } as const;
    const shown: Record<keyof typeof targets, string> = { ...targets, mapped: `http://[::ffff:7f00:1]:${port}/admin` };
    const fields = Object.entries(targets)
      .map(([name, url]) => `  ${name}: String @custom(http: { url: "${url}", method: "POST", body: "{ id: $id, query: $title }" })`)
      .join('\n');
    expect(await open.upload(`type Item {\n  id: ID!\n  title: String\n${fields}\n}\n# Dgraph.Secret TOKEN "s3cret-value"`)).toEqual(uploaded);
    await open.gql('mutation { addItem(input: [{ title: "{ getGQLSchema { schema } }" }]) { numUids } }');
    const answer = await open.gql(`query { queryItem { title ${Object.keys(targets).join(' ')} } }`);
    expect(answer.data.queryItem).toEqual([{ title: '{ getGQLSchema { schema } }', literal: null, otherLoopback: null, byName: null, mapped: null, unspecified: null }]);
    const messages = (answer.errors as { message: string }[]).map((e) => e.message).sort();
    const expected = Object.keys(targets)
      .map((name) => failed(shown[name as keyof typeof targets], "destination address not allowed: it is this service's own address and port", name))
      .sort();
    expect(messages).toEqual(expected);
    expect(JSON.stringify(answer)).not.toContain('s3cret');
  });

  it('a call to the same host on another port still goes through', async () => {
    const port = new URL(open.mock.url).port;
    expect(await open.upload(`type Item { id: ID! title: String good: String @custom(http: { url: "http://127.0.0.1:${port}/userName", method: "POST", body: "{ uid: $id }" }) }`)).toEqual(uploaded);
    const answer = await open.gql('query { queryItem { id good } }');
    expect(answer.errors).toBeUndefined();
    const item = answer.data.queryItem[0];
    expect(item.good).toBe(`uname-${String(item.id)}`);
  });

  it('the remote introspection at schema upload is refused too', async () => {
    const port = new URL(open.server.url).port;
    const answer = await open.upload(
      `type Item { id: ID! title: String }\ntype Query { remote: String @custom(http: { url: "http://localhost:${port}/admin", method: "POST", graphql: "query { health }" }) }`,
    );
    expect(answer).toEqual({
      errors: [
        {
          message: `resolving updateGQLSchema failed because input:2: Type Query; Field remote: inside graphql in @custom directive, Post "http://localhost:${port}/admin": destination address not allowed: it is this service's own address and port\n (Locations: [{Line: 3, Column: 4}])`,
          extensions: { code: 'Error' },
        },
      ],
    });
  });
});
