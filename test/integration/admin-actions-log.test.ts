// Admin actions in the real server's JSON log: each /admin change, once it succeeded, is one info record
// `admin action` naming the operation and who did it (`by`: the ACL user, else `admin key` when one is
// set, else `anonymous`), never the key, a token or a password.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aclLogin, aclPost } from './helpers/acl-client.js';
import { send, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { findLogs, type LogRecord } from './helpers/log-records.js';
import { makeTempDir, startServer, type ServerProcess } from './helpers/server-process.js';

const servers: ServerProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

/** The `admin action` records (without time and pid) once `count` are written (the destination is async). */
async function actions(server: ServerProcess, count: number): Promise<Omit<LogRecord, 'time' | 'pid'>[]> {
  await vi.waitFor(() => expect(findLogs(server.output(), 'admin action').length).toBeGreaterThanOrEqual(count));
  await new Promise((resolve) => setTimeout(resolve, 100));
  return findLogs(server.output(), 'admin action').map(({ time: _time, pid: _pid, ...rest }) => rest);
}

const schema = 'type Item { code: String! @id name: String }';

describe('admin actions are logged with who did them', () => {
  it('with an admin key: schema uploads (both routes), export, draining on and off, config, an on-demand snapshot, shutdown; failures and reads are not actions; the key never appears', async () => {
    const adminKey = 'admin-actions-key-5f1e9c0d7b';
    const server = await startServer({ args: ['--log-requests', 'none'], env: { SERVICE_ADMIN_KEY: adminKey } });
    servers.push(server);
    const key = { 'x-auth-token': adminKey };
    expect(await uploadSchema(server.url, schema, key)).toEqual(uploadSucceeded);
    await vi.waitFor(() => expect(findLogs(server.output(), 'schema updated')).toHaveLength(1));
    const { time: _t, pid: _p, ...updated } = findLogs(server.output(), 'schema updated')[0] ?? { level: '', msg: '' };
    expect(updated).toEqual({ level: 'info', msg: 'schema updated', counter: 1, by: 'admin key' });
    const admin = (query: string): ReturnType<typeof aclPost> => aclPost(server.url, '/admin', query, key);
    expect(await admin(`mutation { updateGQLSchema(input: {set: {schema: "${schema} type Other { id: ID! n: String }"}}) { gqlSchema { id } } }`)).toEqual({ data: { updateGQLSchema: { gqlSchema: { id: '0x1' } } } });
    expect(await admin('mutation { updateGQLSchema(input: {set: {schema: "type Broken { other: Missing }"}}) { gqlSchema { id } } }')).toMatchObject({ data: { updateGQLSchema: null } });
    const exported = (await admin('mutation { export(input: {format: "json"}) { taskId } }')) as { data: { export: { taskId: string } } };
    expect(exported.data.export.taskId).toMatch(/^0x[0-9a-f]+$/);
    expect(await admin('mutation { draining(enable: true) { response { message } } }')).toEqual({ data: { draining: { response: { message: 'draining mode has been set to true' } } } });
    expect(await admin('mutation { draining(enable: false) { response { message } } }')).toEqual({ data: { draining: { response: { message: 'draining mode has been set to false' } } } });
    expect(await admin('mutation { config(input: {logLevel: "debug"}) { response { code } } }')).toEqual({ data: { config: { response: { code: 'Success' } } } });
    expect(await admin('mutation { config(input: {logLevel: "info"}) { response { code } } }')).toEqual({ data: { config: { response: { code: 'Success' } } } });
    expect(await admin('{ config { logLevel } health { status } }')).toEqual({ data: { config: { logLevel: 'info' }, health: [{ status: 'healthy' }] } });
    expect(await actions(server, 6)).toEqual([
      { level: 'info', msg: 'admin action', action: 'updateGQLSchema', by: 'admin key' },
      { level: 'info', msg: 'admin action', action: 'export', by: 'admin key', taskId: exported.data.export.taskId },
      { level: 'info', msg: 'admin action', action: 'draining', by: 'admin key', enable: true },
      { level: 'info', msg: 'admin action', action: 'draining', by: 'admin key', enable: false },
      { level: 'info', msg: 'admin action', action: 'config', by: 'admin key', logLevel: 'debug' },
      { level: 'info', msg: 'admin action', action: 'config', by: 'admin key', logLevel: 'info' },
    ]);
    // The export's own lines: its start and its end with the totals (no progress line: it takes less than 2 s).
    expect(findLogs(server.output(), /^export/).map(({ msg, taskId, nodes, types }) => [msg, taskId, nodes, types])).toEqual([
      ['export started', exported.data.export.taskId, undefined, undefined],
      ['export written', exported.data.export.taskId, 0, 2],
    ]);
    // POST /admin/snapshot, an admin route of this service's own: its line names the caller too.
    const snapshot = await send(`${server.url}/admin/snapshot`, { method: 'POST', headers: key });
    const { lsn } = (snapshot.json() as { data: { lsn: number } }).data;
    await vi.waitFor(() => expect(findLogs(server.output(), 'snapshot on demand').map(({ lsn, by }) => [lsn, by])).toEqual([[lsn, 'admin key']]));
    expect(await admin('mutation { shutdown { response { message } } }')).toEqual({ data: { shutdown: { response: { message: 'Server is shutting down' } } } });
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect((await actions(server, 7)).at(-1)).toEqual({ level: 'info', msg: 'admin action', action: 'shutdown', by: 'admin key' });
    expect(server.output()).not.toContain(adminKey);
  });

  it('with no key and no ACL the caller is anonymous', async () => {
    const server = await startServer({ args: ['--log-requests', 'none'] });
    servers.push(server);
    expect(await aclPost(server.url, '/admin', 'mutation { draining(enable: false) { response { code } } }')).toEqual({ data: { draining: { response: { code: 'Success' } } } });
    expect(await actions(server, 1)).toEqual([{ level: 'info', msg: 'admin action', action: 'draining', by: 'anonymous', enable: false }]);
  });

  it('with ACL: user and group changes and password changes by the guardian who made them; refused changes are not logged; no password or token in the log', async () => {
    const dir = makeTempDir('admin-actions-acl-');
    const secretFile = join(dir, 'hmac-secret');
    writeFileSync(secretFile, 'an-acl-secret-of-at-least-32-bytes!!');
    const server = await startServer({ args: ['--acl-secret-file', secretFile, '--snapshot-interval', '0', '--log-requests', 'none'] });
    servers.push(server);
    const groot = await aclLogin(server.url, 'groot', 'password');
    const asGroot = (query: string): ReturnType<typeof aclPost> => aclPost(server.url, '/admin', query, { 'X-Dgraph-AccessToken': groot });
    expect(await asGroot('mutation { addGroup(input: [{name: "dev"}]) { group { name } } }')).toEqual({ data: { addGroup: { group: [{ name: 'dev' }] } } });
    expect(await asGroot('mutation { addUser(input: [{name: "alice", password: "alice-first-pw-73", groups: [{name: "dev"}]}, {name: "bob", password: "bob-first-pw-19"}]) { user { name } } }')).toEqual({
      data: { addUser: { user: [{ name: 'alice' }, { name: 'bob' }] } },
    });
    expect(await asGroot('mutation { updateUser(input: {filter: {name: {eq: "alice"}}, set: {password: "alice-second-pw-41"}}) { user { name } } }')).toEqual({ data: { updateUser: { user: [{ name: 'alice' }] } } });
    expect(await asGroot('mutation { resetPassword(input: {userId: "bob", password: "bob-second-pw-88", namespace: 0}) { userId message } }')).toEqual({
      data: { resetPassword: { userId: 'bob', message: 'Reset password is successful' } },
    });
    expect(await asGroot('mutation { updateGroup(input: {filter: {name: {eq: "dev"}}, set: {rules: [{predicate: "Item.name", permission: 4}]}}) { group { name } } }')).toEqual({ data: { updateGroup: { group: [{ name: 'dev' }] } } });
    // alice is no guardian: her change is refused, and not an action.
    const alice = await aclLogin(server.url, 'alice', 'alice-second-pw-41');
    expect(await aclPost(server.url, '/admin', 'mutation { deleteUser(filter: {name: {eq: "bob"}}) { numUids } }', { 'X-Dgraph-AccessToken': alice })).toMatchObject({ data: { deleteUser: null } });
    expect(await asGroot('mutation { deleteUser(filter: {name: {eq: "bob"}}) { msg numUids } }')).toEqual({ data: { deleteUser: { msg: 'Deleted', numUids: 1 } } });
    expect(await asGroot('mutation { deleteGroup(filter: {name: {eq: "dev"}}) { msg numUids } }')).toEqual({ data: { deleteGroup: { msg: 'Deleted', numUids: 1 } } });
    expect(await uploadSchema(server.url, schema, { 'X-Dgraph-AccessToken': groot })).toEqual(uploadSucceeded);
    expect(await actions(server, 7)).toEqual([
      { level: 'info', msg: 'admin action', action: 'addGroup', by: 'groot', groups: 'dev' },
      { level: 'info', msg: 'admin action', action: 'addUser', by: 'groot', users: 'alice,bob' },
      { level: 'info', msg: 'admin action', action: 'updateUser', by: 'groot', users: 'alice', passwordChanged: true },
      { level: 'info', msg: 'admin action', action: 'resetPassword', by: 'groot', users: 'bob', passwordChanged: true },
      { level: 'info', msg: 'admin action', action: 'updateGroup', by: 'groot', groups: 'dev' },
      { level: 'info', msg: 'admin action', action: 'deleteUser', by: 'groot', name: 'bob', numUids: 1 },
      { level: 'info', msg: 'admin action', action: 'deleteGroup', by: 'groot', name: 'dev', numUids: 1 },
    ]);
    await vi.waitFor(() => expect(findLogs(server.output(), 'schema updated', { by: 'groot' })).toHaveLength(1));
    for (const secret of ['alice-first-pw-73', 'bob-first-pw-19', 'alice-second-pw-41', 'bob-second-pw-88', groot, alice]) expect(server.output().includes(secret)).toBe(false);
  });
});
