// `# Service.Authorization` tokens over real HTTP: every algorithm, forged tokens, JWKS from a local
// server (slow, unreachable, refreshed), the namespace forms, ClosedByDefault. No @auth rules here: a
// token only decides between "runs" and Dgraph's refusal (rules: auth-rules.test.ts, auth-mutations.test.ts).

import { createServer, type Server } from 'node:http';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { startServer, type ServerProcess } from './helpers/server-process.js';

const ns = 'https://example.com/jwt/claims';
const types = 'type Item { id: ID! name: String }\n';
const query = { query: '{ queryItem { name } getItem(id: "0x1") { name } __typename }' };
const secret = 'a-very-secret-hmac-key-of-32-bytes!!';

function authLine(json: Record<string, unknown>): string {
  return `# Service.Authorization ${JSON.stringify({ Header: 'X-Test-Auth', Namespace: ns, ...json })}`;
}

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherRsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const pem = (key: KeyObject): string => key.export({ type: 'spki', format: 'pem' }).toString();

async function sign(alg: string, key: KeyObject | Uint8Array, claims: JWTPayload = {}, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ [ns]: { USER: 'u1' }, ...claims }).setProtectedHeader({ alg, ...header }).sign(key);
}

const hs = (text: string): Uint8Array => new TextEncoder().encode(text);
const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
const now = (): number => Math.floor(Date.now() / 1000);

/** Dgraph's answer to `query` when the token cannot be used. */
const refused = (message: string) => ({
  errors: [
    { message: `couldn't rewrite query queryItem because ${message}`, path: ['queryItem'] },
    { message: `couldn't rewrite query getItem because ${message}`, path: ['getItem'] },
  ],
  data: { queryItem: [], getItem: null, __typename: 'Query' },
});
/** A refused upload, in the shape of every schema error of POST /admin/schema. */
const uploadRefused = (message: string) => ({
  errors: [{ message: `resolving updateGQLSchema failed because input: ${message}\n (Locations: [{Line: 3, Column: 4}])`, extensions: { code: 'Error' } }],
});
const served = { data: { queryItem: [], getItem: null, __typename: 'Query' } };

let server: ServerProcess;
beforeAll(async () => {
  // JWKS fetches are counted: one thread, one key cache (each thread keeps its own: README, Threads).
  server = await startServer({ args: ['--jwks-timeout-ms', '1500', '--jwks-refresh-ms', '1000', '--threads', '1'] });
});
afterAll(async () => {
  await server.stop();
});

async function ask(token?: string, payload: unknown = query): Promise<unknown> {
  const answer = await postGraphql(server.url, payload, token === undefined ? {} : { 'x-test-auth': token });
  expect(answer.status).toBe(200);
  return answer.json();
}

async function deploy(json: Record<string, unknown>): Promise<void> {
  expect(await uploadSchema(server.url, types + authLine(json))).toEqual(uploadSucceeded);
}

describe('a pinned algorithm with its key', () => {
  const cases: { algo: string; key: KeyObject | Uint8Array; verification: string; wrong: KeyObject | Uint8Array; signature: string }[] = [
    ...['HS256', 'HS384', 'HS512'].map((algo) => ({ algo, key: hs(secret), verification: secret, wrong: hs(`${secret}x`), signature: 'signature is invalid' })),
    ...['RS256', 'RS384', 'RS512'].map((algo) => ({ algo, key: rsa.privateKey, verification: pem(rsa.publicKey), wrong: otherRsa.privateKey, signature: 'crypto/rsa: verification error' })),
    { algo: 'ES256', key: ec.privateKey, verification: pem(ec.publicKey), wrong: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, signature: 'crypto/ecdsa: verification error' },
  ];
  for (const c of cases) {
    it(`${c.algo}: a good token runs, one signed with another key fails every query field`, async () => {
      await deploy({ Algo: c.algo, VerificationKey: c.verification });
      expect(await ask(await sign(c.algo, c.key))).toEqual(served);
      expect(await ask(`Bearer ${await sign(c.algo, c.key)}`)).toEqual(served);
      expect(await ask(await sign(c.algo, c.wrong))).toEqual(refused(`unable to parse jwt token:token signature is invalid: ${c.signature}`));
      expect(await ask()).toEqual(served);
    });
  }

  it('RS256 with the PEM written with \\n escapes (as Dgraph accepts it)', async () => {
    await deploy({ Algo: 'RS256', VerificationKey: pem(rsa.publicKey).replaceAll('\n', '\\n') });
    expect(await ask(await sign('RS256', rsa.privateKey))).toEqual(served);
  });

  it('the Authorization JSON keys match case-insensitively (Go encoding/json), the last of a kind winning', async () => {
    const line = `# Service.Authorization ${JSON.stringify({ header: 'X-Test-Auth', NAMESPACE: ns, algo: 'HS256', verificationkey: 'first', VerificationKey: secret, closedbydefault: true })}`;
    expect(await uploadSchema(server.url, types + line)).toEqual(uploadSucceeded);
    expect(await ask(await sign('HS256', hs(secret)))).toEqual(served);
    expect(await ask()).toEqual(refused('a valid JWT is required but was not provided'));
  });

  it('an unreadable key fails the upload', async () => {
    expect(await uploadSchema(server.url, types + authLine({ Algo: 'RS256', VerificationKey: 'not a key' }))).toEqual(uploadRefused('invalid key: Key must be a PEM encoded PKCS1 or PKCS8 key'));
  });
});

describe('forged and unusable tokens (HS256 schema with an Audience)', () => {
  beforeAll(async () => {
    await deploy({ Algo: 'HS256', VerificationKey: secret, Audience: ['aud1', 'aud2'] });
  });
  const key = hs(secret);

  it('alg none is refused: the schema pins the algorithm', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ [ns]: { ROLE: 'ADMIN' } })}.`;
    expect(await ask(token)).toEqual(refused('unable to parse jwt token:token is unverifiable: error while executing keyfunc: unexpected signing method: Expected HS256 Found none'));
  });

  it('a tampered payload fails the signature', async () => {
    const [h, , s] = (await sign('HS256', key)).split('.');
    expect(await ask(`${h}.${b64({ [ns]: { ROLE: 'ADMIN' } })}.${s}`)).toEqual(refused('unable to parse jwt token:token signature is invalid: signature is invalid'));
  });

  it('expired, not yet valid (no leeway), malformed', async () => {
    expect(await ask(await sign('HS256', key, { exp: now() - 1 }))).toEqual(refused('unable to parse jwt token:token has invalid claims: token is expired'));
    expect(await ask(await sign('HS256', key, { nbf: now() + 2 }))).toEqual(refused('unable to parse jwt token:token has invalid claims: token is not valid yet'));
    expect(await ask('abc.def')).toEqual(refused('unable to parse jwt token:token is malformed: token contains an invalid number of segments'));
  });

  it('iat is not checked; no exp never expires; exp and nbf in range pass', async () => {
    expect(await ask(await sign('HS256', key, { iat: now() + 3600 }))).toEqual(served);
    expect(await ask(await sign('HS256', key, { exp: now() + 60, nbf: now() - 1 }))).toEqual(served);
  });

  it('audience: a wrong one is refused, a listed one passes, none at all passes (as Dgraph)', async () => {
    expect(await ask(await sign('HS256', key, { aud: 'other' }))).toEqual(refused('JWT `aud` value doesn\'t match with the audience'));
    expect(await ask(await sign('HS256', key, { aud: ['x', 'aud2'] }))).toEqual(served);
    expect(await ask(await sign('HS256', key))).toEqual(served);
  });

  it('the namespace claim as a JSON string, or malformed JSON', async () => {
    expect(await ask(await sign('HS256', key, { [ns]: JSON.stringify({ USER: 'u1' }) }))).toEqual(served);
    expect(await ask(await sign('HS256', key, { [ns]: '{not json' }))).toEqual(
      refused("unable to parse jwt token:token is malformed: could not JSON decode claim: invalid character 'n' looking for beginning of object key string"),
    );
  });

  it('malformed tokens in golang-jwt\'s words as Dgraph wraps them (decoded before the signature is checked)', async () => {
    const malformed = (detail: string): unknown => refused(`unable to parse jwt token:token is malformed: ${detail}`);
    expect(await ask('abc')).toEqual(malformed('token contains an invalid number of segments'));
    expect(await ask('a.b.c')).toEqual(malformed('could not base64 decode header: illegal base64 data at input byte 0'));
    const header = b64({ alg: 'HS256' });
    const raw = (text: string): string => Buffer.from(text).toString('base64url');
    expect(await ask(`${raw('{"alg":')}.${b64({})}.x`)).toEqual(malformed('could not JSON decode header: unexpected end of JSON input'));
    expect(await ask(`${header}.${raw('not json')}.x`)).toEqual(malformed("could not JSON decode claim: invalid character 'o' in literal null (expecting 'u')"));
    expect(await ask(`${header}.${raw('[1]')}.x`)).toEqual(malformed('could not JSON decode claim: json: cannot unmarshal array into Go value of type jwt.RegisteredClaims'));
    expect(await ask(`${header}.${b64({ exp: 'tomorrow' })}.x`)).toEqual(
      malformed('could not JSON decode claim: could not parse NumericData: json: invalid number literal, trying to unmarshal "\\"tomorrow\\"" into Number'),
    );
    expect(await ask(`${header}.${b64({})}.a$b`)).toEqual(malformed('could not base64 decode signature: illegal base64 data at input byte 1'));
    // A signed token: a numeric string is a date (json.Number), an upper-case EXP is exp; both problems reported together.
    expect(await ask(await sign('HS256', key, { exp: String(now() - 1) } as unknown as JWTPayload))).toEqual(refused('unable to parse jwt token:token has invalid claims: token is expired'));
    expect(await ask(await sign('HS256', key, { EXP: now() - 1, nbf: now() + 5 }))).toEqual(refused('unable to parse jwt token:token has invalid claims: token is expired, token is not valid yet'));
  });

  it('"Bearer a b" fails the whole request with no data', async () => {
    expect(await ask('Bearer a b')).toEqual({ errors: [{ message: 'invalid Bearer-formatted header value for JWT (Bearer a b)' }] });
    expect(await ask('bearer  x')).toEqual({ errors: [{ message: 'invalid Bearer-formatted header value for JWT (bearer  x)' }] });
    expect(await ask('Bearer ')).toEqual(refused('unable to parse jwt token:token is malformed: token contains an invalid number of segments'));
  });

  it('mutations: the first fails (an add without a word outside debug mode), the next is not executed', async () => {
    const wrong = await sign('HS256', hs('wrong'));
    const update = { query: 'mutation { a: updateItem(input: { filter: { id: ["0x1"] }, set: { name: "x" } }) { numUids } b: addItem(input: [{ name: "y" }]) { numUids } }' };
    const answer = (await ask(wrong, update)) as Record<string, unknown>;
    delete answer['extensions'];
    expect(answer).toEqual({
      errors: [
        { message: "couldn't rewrite mutation updateItem because unable to parse jwt token:token signature is invalid: signature is invalid", path: ['a'] },
        { message: 'Mutation b was not executed because of a previous error.', locations: [{ line: 1, column: update.query.indexOf('b:') + 1 }], path: ['b'] },
      ],
      data: { a: null, b: null },
    });
    // An add reads the claims only to check its new nodes: Dgraph's "mutation failed because authorization failed because …", shown in debug mode only.
    const add = (await ask(wrong, { query: 'mutation { a: addItem(input: [{ name: "x" }]) { numUids } b: addItem(input: [{ name: "y" }]) { numUids } }' })) as Record<string, unknown>;
    delete add['extensions'];
    expect(add).toEqual({ errors: [{ message: 'Mutation b was not executed because of a previous error.', locations: [{ line: 1, column: 59 }], path: ['b'] }], data: { a: null, b: null } });
  });

  it('a tampered signature, and a token in another header than the schema names (the anonymous view)', async () => {
    const [h, p, s] = (await sign('HS256', key)).split('.');
    const flipped = `${s!.slice(0, -2)}${s!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await ask(`${h}.${p}.${flipped}`)).toEqual(refused('unable to parse jwt token:token signature is invalid: signature is invalid'));
    const elsewhere = await postGraphql(server.url, query, { authorization: `Bearer ${await sign('HS256', hs('wrong'))}` });
    expect(await elsewhere.json()).toEqual(served);
  });

  it('oversized: a 45 KB token is refused like any other; a header block past the transport limit closes the connection, others are served', async () => {
    const [h, p] = (await sign('HS256', key)).split('.');
    expect(await ask(`${h}.${p}.${'A'.repeat(45_000)}`)).toEqual(refused('unable to parse jwt token:token signature is invalid: signature is invalid'));
    // uWS 20.30 answers headers past its limit by closing the connection (no 431).
    await expect(postGraphql(server.url, query, { 'x-test-auth': `${h}.${p}.${'A'.repeat(140_000)}` })).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(await ask(await sign('HS256', key))).toEqual(served);
  });

  it('a repeated token is answered from the cache, the same way', async () => {
    const token = await sign('HS256', key, { exp: now() + 60 });
    for (let i = 0; i < 3; i++) expect(await ask(token)).toEqual(served);
    const bad = await sign('HS256', hs('wrong'));
    for (let i = 0; i < 3; i++) expect(await ask(bad)).toEqual(refused('unable to parse jwt token:token signature is invalid: signature is invalid'));
  });
});

describe('key confusion: an RS256 schema', () => {
  it('refuses a token HS-signed with the RSA public key', async () => {
    await deploy({ Algo: 'RS256', VerificationKey: pem(rsa.publicKey) });
    const token = await sign('HS256', hs(pem(rsa.publicKey)));
    expect(await ask(token)).toEqual(refused('unable to parse jwt token:token is unverifiable: error while executing keyfunc: unexpected signing method: Expected RS256 Found HS256'));
  });
});

describe('ClosedByDefault', () => {
  it('refuses queries and mutations without a token; a valid token runs', async () => {
    await deploy({ Algo: 'HS256', VerificationKey: secret, ClosedByDefault: true });
    expect(await ask()).toEqual(refused('a valid JWT is required but was not provided'));
    const mutate = async (text: string): Promise<Record<string, unknown>> => {
      const answer = (await ask(undefined, { query: text })) as Record<string, unknown>;
      delete answer['extensions'];
      return answer;
    };
    expect(await mutate('mutation { addItem(input: [{ name: "x" }]) { numUids } }')).toEqual({ data: { addItem: null } });
    expect(await mutate('mutation { updateItem(input: { filter: { has: name }, set: { name: "y" } }) { numUids } }')).toEqual({
      errors: [{ message: "couldn't rewrite mutation updateItem because a valid JWT is required but was not provided", path: ['updateItem'] }],
      data: { updateItem: null },
    });
    expect(await mutate('mutation { deleteItem(filter: { has: name }) { numUids } }')).toEqual({
      errors: [{ message: "couldn't rewrite mutation deleteItem because a valid JWT is required but was not provided", path: ['deleteItem'] }],
      data: { deleteItem: null },
    });
    expect(await ask(await sign('HS256', hs(secret)))).toEqual(served);
  });
});

describe('JWKS', () => {
  let jwks: Server;
  let jwksUrl = '';
  /** What the JWKS server answers next; `delayMs` holds the answer back. */
  let body: unknown = { keys: [] };
  let delayMs = 0;
  let fetches = 0;
  let cacheControl: string | undefined;
  beforeAll(async () => {
    jwks = createServer((_req, res) => {
      fetches++;
      const reply = JSON.stringify(body);
      const headers = { 'content-type': 'application/json', ...(cacheControl === undefined ? {} : { 'cache-control': cacheControl }) };
      setTimeout(() => res.writeHead(200, headers).end(reply), delayMs);
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
  });
  afterAll(async () => {
    jwks.closeAllConnections();
    await new Promise((resolve) => jwks.close(resolve));
  });
  const jwk = async (key: KeyObject, kid: string) => ({ ...(await exportJWK(key)), kid, use: 'sig' });

  it('verifies by kid; a token without kid, or with an unknown one, is refused', async () => {
    body = { keys: [await jwk(rsa.publicKey, 'k1'), await jwk(ec.publicKey, 'k2')] };
    delayMs = 0;
    await deploy({ JWKUrl: jwksUrl, Audience: ['aud1'] });
    expect(await ask(await sign('RS256', rsa.privateKey, { aud: 'aud1' }, { kid: 'k1' }))).toEqual(served);
    expect(await ask(await sign('ES256', ec.privateKey, {}, { kid: 'k2' }))).toEqual(served);
    expect(await ask(await sign('RS256', rsa.privateKey))).toEqual(refused('unable to parse jwt token:token is unverifiable: error while executing keyfunc: kid not present in JWT'));
    expect(await ask(await sign('RS256', rsa.privateKey, {}, { kid: 'nope' }))).toEqual(refused('unable to parse jwt token:token is unverifiable: error while executing keyfunc: Invalid kid'));
    expect(await ask(await sign('RS256', otherRsa.privateKey, {}, { kid: 'k1' }))).toEqual(refused('unable to parse jwt token:token signature is invalid: crypto/rsa: verification error'));
    expect(await ask(await sign('HS256', hs(pem(rsa.publicKey)), {}, { kid: 'k1' }))).toEqual(refused('unable to parse jwt token:token signature is invalid: key is of invalid type'));
  });

  it('JWKUrls: a key of any listed set verifies', async () => {
    body = { keys: [await jwk(rsa.publicKey, 'k1')] };
    await deploy({ JWKUrls: [jwksUrl, `${jwksUrl}?second`], Audience: ['aud1'] });
    expect(await ask(await sign('RS256', rsa.privateKey, {}, { kid: 'k1' }))).toEqual(served);
  });

  it('a slow JWKS URL fails the upload within the fetch timeout (1.5 s here)', async () => {
    delayMs = 5_000;
    const started = Date.now();
    const answer = await uploadSchema(server.url, types + authLine({ JWKUrl: jwksUrl, Audience: ['aud1'] }));
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(answer).toEqual(uploadRefused(`Get "${jwksUrl}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`));
    delayMs = 0;
  });

  it('an unreachable JWKS URL fails the upload', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const url = `http://127.0.0.1:${port}/jwks.json`;
    const answer = await uploadSchema(server.url, types + authLine({ JWKUrl: url, Audience: ['aud1'] }));
    expect(answer).toEqual(uploadRefused(`Get "${url}": dial tcp 127.0.0.1:${port}: connect: connection refused`));
  });

  it('an unknown kid refreshes the set once (rotation); other clients are served while that refresh is pending', async () => {
    body = { keys: [await jwk(rsa.publicKey, 'k1')] };
    delayMs = 0;
    await deploy({ JWKUrl: jwksUrl, Audience: ['aud1'] });
    const known = await sign('RS256', rsa.privateKey, {}, { kid: 'k1' });
    const rotated = await sign('RS256', otherRsa.privateKey, {}, { kid: 'k3' });
    // The refresh is allowed once the minimum interval since the upload's fetch has passed.
    expect(await ask(rotated)).toEqual(refused('unable to parse jwt token:token is unverifiable: error while executing keyfunc: Invalid kid'));
    body = { keys: [await jwk(rsa.publicKey, 'k1'), await jwk(otherRsa.publicKey, 'k3')] };
    delayMs = 1_000;
    const before = fetches;
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the test minimum interval
    const waiting = ask(rotated);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    expect(await ask(known)).toEqual(served);
    expect(Date.now() - started).toBeLessThan(500);
    expect(await waiting).toEqual(served);
    expect(fetches).toBe(before + 1);
    delayMs = 0;
  });

  it('after max-age the set is refetched in the background: known keys keep answering at once meanwhile', async () => {
    body = { keys: [await jwk(rsa.publicKey, 'k1')] };
    cacheControl = 'public, max-age=1';
    await deploy({ JWKUrl: jwksUrl, Audience: ['aud1'] });
    cacheControl = undefined;
    body = { keys: [await jwk(rsa.publicKey, 'k1'), await jwk(ec.publicKey, 'k4')] };
    delayMs = 1_000;
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // max-age has passed
    const before = fetches;
    const started = Date.now();
    expect(await ask(await sign('RS256', rsa.privateKey, {}, { kid: 'k1' }))).toEqual(served); // starts the refresh, does not wait
    expect(Date.now() - started).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(fetches).toBe(before + 1);
    expect(await ask(await sign('ES256', ec.privateKey, {}, { kid: 'k4' }))).toEqual(served); // the refreshed set
    delayMs = 0;
  });
});
