// A claim of another JSON kind than its rule variable, over real HTTP. Dgraph writes the claim into the
// rule's DQL as text (`%v`, quoted) and the predicate's type converts it (Go's ParseInt, ParseFloat,
// ParseBool): a string "30" fills an Int variable as 30, a number a String variable as its text.

import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { startServer, type ServerProcess } from './helpers/server-process.js';

const ns = 'https://example.com/claims';
const secret = 'a-claim-kinds-secret-of-32-bytes-or-more';
const rule = (text: string): string => JSON.stringify(text);
const sdl = `
type Level @auth(query: { rule: ${rule('query($LEVEL: Int!) { queryLevel(filter: { min: { le: $LEVEL } }) { __typename } }')} }) {
  id: ID!
  name: String
  min: Int @search
}
type Score @auth(query: { rule: ${rule('query($SCORE: Float!) { queryScore(filter: { min: { le: $SCORE } }) { __typename } }')} }) {
  id: ID!
  name: String
  min: Float @search
}
type Flag @auth(query: { rule: ${rule('query($ON: Boolean!) { queryFlag(filter: { on: $ON }) { __typename } }')} }) {
  id: ID!
  name: String
  on: Boolean @search
}
type Tag @auth(query: { rule: ${rule('query($CODE: String!) { queryTag(filter: { code: { eq: $CODE } }) { __typename } }')} }) {
  id: ID!
  name: String
  code: String @search(by: [hash])
}
# Dgraph.Authorization ${JSON.stringify({ VerificationKey: secret, Header: 'X-Auth', Namespace: ns, Algo: 'HS256' })}
`;

let server: ServerProcess;

async function names(type: string, claims?: Record<string, unknown>): Promise<unknown> {
  const headers = claims === undefined ? {} : { 'X-Auth': await new SignJWT({ [ns]: claims }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret)) };
  const answer = await postGraphql(server.url, { query: `{ query${type}(order: { asc: name }) { name } }` }, headers);
  const body = (await answer.json()) as { data: Record<string, { name: string }[]>; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data[`query${type}`]?.map((n) => n.name);
}

beforeAll(async () => {
  server = await startServer({ args: [] });
  expect(await uploadSchema(server.url, sdl)).toEqual(uploadSucceeded);
  const add = async (field: string, input: string, count: number): Promise<void> => {
    const answer = await postGraphql(server.url, { query: `mutation { ${field}(input: ${input}) { numUids } }` });
    expect(((await answer.json()) as { data: unknown }).data).toEqual({ [field]: { numUids: count } });
  };
  await add('addLevel', '[{ name: "one", min: 1 }, { name: "ten", min: 10 }, { name: "fifty", min: 50 }]', 3);
  await add('addScore', '[{ name: "low", min: 1.5 }, { name: "high", min: 7.25 }]', 2);
  await add('addFlag', '[{ name: "on", on: true }, { name: "off", on: false }]', 2);
  await add('addTag', '[{ name: "t42", code: "42" }, { name: "ttrue", code: "true" }, { name: "tx", code: "x" }]', 3);
}, 30_000);
afterAll(async () => {
  await server.stop();
});

describe('a claim filling a rule variable of another kind', () => {
  it('Int: a number, or a string Go\'s ParseInt reads; anything else matches nothing', async () => {
    expect(await names('Level', { LEVEL: 10 })).toEqual(['one', 'ten']);
    expect(await names('Level', { LEVEL: '10' })).toEqual(['one', 'ten']);
    expect(await names('Level', { LEVEL: '+50' })).toEqual(['fifty', 'one', 'ten']);
    expect(await names('Level', { LEVEL: '10.5' })).toEqual([]);
    expect(await names('Level', { LEVEL: 'ten' })).toEqual([]);
    expect(await names('Level')).toEqual([]);
  });

  it('Float: a number or a numeric string', async () => {
    expect(await names('Score', { SCORE: '7.25' })).toEqual(['high', 'low']);
    expect(await names('Score', { SCORE: '2' })).toEqual(['low']);
    expect(await names('Score', { SCORE: 'high' })).toEqual([]);
  });

  it('Boolean: what Go\'s ParseBool reads ("T", "0", …), and the numbers 1 and 0', async () => {
    expect(await names('Flag', { ON: 'T' })).toEqual(['on']);
    expect(await names('Flag', { ON: 'false' })).toEqual(['off']);
    expect(await names('Flag', { ON: '0' })).toEqual(['off']);
    expect(await names('Flag', { ON: 1 })).toEqual(['on']);
    expect(await names('Flag', { ON: 'yes' })).toEqual([]);
  });

  it('String: a number or a boolean claim as its text', async () => {
    expect(await names('Tag', { CODE: 42 })).toEqual(['t42']);
    expect(await names('Tag', { CODE: true })).toEqual(['ttrue']);
    expect(await names('Tag', { CODE: 'x' })).toEqual(['tx']);
  });
});
