// Dgraph's ACL over real HTTP (--acl-secret-file): groot and guardians at first start, login, the
// /admin user and group operations answered whole, every refusal with Dgraph's text, the access token
// on /graphql, and the ACL data across restarts (the log alone, then a snapshot).

import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, send, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { makeTempDir, runToExit, startServer, type ServerProcess } from './helpers/server-process.js';
import { findLog } from './helpers/log-records.js';

const secret = 'an-acl-secret-of-at-least-32-bytes!!';
const key = new TextEncoder().encode(secret);
const dir = makeTempDir('service-acl-');
const secretFile = join(dir, 'hmac-secret');
writeFileSync(secretFile, secret);

function aclArgs(dataDir: string, extra: readonly string[] = []): string[] {
  return ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--acl-secret-file', secretFile, '--snapshot-interval', '0', ...extra];
}

async function post(url: string, path: string, query: string, token?: string, variables?: Record<string, unknown>): Promise<unknown> {
  const answer = await postGraphql(url, { query, variables }, token === undefined ? {} : { 'X-Dgraph-AccessToken': token }, path);
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as { extensions?: unknown };
  delete body.extensions;
  return body;
}

interface Tokens {
  readonly accessJWT: string;
  readonly refreshJWT: string;
}

async function login(url: string, userId: string, password: string): Promise<Tokens> {
  const body = (await post(url, '/admin', `mutation { login(userId: "${userId}", password: "${password}") { response { accessJWT refreshJWT } } }`)) as {
    data: { login: { response: Tokens } };
  };
  return body.data.login.response;
}

/** A token signed with the ACL secret, as a client could forge one only with the secret. */
function signed(claims: Record<string, unknown>, alg = 'HS256'): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
}

const loginAt = { line: 1, column: 12 };
const refusedLogin = { errors: [{ message: 'resolving login failed because invalid username or password', locations: [loginAt] }], data: { login: null } };

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('start-up', () => {
  it('refuses a secret shorter than 32 bytes, and a missing file, with a clear message', async () => {
    const short = join(dir, 'short-secret');
    writeFileSync(short, 'x'.repeat(31));
    const tooShort = await runToExit({ args: ['--acl-secret-file', short] });
    expect(tooShort.code).toBe(1);
    expect(tooShort.output).toContain(`--acl-secret-file ${short}: the ACL secret must be at least 32 bytes (256 bits for HS256), got 31`);
    const missing = await runToExit({ args: ['--acl-secret-file', join(dir, 'absent')] });
    expect(missing.code).toBe(1);
    expect(missing.output).toContain(`error reading ACL secret key from file: ${join(dir, 'absent')}: ENOENT: no such file or directory`);
  });

  it('refuses a token lifetime that is not a duration', async () => {
    const result = await runToExit({ args: ['--acl-secret-file', secretFile, '--acl-access-ttl', 'soon'] });
    expect(result.code).toBe(2);
    expect(result.output).toContain('error: --acl-access-ttl must be a duration of at least 1s such as 30m, 6h or 30d, got "soon"');
  });
});

describe('the first request of a fresh server', () => {
  it('a guardian uploads a schema to /admin/schema with a token never seen before (the body is read while the token is verified)', async () => {
    const fresh = await startServer({ args: aclArgs(makeTempDir('acl-fresh')) });
    try {
      const { accessJWT } = await login(fresh.url, 'groot', 'password');
      const answer = await Promise.race([
        fetch(`${fresh.url}/admin/schema`, { method: 'POST', headers: { 'x-dgraph-accesstoken': accessJWT }, body: 'type Fresh { id: ID! name: String }' }).then((r) => r.json()),
        new Promise((resolve) => setTimeout(() => resolve('no answer within 5 s'), 5000)),
      ]);
      expect(answer).toEqual({ data: { code: 'Success', message: 'Done' } });
    } finally {
      await fresh.stop();
    }
  });
});

describe('ACL on one server', () => {
  let server: ServerProcess;
  const dataDir = join(dir, 'main');
  let groot: Tokens;
  const admin = (query: string, token?: string, variables?: Record<string, unknown>): Promise<unknown> => post(server.url, '/admin', query, token, variables);
  const asGroot = (query: string, variables?: Record<string, unknown>): Promise<unknown> => admin(query, groot.accessJWT, variables);

  beforeAll(async () => {
    mkdirSync(dataDir);
    server = await startServer({ rawArgs: aclArgs(dataDir, ['--acl-access-ttl', '2h', '--acl-refresh-ttl', '3d']) });
    groot = await login(server.url, 'groot', 'password');
  }, 30_000);
  afterAll(async () => {
    await server.stop();
  });

  it('groot logs in: HS256 tokens over the secret file with Dgraph claims and the flags lifetimes', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(decodeProtectedHeader(groot.accessJWT)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const access = (await jwtVerify(groot.accessJWT, key, { algorithms: ['HS256'] })).payload;
    expect(Object.keys(access)).toEqual(['exp', 'groups', 'namespace', 'userid']);
    expect({ ...access, exp: 0 }).toEqual({ exp: 0, groups: ['guardians'], namespace: 0, userid: 'groot' });
    expect(Math.abs((access.exp ?? 0) - (now + 2 * 3600))).toBeLessThanOrEqual(5);
    const refresh = (await jwtVerify(groot.refreshJWT, key, { algorithms: ['HS256'] })).payload;
    expect(Object.keys(refresh)).toEqual(['exp', 'namespace', 'userid']);
    expect(Math.abs((refresh.exp ?? 0) - (now + 3 * 86400))).toBeLessThanOrEqual(5);
  });

  it('every failed login reads "invalid username or password"', async () => {
    expect(await admin('mutation { login(userId: "groot", password: "wrong-password") { response { accessJWT } } }')).toEqual(refusedLogin);
    expect(await admin('mutation { login(userId: "nobody", password: "password") { response { accessJWT } } }')).toEqual(refusedLogin);
    expect(await admin('mutation { login(userId: "groot", password: "") { response { accessJWT } } }')).toEqual(refusedLogin);
    expect(await admin('mutation { login(userId: "groot", password: "password", namespace: 1) { response { accessJWT } } }')).toEqual(refusedLogin);
    expect(await admin('mutation { login(refreshToken: "not.a.token") { response { accessJWT } } }')).toEqual(refusedLogin);
    // An access token signed with another secret is no refresh token either.
    const forged = await new SignJWT({ exp: Math.floor(Date.now() / 1000) + 60, namespace: 0, userid: 'groot' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('another-secret-of-at-least-32-bytes!'));
    expect(await admin(`mutation { login(refreshToken: "${forged}") { response { accessJWT } } }`)).toEqual(refusedLogin);
  });

  it('a refresh token logs in again', async () => {
    const body = (await admin(`mutation { login(refreshToken: "${groot.refreshJWT}") { response { accessJWT refreshJWT } } }`)) as { data: { login: { response: Tokens } } };
    const access = (await jwtVerify(body.data.login.response.accessJWT, key)).payload;
    expect({ ...access, exp: 0 }).toEqual({ exp: 0, groups: ['guardians'], namespace: 0, userid: 'groot' });
  });

  it('groups: added with rules (a later rule for the same predicate wins in place), read back whole', async () => {
    expect(
      await asGroot(`mutation {
        addGroup(input: [{name: "dev", rules: [{predicate: "Post.title", permission: 4}, {predicate: "Post.text", permission: 6}, {predicate: "Post.title", permission: 7}, {predicate: "", permission: 4}]}]) {
          group { name rules { predicate permission } users { name } }
        }
      }`),
    ).toEqual({ data: { addGroup: { group: [{ name: 'dev', rules: [{ predicate: 'Post.title', permission: 7 }, { predicate: 'Post.text', permission: 6 }], users: [] }] } } });
    expect(await asGroot('mutation { addGroup(input: [{name: "dev"}]) { group { name } } }')).toEqual({
      errors: [{ message: "couldn't rewrite mutation addGroup because failed to rewrite mutation payload because id dev already exists for field name inside type Group", locations: [{ line: 1, column: 12 }] }],
      data: { addGroup: null },
    });
  });

  it('users: added (missing groups created), refused when taken or when the password is short', async () => {
    expect(
      await asGroot('mutation { addUser(input: [{name: "alice", password: "alicepass", groups: [{name: "dev"}, {name: "ops"}]}, {name: "bob", password: "bobpass1"}]) { user { name groups { name } } } }'),
    ).toEqual({ data: { addUser: { user: [{ name: 'alice', groups: [{ name: 'dev' }, { name: 'ops' }] }, { name: 'bob', groups: [] }] } } });
    expect(await asGroot('mutation { addUser(input: [{name: "alice", password: "another1"}]) { user { name } } }')).toEqual({
      errors: [{ message: "couldn't rewrite mutation addUser because failed to rewrite mutation payload because id alice already exists for field name inside type User", locations: [{ line: 1, column: 12 }] }],
      data: { addUser: null },
    });
    expect(await asGroot('mutation { addUser(input: [{name: "carl", password: "short"}]) { user { name } } }')).toEqual({
      errors: [{ message: 'mutation addUser failed because Dgraph execution failed because Password too short, i.e. should have at least 6 chars', locations: [{ line: 1, column: 12 }] }],
      data: { addUser: null },
    });
    expect(await asGroot('{ getUser(name: "carl") { name } }')).toEqual({ data: { getUser: null } });
  });

  it('getUser, getGroup, queryUser, queryGroup: filters, order, pages, nested both ways', async () => {
    expect(await asGroot('{ getUser(name: "alice") { name groups { name users { name } rules { predicate permission } } } }')).toEqual({
      data: {
        getUser: {
          name: 'alice',
          groups: [
            { name: 'dev', users: [{ name: 'alice' }], rules: [{ predicate: 'Post.title', permission: 7 }, { predicate: 'Post.text', permission: 6 }] },
            { name: 'ops', users: [{ name: 'alice' }], rules: [] },
          ],
        },
      },
    });
    expect(await asGroot('{ getGroup(name: "guardians") { name users { name } } missing: getGroup(name: "none") { name } }')).toEqual({
      data: { getGroup: { name: 'guardians', users: [{ name: 'groot' }] }, missing: null },
    });
    expect(await asGroot('{ queryUser { name } }')).toEqual({ data: { queryUser: [{ name: 'groot' }, { name: 'alice' }, { name: 'bob' }] } });
    expect(await asGroot('{ queryUser(order: {desc: name}, first: 2, offset: 1) { name } }')).toEqual({ data: { queryUser: [{ name: 'bob' }, { name: 'alice' }] } });
    expect(await asGroot('{ queryUser(filter: {name: {eq: "bob"}, or: {name: {eq: "groot"}}}) { name } }')).toEqual({ data: { queryUser: [{ name: 'groot' }, { name: 'bob' }] } });
    expect(await asGroot('{ queryGroup(filter: {not: {name: {eq: "dev"}}}, order: {asc: name}) { name } }')).toEqual({ data: { queryGroup: [{ name: 'guardians' }, { name: 'ops' }] } });
    expect(await asGroot('{ getCurrentUser { name groups { name } } }')).toEqual({ data: { getCurrentUser: { name: 'groot', groups: [{ name: 'guardians' }] } } });
  });

  it('updateUser: password and groups set and removed; updateGroup: rules set and removed', async () => {
    expect(
      await asGroot('mutation { updateUser(input: {filter: {name: {eq: "bob"}}, set: {password: "bobpass2", groups: [{name: "dev"}, {name: "qa"}]}}) { user { name groups { name } } } }'),
    ).toEqual({ data: { updateUser: { user: [{ name: 'bob', groups: [{ name: 'dev' }, { name: 'qa' }] }] } } });
    expect(await admin('mutation { login(userId: "bob", password: "bobpass1") { response { accessJWT } } }')).toEqual(refusedLogin);
    const bob = (await jwtVerify((await login(server.url, 'bob', 'bobpass2')).accessJWT, key)).payload;
    expect(bob['groups']).toEqual(['dev', 'qa']);
    expect(await asGroot('mutation { updateUser(input: {filter: {name: {eq: "bob"}}, remove: {groups: [{name: "dev"}]}}) { user { name groups { name } } } }')).toEqual({
      data: { updateUser: { user: [{ name: 'bob', groups: [{ name: 'qa' }] }] } },
    });
    expect(await asGroot('mutation { updateUser(input: {filter: {name: {eq: "nobody"}}, set: {password: "whatever1"}}) { user { name } } }')).toEqual({ data: { updateUser: { user: [] } } });
    expect(
      await asGroot(`mutation { updateGroup(input: {filter: {name: {eq: "dev"}}, set: {rules: [{predicate: "Post.text", permission: 4}, {predicate: "dgraph.type", permission: 4}]}, remove: {rules: ["Post.title"]}}) {
        group { name rules { predicate permission } }
      } }`),
    ).toEqual({ data: { updateGroup: { group: [{ name: 'dev', rules: [{ predicate: 'Post.text', permission: 4 }, { predicate: 'dgraph.type', permission: 4 }] }] } } });
    expect(await asGroot('mutation { updateGroup(input: {filter: {name: {eq: "dev"}}, set: {rules: [{predicate: "", permission: 4}]}}) { group { name } } }')).toEqual({
      errors: [
        {
          message: "couldn't rewrite mutation updateGroup because failed to rewrite mutation payload because failed to rewrite set payload because at index 0: predicate value can't be empty string",
          locations: [{ line: 1, column: 12 }],
        },
      ],
      data: { updateGroup: null },
    });
  });

  it('a non-guardian sees only itself and its groups, and may change nothing', async () => {
    const alice = await login(server.url, 'alice', 'alicepass');
    const asAlice = (query: string): Promise<unknown> => admin(query, alice.accessJWT);
    expect(await asAlice('{ queryUser { name groups { name users { name } } } }')).toEqual({
      data: { queryUser: [{ name: 'alice', groups: [{ name: 'dev', users: [{ name: 'alice' }] }, { name: 'ops', users: [{ name: 'alice' }] }] }] },
    });
    expect(await asAlice('{ queryGroup { name } getUser(name: "groot") { name } getGroup(name: "guardians") { name } }')).toEqual({
      data: { queryGroup: [{ name: 'dev' }, { name: 'ops' }], getUser: null, getGroup: null },
    });
    expect(await asAlice('{ getCurrentUser { name } }')).toEqual({ data: { getCurrentUser: { name: 'alice' } } });
    expect(await asAlice('mutation { addUser(input: [{name: "eve", password: "evepass1"}]) { user { name } } }')).toEqual({
      errors: [
        {
          message:
            'mutation addUser failed because Dgraph execution failed because rpc error: code = PermissionDenied desc = unauthorized to mutate following predicates: dgraph.password dgraph.type dgraph.xid \n',
          locations: [{ line: 1, column: 12 }],
        },
      ],
      data: { addUser: null },
    });
    expect(await asAlice('mutation { deleteUser(filter: {name: {eq: "bob"}}) { msg } }')).toEqual({
      errors: [
        {
          message: 'mutation deleteUser failed because Dgraph execution failed because rpc error: code = PermissionDenied desc = unauthorized to mutate following predicates: _STAR_ALL \n',
          locations: [{ line: 1, column: 12 }],
        },
      ],
      data: { deleteUser: null },
    });
    expect(await asAlice('{ getGQLSchema { schema } }')).toEqual({
      errors: [
        {
          message: "resolving getGQLSchema failed because rpc error: code = PermissionDenied desc = Only guardians are allowed access. User 'alice' is not a member of guardians group.",
          locations: [{ line: 1, column: 3 }],
        },
      ],
      data: { getGQLSchema: null },
    });
    // health and state: edgraph's Health(ctx, true) and State call AuthorizeGuardians; the resolver wraps the error in x.Error.
    for (const field of ['health', 'state']) {
      expect(await asAlice(`{ ${field} { __typename } }`)).toEqual({
        errors: [
          {
            message: `resolving ${field} failed because Error: rpc error: code = PermissionDenied desc = Only guardians are allowed access. User 'alice' is not a member of guardians group.`,
            locations: [{ line: 1, column: 3 }],
          },
        ],
        data: { [field]: null },
      });
    }
    expect(await asAlice('mutation { draining(enable: true) { response { code } } }')).toEqual({
      errors: [
        {
          message:
            "resolving draining failed because rpc error: code = PermissionDenied desc = AuthSuperAdmin: failed to authorize guardians. Only guardians are allowed access. User 'alice' is not a member of guardians group.",
          locations: [{ line: 1, column: 12 }],
        },
      ],
      data: { draining: null },
    });
    const uploaded = await uploadSchema(server.url, 'type Post { id: ID! title: String }', { 'X-Dgraph-AccessToken': alice.accessJWT });
    expect(uploaded).toEqual({
      errors: [
        {
          message:
            "resolving updateGQLSchema failed because rpc error: code = PermissionDenied desc = Only guardians are allowed access. User 'alice' is not a member of guardians group. (Locations: [{Line: 3, Column: 4}])",
          extensions: { code: 'Error' },
        },
      ],
    });
  });

  it('without a token: guardians-only operations, user queries and getCurrentUser, health and state refused', async () => {
    expect(await admin('{ getGQLSchema { schema } }')).toEqual({
      errors: [{ message: 'resolving getGQLSchema failed because rpc error: code = PermissionDenied desc = no accessJwt available', locations: [{ line: 1, column: 3 }] }],
      data: { getGQLSchema: null },
    });
    expect(await admin('{ config { logLevel } }')).toEqual({
      errors: [
        {
          message: 'resolving config failed because Authorize guardian of the galaxy, extracting jwt token, error:: extracting namespace from JWT no accessJwt available',
          locations: [{ line: 1, column: 3 }],
        },
      ],
      data: { config: null },
    });
    expect(await admin('{ queryUser { name } }')).toEqual({
      errors: [{ message: 'Dgraph query failed because Dgraph execution failed because rpc error: code = Unauthenticated desc = no accessJwt available', locations: [{ line: 1, column: 3 }] }],
      data: { queryUser: null },
    });
    expect(await admin('{ getCurrentUser { name } }')).toEqual({
      errors: [{ message: "couldn't rewrite query getCurrentUser because no accessJwt available", locations: [{ line: 1, column: 3 }] }],
      data: { getCurrentUser: null },
    });
    expect(await admin('mutation { addGroup(input: [{name: "x"}]) { group { name } } }')).toEqual({
      errors: [{ message: 'mutation addGroup failed because Dgraph execution failed because rpc error: code = Unauthenticated desc = no accessJwt available', locations: [{ line: 1, column: 12 }] }],
      data: { addGroup: null },
    });
    for (const field of ['health', 'state']) {
      expect(await admin(`{ ${field} { __typename } }`)).toEqual({
        errors: [{ message: `resolving ${field} failed because Error: rpc error: code = PermissionDenied desc = no accessJwt available`, locations: [{ line: 1, column: 3 }] }],
        data: { [field]: null },
      });
    }
    expect(await admin('{ health { status } }', groot.accessJWT)).toEqual({ data: { health: [{ status: 'healthy' }] } });
    const malformed = (await admin('{ getGQLSchema { schema } }', 'garbage')) as { errors: { message: string }[] };
    expect(malformed.errors[0]?.message).toBe(
      'resolving getGQLSchema failed because rpc error: code = Unauthenticated desc = unable to parse jwt token: token is malformed: token contains an invalid number of segments',
    );
    const bad = (await admin('{ config { logLevel } }', 'garbage')) as { errors: { message: string }[] };
    expect(bad.errors[0]?.message).toBe(
      'resolving config failed because Authorize guardian of the galaxy, extracting jwt token, error:: extracting namespace from JWT: unable to parse jwt token: token is malformed: token contains an invalid number of segments',
    );
  });

  it('/graphql needs a valid access token; X-Service-AccessToken works as X-Dgraph-AccessToken', async () => {
    expect(await uploadSchema(server.url, 'type Post { id: ID! title: String @search(by: [hash]) }', { 'X-Dgraph-AccessToken': groot.accessJWT })).toEqual(uploadSucceeded);
    // Reading the schema text back (it may hold secrets) needs a guardian too.
    const unread = await send(`${server.url}/admin/schema`);
    expect(unread.json()).toEqual({ errors: [{ message: 'resolving getGQLSchema failed because rpc error: code = PermissionDenied desc = no accessJwt available', extensions: { code: 'Error' } }] });
    expect((await send(`${server.url}/admin/schema`, { headers: { 'X-Dgraph-AccessToken': groot.accessJWT } })).text).toBe('type Post { id: ID! title: String @search(by: [hash]) }');
    const refusedQuery = (reason: string): unknown => ({
      errors: [{ message: `Dgraph query failed because Dgraph execution failed because rpc error: code = Unauthenticated desc = ${reason}`, path: ['queryPost'] }],
      data: { queryPost: null },
    });
    const ask = (token?: string): Promise<unknown> => post(server.url, '/graphql', '{ queryPost { title } }', token);
    expect(await ask()).toEqual(refusedQuery('no accessJwt available'));
    expect(await ask('a.b')).toEqual(refusedQuery('unable to parse jwt token: token is malformed: token contains an invalid number of segments'));
    const now = Math.floor(Date.now() / 1000);
    const claims = { exp: now + 60, groups: ['guardians'], namespace: 0, userid: 'groot' };
    expect(await ask(await signed({ ...claims, exp: now - 1 }))).toEqual(refusedQuery('unable to parse jwt token: token has invalid claims: Token is expired'));
    expect(await ask(await signed({ groups: ['guardians'], namespace: 0, userid: 'groot' }))).toEqual(refusedQuery('Token is expired'));
    expect(await ask(await signed(claims, 'HS384'))).toEqual(refusedQuery('unable to parse jwt token: token is unverifiable: error while executing keyfunc: unexpected signing method in token: HS384'));
    const [head, , signature] = groot.accessJWT.split('.');
    const tampered = `${head}.${Buffer.from(JSON.stringify({ ...claims, userid: 'alice' })).toString('base64url')}.${signature}`;
    expect(await ask(tampered)).toEqual(refusedQuery('unable to parse jwt token: token signature is invalid: signature is invalid'));
    // Malformed tokens and claims in golang-jwt's words (jwt.MapClaims: a date must be a JSON number, 0 is none).
    expect(await ask('a.b.c')).toEqual(refusedQuery('unable to parse jwt token: token is malformed: could not base64 decode header: illegal base64 data at input byte 0'));
    const raw = (text: string): string => Buffer.from(text).toString('base64url');
    expect(await ask(`${head}.${raw('[1]')}.${signature}`)).toEqual(refusedQuery('unable to parse jwt token: token is malformed: could not JSON decode claim: json: cannot unmarshal array into Go value of type jwt.MapClaims'));
    expect(await ask(`${head}.${raw('{"exp":')}.${signature}`)).toEqual(refusedQuery('unable to parse jwt token: token is malformed: could not JSON decode claim: unexpected end of JSON input'));
    expect(await ask(await signed({ ...claims, exp: String(now + 60) }))).toEqual(refusedQuery('unable to parse jwt token: token has invalid claims: invalid type for claim: exp is invalid'));
    expect(await ask(await signed({ ...claims, exp: 0 }))).toEqual(refusedQuery('Token is expired'));
    expect(await ask(await signed({ ...claims, nbf: now + 60 }))).toEqual(refusedQuery('unable to parse jwt token: token has invalid claims: token is not valid yet'));
    expect(await ask(await signed({ ...claims, exp: now - 1, nbf: 'later' }))).toEqual(refusedQuery('unable to parse jwt token: token has invalid claims: Token is expired'));
    expect(await ask(await signed({ ...claims, exp: null, nbf: 'later' }))).toEqual(refusedQuery('unable to parse jwt token: token has invalid claims: invalid type for claim: exp is invalid, invalid type for claim: nbf is invalid'));

    expect(await post(server.url, '/graphql', 'mutation { addPost(input: [{title: "t1"}]) { numUids } second: addPost(input: [{title: "t2"}]) { numUids } }')).toEqual({
      errors: [
        {
          message: 'mutation addPost failed because Dgraph execution failed because rpc error: code = Unauthenticated desc = no accessJwt available',
          locations: [{ line: 1, column: 12 }],
          path: ['addPost'],
        },
        { message: 'Mutation second was not executed because of a previous error.', locations: [{ line: 1, column: 56 }], path: ['second'] },
      ],
      data: { addPost: null, second: null },
    });
    expect(await post(server.url, '/graphql', 'mutation { addPost(input: [{title: "t1"}]) { numUids } }', groot.accessJWT)).toEqual({ data: { addPost: { numUids: 1 } } });
    const serviceHeader = await postGraphql(server.url, { query: '{ queryPost { title } }' }, { 'X-Service-AccessToken': groot.accessJWT });
    expect(await serviceHeader.json()).toEqual({ data: { queryPost: [{ title: 't1' }] }, extensions: { touched_uids: 1 } });
    // Introspection needs no token, as in Dgraph (it never reaches the store).
    expect(await post(server.url, '/graphql', '{ __type(name: "Post") { name } }')).toEqual({ data: { __type: { name: 'Post' } } });
  });

  it('a non-guardian writes only predicates its groups may write; guardians write everything', async () => {
    const alice = await login(server.url, 'alice', 'alicepass');
    const asAlice = (query: string): Promise<unknown> => post(server.url, '/graphql', query, alice.accessJWT);
    const refused = (field: string, blocked: string, column: number): unknown => ({
      message: `mutation ${field} failed because Dgraph execution failed because rpc error: code = PermissionDenied desc = unauthorized to mutate following predicates: ${blocked} \n`,
      locations: [{ line: 1, column }],
      path: [field],
    });
    // dev has READ (4) only on dgraph.type and Post.text; ops has no rules yet.
    expect(await asAlice('mutation { addPost(input: [{title: "by alice"}]) { numUids } }')).toEqual({ errors: [refused('addPost', 'Post.title dgraph.type', 12)], data: { addPost: null } });
    expect(await asGroot('mutation { updateGroup(input: {filter: {name: {eq: "ops"}}, set: {rules: [{predicate: "Post.title", permission: 2}, {predicate: "dgraph.type", permission: 6}]}}) { group { name } } }')).toEqual({
      data: { updateGroup: { group: [{ name: 'ops' }] } },
    });
    // The rules are read when the request runs; the groups were fixed in the token at login.
    expect(await asAlice('mutation { addPost(input: [{title: "by alice"}]) { numUids } }')).toEqual({ data: { addPost: { numUids: 1 } } });
    // Her filter on Post.title, which she may write but not read, is pruned from the upsert query: both posts change.
    expect(await asAlice('mutation { updatePost(input: {filter: {title: {eq: "by alice"}}, set: {title: "edited by alice"}}) { numUids } }')).toEqual({ data: { updatePost: { numUids: 2 } } });
    // Dgraph deletes `<uid> * *`: only a `dgraph.all` rule grants that.
    expect(await asAlice('mutation { deletePost(filter: {}) { msg } addPost(input: [{title: "later"}]) { numUids } }')).toEqual({
      errors: [refused('deletePost', '_STAR_ALL', 12), { message: 'Mutation addPost was not executed because of a previous error.', locations: [{ line: 1, column: 43 }], path: ['addPost'] }],
      data: { deletePost: null, addPost: null },
    });
    const posts = await post(server.url, '/graphql', '{ queryPost(order: {asc: title}) { title } }', groot.accessJWT);
    expect(posts).toEqual({ data: { queryPost: [{ title: 'edited by alice' }, { title: 'edited by alice' }] } });
    expect(await post(server.url, '/graphql', 'mutation { deletePost(filter: {title: {eq: "edited by alice"}}) { numUids } }', groot.accessJWT)).toEqual({ data: { deletePost: { numUids: 2 } } });
  });

  it('resetPassword: guardians of the galaxy set any user\'s password; Dgraph\'s answer and refusals', async () => {
    const reset = (userId: string, password: string, token?: string, namespace = 0): Promise<unknown> =>
      admin(`mutation { resetPassword(input: {userId: "${userId}", password: "${password}", namespace: ${namespace}}) { userId message namespace } }`, token);
    const failed = (reason: string): unknown => ({ errors: [{ message: `resolving resetPassword failed because ${reason}`, locations: [{ line: 1, column: 12 }] }], data: { resetPassword: null } });
    expect(await reset('bob', 'bobpass3')).toEqual(failed('Authorize guardian of the galaxy, extracting jwt token, error:: extracting namespace from JWT no accessJwt available'));
    const alice = await login(server.url, 'alice', 'alicepass');
    expect(await reset('bob', 'bobpass3', alice.accessJWT)).toEqual(
      failed("rpc error: code = PermissionDenied desc = AuthSuperAdmin: failed to authorize guardians. Only guardians are allowed access. User 'alice' is not a member of guardians group."),
    );
    expect(await reset('nobody', 'password1', groot.accessJWT)).toEqual(failed("Failed to reset password, user doesn't exist"));
    expect(await reset('bob', 'password1', groot.accessJWT, 1)).toEqual(failed("Failed to reset password, user doesn't exist"));
    expect(await reset('bob', 'short', groot.accessJWT)).toEqual(failed('Reset password for user bob in namespace 0, got error:: Password too short, i.e. should have at least 6 chars'));
    expect(await reset('bob', 'bobpass3', groot.accessJWT)).toEqual({ data: { resetPassword: { userId: 'bob', message: 'Reset password is successful', namespace: 0 } } });
    expect(await admin('mutation { login(userId: "bob", password: "bobpass2") { response { accessJWT } } }')).toEqual(refusedLogin);
    const bob = await login(server.url, 'bob', 'bobpass3');
    // The password alone changed: the groups are those bob had.
    expect((await jwtVerify(bob.accessJWT, key)).payload).toMatchObject({ userid: 'bob', groups: ['qa'] });
  });

  it('addNamespace and deleteNamespace: guardians of the galaxy only; one namespace here, so Dgraph\'s refusals', async () => {
    const failed = (field: string, reason: string): unknown => ({ errors: [{ message: `resolving ${field} failed because ${reason}`, locations: [{ line: 1, column: 12 }] }], data: { [field]: null } });
    const add = 'mutation { addNamespace(input: {password: "secret1"}) { namespaceId message } }';
    const del = (id: number): string => `mutation { deleteNamespace(input: {namespaceId: ${id}}) { namespaceId message } }`;
    expect(await admin(add)).toEqual(failed('addNamespace', 'Authorize guardian of the galaxy, extracting jwt token, error:: extracting namespace from JWT no accessJwt available'));
    const alice = await login(server.url, 'alice', 'alicepass');
    expect(await admin(del(1), alice.accessJWT)).toEqual(
      failed('deleteNamespace', "rpc error: code = PermissionDenied desc = AuthSuperAdmin: failed to authorize guardians. Only guardians are allowed access. User 'alice' is not a member of guardians group."),
    );
    expect(await admin(add, groot.accessJWT)).toEqual(failed('addNamespace', 'Creating namespace, got error:: this service has one namespace, 0'));
    expect(await admin(del(0), groot.accessJWT)).toEqual(failed('deleteNamespace', 'Cannot delete default namespace'));
    expect(await admin(del(26), groot.accessJWT)).toEqual(failed('deleteNamespace', 'error deleting non-existing namespace 0x1a'));
    expect(await admin('{ state { namespaces } }', groot.accessJWT)).toEqual({ data: { state: { namespaces: [0] } } });
  });

  it('deleteUser and deleteGroup answer Dgraph\'s payload; the deleted cannot log in', async () => {
    expect(await asGroot('mutation { deleteUser(filter: {name: {eq: "bob"}}) { msg numUids } }')).toEqual({ data: { deleteUser: { msg: 'Deleted', numUids: 1 } } });
    expect(await admin('mutation { login(userId: "bob", password: "bobpass2") { response { accessJWT } } }')).toEqual(refusedLogin);
    expect(await asGroot('mutation { deleteGroup(filter: {name: {eq: "ops"}}) { msg numUids } }')).toEqual({ data: { deleteGroup: { msg: 'Deleted', numUids: 1 } } });
    expect(await asGroot('{ getUser(name: "alice") { groups { name } } queryGroup { name } }')).toEqual({
      data: { getUser: { groups: [{ name: 'dev' }] }, queryGroup: [{ name: 'guardians' }, { name: 'dev' }, { name: 'qa' }] },
    });
  });

  it('user and group changes answer with their log record\'s LSN in extensions.lsn, as mutations do; a refused one and a login with none', async () => {
    const raw = async (query: string): Promise<unknown> => (await postGraphql(server.url, { query }, { 'X-Dgraph-AccessToken': groot.accessJWT }, '/admin')).json();
    const { lsn } = ((await raw('{ state { lsn } }')) as { data: { state: { lsn: number } } }).data.state;
    expect(await raw('mutation { addGroup(input: [{name: "lsn"}]) { group { name } } }')).toEqual({ data: { addGroup: { group: [{ name: 'lsn' }] } }, extensions: { lsn: lsn + 1 } });
    expect(await raw('mutation { addUser(input: [{name: "lsn", password: "lsn-password"}]) { user { name } } }')).toEqual({ data: { addUser: { user: [{ name: 'lsn' }] } }, extensions: { lsn: lsn + 2 } });
    expect(await raw('mutation { updateGroup(input: {filter: {name: {eq: "lsn"}}, set: {rules: [{predicate: "x", permission: 4}]}}) { group { name } } }')).toEqual({
      data: { updateGroup: { group: [{ name: 'lsn' }] } },
      extensions: { lsn: lsn + 3 },
    });
    expect(await raw('mutation { deleteUser(filter: {name: {eq: "lsn"}}) { numUids } }')).toEqual({ data: { deleteUser: { numUids: 1 } }, extensions: { lsn: lsn + 4 } });
    expect(await raw('mutation { addGroup(input: [{name: "lsn"}]) { group { name } } }')).toEqual({
      errors: [{ message: "couldn't rewrite mutation addGroup because failed to rewrite mutation payload because id lsn already exists for field name inside type Group", locations: [{ line: 1, column: 12 }] }],
      data: { addGroup: null },
    });
    expect(await raw('mutation { login(userId: "groot", password: "password") { response { accessJWT } } }')).not.toHaveProperty('extensions');
    expect(await raw('{ state { lsn } }')).toEqual({ data: { state: { lsn: lsn + 4 } } });
  });
});

describe('ACL data across restarts', () => {
  const dataDir = join(dir, 'restarts');
  const snapshots = (): string[] => readdirSync(dataDir).filter((f) => f.startsWith('snap-'));

  async function kill(server: ServerProcess): Promise<void> {
    server.child.kill('SIGKILL');
    await server.exited;
  }

  it('users added before a crash log in after it (log replay), after a snapshot, and after a start without ACL', async () => {
    mkdirSync(dataDir);
    const first = await startServer({ rawArgs: aclArgs(dataDir) });
    const groot = await login(first.url, 'groot', 'password');
    expect(await post(first.url, '/admin', 'mutation { addUser(input: [{name: "carol", password: "carolpass"}]) { user { name } } }', groot.accessJWT)).toEqual({
      data: { addUser: { user: [{ name: 'carol' }] } },
    });
    await kill(first);
    expect(snapshots()).toEqual([]);

    const second = await startServer({ rawArgs: aclArgs(dataDir) });
    await login(second.url, 'carol', 'carolpass');
    const groot2 = await login(second.url, 'groot', 'password');
    // With ACL on, a snapshot on demand needs a guardian (Dgraph has no such route).
    const refused = await send(`${second.url}/admin/snapshot`, { method: 'POST' });
    expect({ status: refused.status, body: await refused.json() }).toEqual({
      status: 403,
      body: { errors: [{ message: 'rpc error: code = PermissionDenied desc = no accessJwt available', extensions: { code: 'ErrorUnauthorized' } }] },
    });
    expect(snapshots()).toEqual([]);
    const carolToken = await login(second.url, 'carol', 'carolpass');
    const notGuardian = await send(`${second.url}/admin/snapshot`, { method: 'POST', headers: { 'X-Dgraph-AccessToken': carolToken.accessJWT } });
    expect({ status: notGuardian.status, body: await notGuardian.json() }).toEqual({
      status: 403,
      body: { errors: [{ message: "rpc error: code = PermissionDenied desc = Only guardians are allowed access. User 'carol' is not a member of guardians group.", extensions: { code: 'ErrorUnauthorized' } }] },
    });
    expect((await send(`${second.url}/admin/snapshot`, { method: 'POST', headers: { 'X-Dgraph-AccessToken': groot2.accessJWT } })).status).toBe(200);
    expect(snapshots()).toHaveLength(1);
    expect(await post(second.url, '/admin', 'mutation { updateUser(input: {filter: {name: {eq: "groot"}}, set: {password: "newgrootpass"}}) { user { name } } }', groot2.accessJWT)).toEqual({
      data: { updateUser: { user: [{ name: 'groot' }] } },
    });
    await kill(second);

    // The snapshot holds carol, the log after it the new password; a clean stop then snapshots everything.
    const third = await startServer({ rawArgs: aclArgs(dataDir) });
    await login(third.url, 'carol', 'carolpass');
    expect(await post(third.url, '/admin', 'mutation { login(userId: "groot", password: "password") { response { accessJWT } } }')).toEqual(refusedLogin);
    await login(third.url, 'groot', 'newgrootpass');
    await third.stop();

    const fourth = await startServer({ rawArgs: aclArgs(dataDir) });
    try {
      expect(findLog(fourth.output(), 'restored', { replayed: 0 })).toBeDefined();
      const groot4 = await login(fourth.url, 'groot', 'newgrootpass');
      expect(await post(fourth.url, '/admin', '{ queryUser { name groups { name } } }', groot4.accessJWT)).toEqual({
        data: { queryUser: [{ name: 'groot', groups: [{ name: 'guardians' }] }, { name: 'carol', groups: [] }] },
      });
    } finally {
      await fourth.stop();
    }

    // A start without the flag serves no ACL but keeps its data in the snapshots it writes.
    const plain = await startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--snapshot-interval', '0'] });
    expect(await post(plain.url, '/admin', 'mutation { login(userId: "groot", password: "newgrootpass") { response { accessJWT } } }')).toEqual({
      errors: [{ message: 'Cannot query field "login" on type "Mutation".', locations: [loginAt] }],
    });
    expect((await send(`${plain.url}/admin/snapshot`, { method: 'POST' })).status).toBe(200);
    await kill(plain);
    const fifth = await startServer({ rawArgs: aclArgs(dataDir) });
    try {
      expect(findLog(fifth.output(), 'restored', { replayed: 0 })).toBeDefined();
      await login(fifth.url, 'carol', 'carolpass');
    } finally {
      await fifth.stop();
    }
  }, 60_000);
});
