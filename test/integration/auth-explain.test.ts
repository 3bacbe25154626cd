// EXPLAIN (`--debug`, `extensions: {explain: true}`) of a query under `@auth` query rules: after the
// root's plan, the rule step — each rule of the type and how it was decided for these claims (an RBAC
// rule true or false without touching data, a graph-traversal rule evaluated on the engine), whether
// the allowed nodes came from the per-claims cache, and how many nodes the rules let through.

import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from './helpers/http.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

const ns = 'https://example.com/claims';
const key = 'an-hs256-key-of-at-least-32-bytes-long';

const schema = `
type Note @auth(query: { or: [{ rule: "{$ROLE: {eq: \\"ADMIN\\"}}" }, { rule: """query($USER: String!) { queryNote(filter: {owner: {eq: $USER}}) { id } }""" }] }) {
  id: ID!
  text: String! @search(by: [hash])
  owner: String! @search(by: [hash])
}
# Dgraph.Authorization ${JSON.stringify({ VerificationKey: key, Header: 'X-Auth', Namespace: ns, Algo: 'HS256' })}
`;

let server: ServerProcess;

const token = (claims: Record<string, unknown>): Promise<string> => new SignJWT({ [ns]: claims }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(key));

async function explain(query: string, claims: Record<string, unknown>): Promise<{ data: unknown; explain: string }> {
  const answer = await postGraphql(server.url, { query, extensions: { explain: true } }, { 'X-Auth': await token(claims) });
  const body = (await answer.json()) as { data: unknown; extensions: { explain: string } };
  return { data: body.data, explain: body.extensions.explain };
}

beforeAll(async () => {
  server = await startWithSchema(schema, { args: ['--debug', '--threads', '1'] });
  const added = await postGraphql(server.url, { query: 'mutation { addNote(input: [{text: "a", owner: "ann"}, {text: "b", owner: "bob"}, {text: "c", owner: "ann"}]) { numUids } }' }, {
    'X-Auth': await token({ ROLE: 'ADMIN' }),
  });
  expect(await added.json()).toMatchObject({ data: { addNote: { numUids: 3 } } });
}, 30_000);

afterAll(async () => {
  await server?.stop();
});

describe('EXPLAIN of the @auth rule step', () => {
  it('a graph-traversal rule: evaluated on the engine for these claims, then cached; without and with a filter', async () => {
    const query = '{ queryNote(order: {asc: text}) { text } }';
    const first = await explain(query, { USER: 'ann', ROLE: 'USER' });
    expect(first.data).toEqual({ queryNote: [{ text: 'a' }, { text: 'c' }] });
    expect(first.explain.split('\n').filter((line) => line.includes('@auth'))).toEqual([
      '  @auth query rules of Note: or(rbac false, graph on the engine); evaluated for these claims: 2 of 3 nodes allowed',
    ]);
    expect(first.explain.split('\n').slice(0, 2)).toEqual(['queryNote: Note', '  every node of the type']);
    // The same token again (the same claims), no write in between: the allowed nodes come from the cache.
    const again = await explain(query, { USER: 'ann', ROLE: 'USER' });
    expect(again.explain.split('\n').filter((line) => line.includes('@auth'))).toEqual(['  @auth query rules of Note: or(rbac false, graph on the engine); cached for these claims: 2 of 3 nodes allowed']);
    // With a filter, the rule step follows the filter's plan.
    const filtered = await explain('{ queryNote(filter: {text: {eq: "c"}}) { text } }', { USER: 'bob', ROLE: 'USER' });
    expect(filtered.data).toEqual({ queryNote: [] });
    expect(filtered.explain.split('\n').at(-1)).toBe('  @auth query rules of Note: or(rbac false, graph on the engine); evaluated for these claims: 1 of 3 nodes allowed');
  });

  it('an RBAC rule true for the claims: decided without reading data', async () => {
    const { data, explain: text } = await explain('{ queryNote(order: {asc: text}) { text } }', { USER: 'zed', ROLE: 'ADMIN' });
    expect(data).toEqual({ queryNote: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] });
    expect(text.split('\n').filter((line) => line.includes('@auth'))).toEqual(['  @auth query rules of Note: or(rbac true, graph on the engine); decided by the claims: every node allowed']);
  });
});
