// Rule evaluation (engine/auth/rule-eval.ts) through the engine facade, in process: Dgraph's RBAC matching
// (claim arrays, `in`, `regexp`, deep equality), its static evaluation (missing claims, `not`), and the
// cache following commits.

import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/index.js';

const secret = 'a-unit-test-secret-of-32-bytes-or-more';
const ns = 'https://example.com/claims';
const rbac = (name: string, rule: string): string => `type ${name} @auth(query: { rule: ${JSON.stringify(rule)} }) { id: ID! v: String @search(by: [hash]) }`;
const sdl = [
  rbac('Eq', '{$ROLE: { eq: "ADMIN" }}'),
  rbac('In', '{$ROLE: { in: ["ADMIN", "EDITOR"] }}'),
  rbac('Re', '{$EMAIL: { regexp: "^.*@dgraph.io$" }}'),
  rbac('Num', '{$LEVEL: { eq: 3 }}'),
  'type NotRole @auth(query: { not: { rule: "{$ROLE: { eq: \\"USER\\" }}" } }) { id: ID! v: String @search(by: [hash]) }',
  'type NotGraph @auth(query: { not: { rule: """query($USER: String!) { queryNotGraph(filter: { v: { eq: $USER } }) { __typename } }""" } }) { id: ID! v: String @search(by: [hash]) }',
  'type Owned @auth(query: { rule: """query($USER: String!) { queryOwned(filter: { v: { eq: $USER } }) { __typename } }""" }) { id: ID! v: String @search(by: [hash]) }',
  `# Dgraph.Authorization ${JSON.stringify({ VerificationKey: secret, Header: 'X-Auth', Namespace: ns, Algo: 'HS256' })}`,
].join('\n');

let engine: Engine;

async function run(query: string, claims?: Record<string, unknown>): Promise<unknown> {
  const headers = claims === undefined ? {} : { 'x-auth': await new SignJWT({ [ns]: claims }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret)) };
  const response = await engine.execute({ method: 'POST', query, headers });
  return (JSON.parse(Buffer.from(response.body as string | Uint8Array).toString()) as { data: unknown }).data;
}

const count = async (type: string, claims?: Record<string, unknown>): Promise<number> =>
  ((await run(`{ query${type} { v } }`, claims)) as Record<string, unknown[]>)[`query${type}`]?.length ?? -1;

beforeAll(async () => {
  engine = await Engine.open({ dataDir: '', maxQueryTokens: 50000, maxQueryDepth: 200, debug: false });
  const deployed = await engine.updateSchema(sdl);
  expect(deployed.ok).toBe(true);
  for (const type of ['Eq', 'In', 'Re', 'Num', 'NotRole', 'NotGraph', 'Owned']) {
    await run(`mutation { add${type}(input: [{v: "alice"}, {v: "bob"}]) { numUids } }`);
  }
});

describe('RBAC matching (Dgraph: EvaluateRBACRule)', () => {
  it('eq: the claim, or any element of a claim array', async () => {
    expect(await count('Eq', { ROLE: 'ADMIN' })).toBe(2);
    expect(await count('Eq', { ROLE: ['USER', 'ADMIN'] })).toBe(2);
    expect(await count('Eq', { ROLE: 'admin' })).toBe(0);
    expect(await count('Eq', { ROLE: ['USER'] })).toBe(0);
  });
  it('in: any operand; with a claim array, any element against any operand', async () => {
    expect(await count('In', { ROLE: 'EDITOR' })).toBe(2);
    expect(await count('In', { ROLE: ['X', 'ADMIN'] })).toBe(2);
    expect(await count('In', { ROLE: 'USER' })).toBe(0);
  });
  it('regexp: strings only', async () => {
    expect(await count('Re', { EMAIL: 'a@dgraph.io' })).toBe(2);
    expect(await count('Re', { EMAIL: 'a@example.com' })).toBe(0);
    expect(await count('Re', { EMAIL: 7 })).toBe(0);
  });
  it('eq compares JSON values (a number is not its string)', async () => {
    expect(await count('Num', { LEVEL: 3 })).toBe(2);
    expect(await count('Num', { LEVEL: '3' })).toBe(0);
  });
});

describe('missing claims (Dgraph: EvaluateStatic)', () => {
  it('a graph rule whose claim is missing or null is false', async () => {
    expect(await count('Owned', { USER: 'alice' })).toBe(1);
    expect(await count('Owned')).toBe(0);
    expect(await count('Owned', { USER: null })).toBe(0);
  });
  it('`not` of such a graph rule is false too; `not` of an RBAC rule is negated', async () => {
    expect(await count('NotGraph', { USER: 'alice' })).toBe(1);
    expect(await count('NotGraph')).toBe(0);
    expect(await count('NotRole', { ROLE: 'USER' })).toBe(0);
    // An RBAC rule on a missing claim is false, and its `not` true (only graph rules stay false).
    expect(await count('NotRole')).toBe(2);
  });
});

describe('cache', () => {
  it('a commit changes what a graph rule selects for the same token', async () => {
    const claims = { USER: 'carol' };
    expect(await count('Owned', claims)).toBe(0);
    await run('mutation { addOwned(input: [{v: "carol"}]) { numUids } }');
    expect(await count('Owned', claims)).toBe(1);
  });
});
