// The ACL probed as a hostile client would, over real HTTP: groot and guardians cannot be deleted or
// parted (Dgraph's checkIfDeletingAclOperation), passwords measured in bytes as Go does (6 at least,
// bcrypt's 72 at most), token confusions, and no secret, hash or token in answers or logs.

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { makeTempDir, runToExit, startServer, type ServerProcess } from './helpers/server-process.js';

const secret = 'a-hostile-acl-secret-of-32-bytes-at-least';
const key = new TextEncoder().encode(secret);
const dir = makeTempDir('service-acl-hostile-');
const secretFile = join(dir, 'hmac-secret');
writeFileSync(secretFile, secret);

interface Tokens {
  readonly accessJWT: string;
  readonly refreshJWT: string;
}

const at = { line: 1, column: 12 };
const reserved = 'Reserved Properties of guardians group and groot user cannot be deleted.';
const failed = (field: string, reason: string, column = 12): unknown => ({
  message: `mutation ${field} failed because Dgraph execution failed because ${reason}`,
  locations: [{ line: 1, column }],
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const refusedLogin = { errors: [{ message: 'resolving login failed because invalid username or password', locations: [at] }], data: { login: null } };

describe('a hostile client against the ACL', () => {
  let server: ServerProcess;
  let groot: Tokens;
  const dataDir = join(dir, 'data');

  async function post(path: string, query: string, headers: Record<string, string> = {}, variables?: Record<string, unknown>): Promise<unknown> {
    const answer = await postGraphql(server.url, { query, variables }, headers, path);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { extensions?: unknown };
    delete body.extensions;
    return body;
  }
  const admin = (query: string, token?: string, variables?: Record<string, unknown>): Promise<unknown> =>
    post('/admin', query, token === undefined ? {} : { 'X-Dgraph-AccessToken': token }, variables);
  const asGroot = (query: string, variables?: Record<string, unknown>): Promise<unknown> => admin(query, groot.accessJWT, variables);
  async function login(userId: string, password: string): Promise<Tokens> {
    const body = (await admin('mutation($u: String!, $p: String!) { login(userId: $u, password: $p) { response { accessJWT refreshJWT } } }', undefined, { u: userId, p: password })) as {
      data: { login: { response: Tokens } | null };
    };
    expect(body.data.login).not.toBeNull();
    return body.data.login!.response;
  }
  const loginAnswer = (userId: string, password: string): Promise<unknown> =>
    admin('mutation($u: String!, $p: String!) { login(userId: $u, password: $p) { response { accessJWT } } }', undefined, { u: userId, p: password });

  beforeAll(async () => {
    mkdirSync(dataDir);
    server = await startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--acl-secret-file', secretFile, '--snapshot-interval', '0'] });
    groot = await login('groot', 'password');
  }, 30_000);
  afterAll(async () => {
    await server.stop();
  });

  it('groot and guardians cannot be deleted, nor groot taken out of a group; the state is unchanged', async () => {
    expect(await asGroot('mutation { addUser(input: [{name: "dave", password: "davepass", groups: [{name: "dev"}]}]) { user { name } } }')).toEqual({ data: { addUser: { user: [{ name: 'dave' }] } } });
    expect(await asGroot('mutation { updateUser(input: {filter: {name: {eq: "groot"}}, set: {groups: [{name: "dev"}]}}) { user { name } } }')).toEqual({ data: { updateUser: { user: [{ name: 'groot' }] } } });
    expect(await asGroot('mutation { updateGroup(input: {filter: {name: {eq: "guardians"}}, set: {rules: [{predicate: "Post.title", permission: 4}]}}) { group { name } } }')).toEqual({
      data: { updateGroup: { group: [{ name: 'guardians' }] } },
    });

    expect(await asGroot('mutation { deleteUser(filter: {name: {eq: "groot"}}) { msg numUids } }')).toEqual({ errors: [failed('deleteUser', reserved)], data: { deleteUser: null } });
    // One filter matching groot and another: nothing is deleted.
    expect(await asGroot('mutation { deleteUser(filter: {or: {name: {eq: "dave"}}, name: {eq: "groot"}}) { msg numUids } }')).toEqual({ errors: [failed('deleteUser', reserved)], data: { deleteUser: null } });
    expect(await asGroot('mutation { deleteGroup(filter: {name: {eq: "guardians"}}) { msg numUids } }')).toEqual({ errors: [failed('deleteGroup', reserved)], data: { deleteGroup: null } });
    for (const group of ['guardians', 'dev']) {
      expect(await asGroot(`mutation { updateUser(input: {filter: {name: {eq: "groot"}}, remove: {groups: [{name: "${group}"}]}}) { user { name } } }`)).toEqual({
        errors: [failed('updateUser', reserved)],
        data: { updateUser: null },
      });
    }
    expect(await asGroot('mutation { updateGroup(input: {filter: {name: {eq: "guardians"}}, remove: {rules: ["Post.title"]}}) { group { name } } }')).toEqual({
      errors: [failed('updateGroup', reserved)],
      data: { updateGroup: null },
    });
    // What deletes nothing on groot or guardians still runs: a group groot is not in, a rule guardians lacks, another user.
    expect(await asGroot('mutation { updateUser(input: {filter: {name: {eq: "groot"}}, remove: {groups: [{name: "nosuchgroup"}]}, set: {password: "grootpass2"}}) { user { name } } }')).toEqual({
      data: { updateUser: { user: [{ name: 'groot' }] } },
    });
    expect(await asGroot('mutation { updateGroup(input: {filter: {name: {eq: "guardians"}}, remove: {rules: ["Post.text"]}}) { group { name rules { predicate } } } }')).toEqual({
      data: { updateGroup: { group: [{ name: 'guardians', rules: [{ predicate: 'Post.title' }] }] } },
    });
    expect(await asGroot('mutation { updateUser(input: {filter: {name: {eq: "dave"}}, remove: {groups: [{name: "dev"}]}}) { user { name groups { name } } } }')).toEqual({
      data: { updateUser: { user: [{ name: 'dave', groups: [] }] } },
    });

    expect(await asGroot('{ queryUser { name groups { name } } queryGroup { name rules { predicate permission } } }')).toEqual({
      data: {
        queryUser: [
          { name: 'groot', groups: [{ name: 'guardians' }, { name: 'dev' }] },
          { name: 'dave', groups: [] },
        ],
        queryGroup: [
          { name: 'guardians', rules: [{ predicate: 'Post.title', permission: 4 }] },
          { name: 'dev', rules: [] },
        ],
      },
    });
    groot = await login('groot', 'grootpass2');
  });

  it('passwords are measured in UTF-8 bytes as Go does: at least 6, at most bcrypt\'s 72', async () => {
    const add = (name: string, password: string): Promise<unknown> =>
      asGroot('mutation($n: String!, $p: String!) { addUser(input: [{name: $n, password: $p}]) { user { name } } }', { n: name, p: password });
    // Three characters, six bytes: long enough for Dgraph.
    expect(await add('accent', 'ééé')).toEqual({ data: { addUser: { user: [{ name: 'accent' }] } } });
    await login('accent', 'ééé');
    expect(await add('short', 'éé')).toEqual({ errors: [failed('addUser', 'Password too short, i.e. should have at least 6 chars', 38)], data: { addUser: null } });
    expect(await add('long', 'a'.repeat(73))).toEqual({ errors: [failed('addUser', 'bcrypt: password length exceeds 72 bytes', 38)], data: { addUser: null } });
    expect(await add('longer', 'é'.repeat(37))).toEqual({ errors: [failed('addUser', 'bcrypt: password length exceeds 72 bytes', 38)], data: { addUser: null } });
    expect(
      await asGroot('mutation($p: String!) { updateUser(input: {filter: {name: {eq: "accent"}}, set: {password: $p}}) { user { name } } }', { p: 'b'.repeat(73) }),
    ).toEqual({ errors: [failed('updateUser', 'bcrypt: password length exceeds 72 bytes', 25)], data: { updateUser: null } });
    expect(await asGroot('{ queryUser(filter: {name: {eq: "long"}}) { name } }')).toEqual({ data: { queryUser: [] } });
    await login('accent', 'ééé');
    // 72 bytes are taken whole; as in Go's bcrypt, a login's bytes past the 72nd are not compared.
    expect(await add('max', 'a'.repeat(72))).toEqual({ data: { addUser: { user: [{ name: 'max' }] } } });
    await login('max', 'a'.repeat(72));
    await login('max', `${'a'.repeat(72)}tail`);
    expect(await loginAnswer('max', 'a'.repeat(71))).toEqual({ ...refusedLogin, errors: [{ ...refusedLogin.errors[0], locations: [{ line: 1, column: 38 }] }] });
  });

  it('an empty user or group name is refused as Dgraph refuses an empty @id (its predicate is dgraph.xid); odd names are kept', async () => {
    const rewrite = (field: string, column = 12): unknown => ({
      errors: [{ message: `couldn't rewrite mutation ${field} because failed to rewrite mutation payload because encountered an empty value for @id field \`dgraph.xid\``, locations: [{ line: 1, column }] }],
      data: { [field]: null },
    });
    expect(await asGroot('mutation { addUser(input: [{name: "", password: "emptyname"}]) { user { name } } }')).toEqual(rewrite('addUser'));
    expect(await asGroot('mutation { addUser(input: [{name: "fine", password: "finepass"}, {name: "nested", password: "nestedpass", groups: [{name: ""}]}]) { user { name } } }')).toEqual(
      rewrite('addUser'),
    );
    expect(await asGroot('mutation { addGroup(input: [{name: ""}]) { group { name } } }')).toEqual(rewrite('addGroup'));
    const duplicate = (field: string, name: string): unknown => ({
      errors: [{ message: `couldn't rewrite mutation ${field} because failed to rewrite mutation payload because duplicate XID found: ${name}`, locations: [at] }],
      data: { [field]: null },
    });
    expect(await asGroot('mutation { addUser(input: [{name: "twin", password: "twinpass1"}, {name: "twin", password: "twinpass2"}]) { user { name } } }')).toEqual(duplicate('addUser', 'twin'));
    expect(await asGroot('mutation { addGroup(input: [{name: "pair"}, {name: "pair"}]) { group { name } } }')).toEqual(duplicate('addGroup', 'pair'));
    // A group named twice as a reference is one group.
    expect(await asGroot('mutation { addUser(input: [{name: "twin", password: "twinpass1", groups: [{name: "pair"}, {name: "pair"}]}]) { user { name groups { name } } } }')).toEqual({
      data: { addUser: { user: [{ name: 'twin', groups: [{ name: 'pair' }] }] } },
    });
    for (const patch of ['set', 'remove']) {
      expect(await asGroot(`mutation { updateUser(input: {filter: {name: {eq: "dave"}}, ${patch}: {groups: [{name: ""}]}}) { user { name } } }`)).toEqual(rewrite('updateUser'));
    }
    // Unicode, spaces and quotes are names like any other; a huge one too.
    const odd = ['名前 with space', 'quote"and\\back', 'x'.repeat(10_000)];
    for (const name of odd) {
      expect(await asGroot('mutation($n: String!) { addUser(input: [{name: $n, password: "oddpass"}]) { user { name } } }', { n: name })).toEqual({ data: { addUser: { user: [{ name }] } } });
      await login(name, 'oddpass');
    }
    expect(await asGroot('{ queryUser(filter: {name: {eq: ""}}) { name } queryGroup(filter: {name: {eq: ""}}) { name } }')).toEqual({ data: { queryUser: [], queryGroup: [] } });
    expect(await asGroot('mutation { deleteUser(filter: {name: {eq: "fine"}}) { numUids } }')).toEqual({ data: { deleteUser: { numUids: 0 } } });
  });

  it('a non-guardian with WRITE on dgraph.all deletes only what it sees (itself, its groups), never takes guardians', async () => {
    expect(
      await asGroot(`mutation {
        addGroup(input: [{name: "esc", rules: [{predicate: "dgraph.all", permission: 7}, {predicate: "dgraph.user.group", permission: 7}]}]) { group { name } }
        addUser(input: [{name: "mallory", password: "mallorypass", groups: [{name: "esc"}]}, {name: "ward", password: "wardpass", groups: [{name: "guardians"}]}]) { user { name } }
      }`),
    ).toEqual({ data: { addGroup: { group: [{ name: 'esc' }] }, addUser: { user: [{ name: 'mallory' }, { name: 'ward' }] } } });
    const mallory = (await login('mallory', 'mallorypass')).accessJWT;
    const asMallory = (query: string): Promise<unknown> => admin(query, mallory);
    const blocked = (field: string, predicates: string): unknown => ({
      errors: [failed(field, `rpc error: code = PermissionDenied desc = unauthorized to mutate following predicates: ${predicates} \n`)],
      data: { [field]: null },
    });
    expect(await asMallory('mutation { updateUser(input: {filter: {name: {eq: "mallory"}}, set: {groups: [{name: "guardians"}]}}) { user { name } } }')).toEqual(
      blocked('updateUser', 'dgraph.user.group'),
    );
    expect(await asMallory('mutation { updateGroup(input: {filter: {name: {eq: "esc"}}, set: {rules: [{predicate: "dgraph.xid", permission: 7}]}}) { group { name } } }')).toEqual(
      blocked('updateGroup', 'dgraph.acl.rule dgraph.rule.permission dgraph.rule.predicate'),
    );
    expect(await asMallory('mutation { addUser(input: [{name: "sybil", password: "sybilpass"}]) { user { name } } }')).toEqual(blocked('addUser', 'dgraph.password dgraph.xid'));
    // Dgraph's query before the delete sees only the caller and its groups (addUserFilterToQuery).
    for (const [field, name] of [
      ['deleteUser', 'ward'],
      ['deleteUser', 'groot'],
      ['deleteGroup', 'guardians'],
    ]) {
      expect(await asMallory(`mutation { ${field}(filter: {name: {eq: "${name}"}}) { msg numUids } }`)).toEqual({ data: { [field as string]: { msg: 'Deleted', numUids: 0 } } });
    }
    expect(await asMallory('mutation { deleteUser(filter: {}) { msg numUids } }')).toEqual({ data: { deleteUser: { msg: 'Deleted', numUids: 1 } } });
    // Its token still names its groups (fixed at login, as in Dgraph) until it expires.
    expect(await asMallory('mutation { deleteGroup(filter: {name: {eq: "esc"}}) { msg numUids } }')).toEqual({ data: { deleteGroup: { msg: 'Deleted', numUids: 1 } } });
    // Without the group's rules, nothing more.
    expect(await asMallory('mutation { deleteGroup(filter: {}) { msg numUids } }')).toEqual(blocked('deleteGroup', '_STAR_ALL'));
    await login('ward', 'wardpass');
    expect(await loginAnswer('mallory', 'mallorypass')).toEqual({ ...refusedLogin, errors: [{ ...refusedLogin.errors[0], locations: [{ line: 1, column: 38 }] }] });
    expect(await asGroot('{ getGroup(name: "guardians") { users { name } } getGroup2: getGroup(name: "esc") { name } }')).toEqual({
      data: { getGroup: { users: [{ name: 'groot' }, { name: 'ward' }] }, getGroup2: null },
    });
  });

  it('permissions are bit sets as Dgraph reads them: 8 grants nothing, -1 everything', async () => {
    expect(await uploadSchema(server.url, 'type Note { id: ID! text: String }', { 'X-Dgraph-AccessToken': groot.accessJWT })).toEqual(uploadSucceeded);
    expect(
      await asGroot(`mutation {
        addGroup(input: [{name: "eight", rules: [{predicate: "Note.text", permission: 8}, {predicate: "dgraph.type", permission: 8}]}, {name: "minus", rules: [{predicate: "Note.text", permission: -1}, {predicate: "dgraph.type", permission: -1}]}]) { group { name rules { permission } } }
        addUser(input: [{name: "octo", password: "octopass", groups: [{name: "eight"}]}, {name: "neg", password: "negpass", groups: [{name: "minus"}]}]) { user { name } }
      }`),
    ).toEqual({
      data: {
        addGroup: { group: [{ name: 'eight', rules: [{ permission: 8 }, { permission: 8 }] }, { name: 'minus', rules: [{ permission: -1 }, { permission: -1 }] }] },
        addUser: { user: [{ name: 'octo' }, { name: 'neg' }] },
      },
    });
    const addNote = async (user: string, password: string): Promise<unknown> =>
      post('/graphql', 'mutation { addNote(input: [{text: "hi"}]) { numUids } }', { 'X-Dgraph-AccessToken': (await login(user, password)).accessJWT });
    expect(await addNote('octo', 'octopass')).toEqual({
      errors: [{ ...(failed('addNote', 'rpc error: code = PermissionDenied desc = unauthorized to mutate following predicates: Note.text dgraph.type \n') as object), path: ['addNote'] }],
      data: { addNote: null },
    });
    expect(await addNote('neg', 'negpass')).toEqual({ data: { addNote: { numUids: 1 } } });
  });

  it('token confusions: a refresh token is an access token without groups (as in Dgraph), alg none and other keys refused', async () => {
    const guardianOnly = (reason: string): unknown => ({ errors: [{ message: `resolving getGQLSchema failed because rpc error: code = ${reason}`, locations: [{ line: 1, column: 3 }] }], data: { getGQLSchema: null } });
    expect(await admin('{ getGQLSchema { schema } }', groot.refreshJWT)).toEqual(guardianOnly("PermissionDenied desc = Only guardians are allowed access. User 'groot' is not a member of guardians group."));
    // An access token logs in as a refresh token does (Dgraph's validateToken reads both).
    const again = (await admin(`mutation { login(refreshToken: "${groot.accessJWT}") { response { accessJWT } } }`)) as { data: { login: { response: { accessJWT: string } } } };
    expect(again.data.login.response.accessJWT.split('.')).toHaveLength(3);

    const now = Math.floor(Date.now() / 1000);
    const claims = { exp: now + 600, groups: ['guardians'], namespace: 0, userid: 'groot' };
    const none = new UnsecuredJWT(claims).encode();
    expect(await admin('{ getGQLSchema { schema } }', none)).toEqual(
      guardianOnly('Unauthenticated desc = unable to parse jwt token: token is unverifiable: error while executing keyfunc: unexpected signing method in token: none'),
    );
    const otherKey = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(32)));
    expect(await admin('{ getGQLSchema { schema } }', otherKey)).toEqual(guardianOnly('Unauthenticated desc = unable to parse jwt token: token signature is invalid: signature is invalid'));
    const notYet = await new SignJWT({ ...claims, nbf: now + 600 }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect(await admin('{ getGQLSchema { schema } }', notYet)).toEqual(guardianOnly('Unauthenticated desc = unable to parse jwt token: token has invalid claims: token is not valid yet'));
    // `Bearer ` is no part of an ACL token in Dgraph.
    expect(await admin('{ getGQLSchema { schema } }', `Bearer ${groot.accessJWT}`)).toEqual(
      guardianOnly('Unauthenticated desc = unable to parse jwt token: token is malformed: could not base64 decode header: illegal base64 data at input byte 6'),
    );
  });

  it('no secret, password hash, password or token in answers or the server log', async () => {
    const dump = JSON.stringify(await asGroot('{ queryUser { name groups { name users { name } } } queryGroup { name users { name } rules { predicate permission } } getCurrentUser { name } }'));
    await loginAnswer('groot', 'wrong-password-attempt');
    await admin('{ getGQLSchema { schema } }', `${groot.accessJWT}x`);
    const output = server.output();
    for (const text of [dump, output]) {
      expect(text).not.toContain(secret);
      expect(text).not.toMatch(/\$2[aby]\$/);
      expect(text).not.toContain('grootpass2');
      expect(text).not.toContain('wrong-password-attempt');
      expect(text).not.toContain(groot.accessJWT.split('.')[2]);
    }
  });
});

describe('a damaged ACL log record', () => {
  const dataDir = join(dir, 'damaged');
  const args = (extra: readonly string[] = []): string[] => ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--acl-secret-file', secretFile, '--snapshot-interval', '0', ...extra];
  async function call(url: string, query: string, token?: string): Promise<unknown> {
    const answer = await postGraphql(url, { query }, token === undefined ? {} : { 'X-Dgraph-AccessToken': token }, '/admin');
    const body = (await answer.json()) as { extensions?: unknown };
    delete body.extensions;
    return body;
  }
  const accessOf = async (url: string, user: string, password: string): Promise<string | undefined> =>
    ((await call(url, `mutation { login(userId: "${user}", password: "${password}") { response { accessJWT } } }`)) as { data: { login: { response: { accessJWT: string } } | null } }).data.login?.response
      .accessJWT;

  it('in the middle of the log: the server refuses to start; --recover keeps the changes before it and says what was lost', async () => {
    mkdirSync(dataDir);
    const first = await startServer({ rawArgs: args() });
    const groot = (await accessOf(first.url, 'groot', 'password')) as string;
    for (const name of ['erin', 'frank']) {
      expect(await call(first.url, `mutation { addUser(input: [{name: "${name}", password: "${name}pass"}]) { user { name } } }`, groot)).toEqual({ data: { addUser: { user: [{ name }] } } });
    }
    first.child.kill('SIGKILL');
    await first.exited;

    // Records: groot and guardians, erin, frank. A payload byte of erin's record is flipped.
    const log = join(dataDir, readdirSync(dataDir).find((n) => n.startsWith('wal-')) as string);
    const bytes = readFileSync(log);
    const erinAt = 16 + 8 + bytes.readUInt32LE(16);
    const flipped = erinAt + 8 + 20;
    bytes[flipped] = (bytes[flipped] as number) ^ 0x20;
    writeFileSync(log, bytes);

    const refused = await runToExit({ rawArgs: args() });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`mutation log ${log} is damaged at offset ${erinAt}: checksum mismatch, yet a valid record (LSN `);
    expect(refused.output).toContain('Refusing to start. Start with --recover');

    const recovered = await startServer({ rawArgs: args(['--recover']) });
    try {
      expect(recovered.output()).toMatch(/--recover: truncated the log there\. LOST: \d+ bytes/);
      expect(await accessOf(recovered.url, 'erin', 'erinpass')).toBeUndefined();
      expect(await accessOf(recovered.url, 'frank', 'frankpass')).toBeUndefined();
      const grootAgain = await accessOf(recovered.url, 'groot', 'password');
      expect(await call(recovered.url, '{ queryUser { name groups { name } } }', grootAgain)).toEqual({ data: { queryUser: [{ name: 'groot', groups: [{ name: 'guardians' }] }] } });
    } finally {
      await recovered.stop();
    }
  }, 60_000);
});
