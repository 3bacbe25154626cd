// `--cluster` with `--acl-secret-file`: two service nodes started at once write the ACL's defaults (groot,
// guardians) once, through the shared log; a user added on one node logs in on the other after
// `X-Service-Read-After`; users added on both nodes at once are both kept; the nodes' digests agree; a
// third node seeded from a peer (`--cluster-seed`) with no password on its command line joins with the same users.

import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aclSecret } from '../integration/helpers/acl-server.js';
import { postGraphql, send, uploadSchema, uploadSucceeded } from '../integration/helpers/http.js';
import { findLog } from '../integration/helpers/log-records.js';
import { makeTempDir, runToExit, startServer, type ServerProcess } from '../integration/helpers/server-process.js';
import { natsAvailable, natsSkipMessage, startNatsCluster, type NatsCluster } from './nats-cluster.js';
import { comparable } from './service-nodes.js';

if (!natsAvailable) console.warn(natsSkipMessage);

async function admin(url: string, query: string, headers: Record<string, string> = {}): Promise<any> {
  const answer = await postGraphql(url, { query }, headers, '/admin');
  expect(answer.status).toBe(200);
  return answer.json();
}
const login = async (url: string, user: string, password: string, headers: Record<string, string> = {}): Promise<any> =>
  admin(url, `mutation { login(userId: "${user}", password: "${password}") { response { accessJWT } } }`, headers);
const token = async (url: string, user: string, password: string): Promise<string> => (await login(url, user, password)).data.login.response.accessJWT;

describe.skipIf(!natsAvailable)('two service nodes with ACL on one JetStream log', () => {
  let nats: NatsCluster;
  let a: ServerProcess;
  let b: ServerProcess;
  let c: ServerProcess | undefined;
  let args: string[];
  const dir = makeTempDir('cluster-acl-');
  const secretFile = join(dir, 'hmac-secret');
  writeFileSync(secretFile, aclSecret);
  const state = async (url: string, groot: string): Promise<{ digest: string; lsn: number }> => (await admin(url, '{ state { digest lsn } }', { 'x-dgraph-accesstoken': groot })).data.state;
  beforeAll(async () => {
    nats = await startNatsCluster();
    // One thread per node: these tests are about the nodes' shared log (threads.test.ts has the threads).
    args = ['--cluster', nats.urls.join(','), '--cluster-stream', 'acl', '--acl-secret-file', secretFile, '--snapshot-interval', '0', '--threads', '1'];
    // Started at once: both find the stream empty and write the defaults; one loses and takes the other's.
    [a, b] = await Promise.all([startServer({ args, timeoutMs: 60_000 }), startServer({ args, timeoutMs: 60_000 })]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), c?.stop()]);
    await nats?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the ACL defaults are written once, through the log: groot logs in on both nodes; digests agree', { timeout: 60_000 }, async () => {
    const [grootA, grootB] = await Promise.all([token(a.url, 'groot', 'password'), token(b.url, 'groot', 'password')]);
    const [stateA, stateB] = await Promise.all([state(a.url, grootA), state(b.url, grootB)]);
    expect(stateA).toEqual({ digest: stateB.digest, lsn: 1 });
    expect(stateB.lsn).toBe(1);
    // groot's token from one node is good on the other (one secret, one user list).
    expect((await admin(b.url, '{ getCurrentUser { name } }', { 'x-dgraph-accesstoken': grootA })).data).toEqual({ getCurrentUser: { name: 'groot' } });
  });

  it('a user added on A logs in on B after X-Service-Read-After; the ACL change answers with its LSN', { timeout: 60_000 }, async () => {
    const groot = await token(a.url, 'groot', 'password');
    const added = await admin(a.url, 'mutation { addUser(input: [{ name: "alice", password: "alice-password" }]) { user { name } } }', { 'x-dgraph-accesstoken': groot });
    expect(added).toEqual({ data: { addUser: { user: [{ name: 'alice' }] } }, extensions: { lsn: 2 } });
    const onB = await login(b.url, 'alice', 'alice-password', { 'x-service-read-after': '2' });
    expect(typeof onB.data.login.response.accessJWT).toBe('string');
    expect((await admin(b.url, '{ getCurrentUser { name } }', { 'x-dgraph-accesstoken': onB.data.login.response.accessJWT })).data).toEqual({ getCurrentUser: { name: 'alice' } });
    const [stateA, stateB] = await Promise.all([state(a.url, groot), state(b.url, groot)]);
    expect(stateA).toEqual({ digest: stateB.digest, lsn: 2 });
  });

  it('users added on both nodes at once are both kept (the change that lost is computed again from the winner\'s)', { timeout: 60_000 }, async () => {
    const groot = await token(a.url, 'groot', 'password');
    const results = await Promise.all(
      [a, b].map((node, i) => admin(node.url, `mutation { addUser(input: [{ name: "user${i}", password: "password-${i}" }]) { user { name } } }`, { 'x-dgraph-accesstoken': groot })),
    );
    expect(results.map((r) => r.data)).toEqual([{ addUser: { user: [{ name: 'user0' }] } }, { addUser: { user: [{ name: 'user1' }] } }]);
    expect(results.map((r) => r.extensions.lsn).sort()).toEqual([3, 4]);
    for (const node of [a, b]) {
      const users = await admin(node.url, '{ queryUser(order: { asc: name }) { name } }', { 'x-dgraph-accesstoken': groot, 'x-service-read-after': '4' });
      expect(users.data).toEqual({ queryUser: [{ name: 'alice' }, { name: 'groot' }, { name: 'user0' }, { name: 'user1' }] });
    }
    // Both add the same name at once: one is added, the other refused as a taken name.
    const same = await Promise.all([a, b].map((node) => admin(node.url, 'mutation { addUser(input: [{ name: "same", password: "same-password" }]) { user { name } } }', { 'x-dgraph-accesstoken': groot })));
    expect(same.filter((r) => r.errors === undefined).map((r) => r.data)).toEqual([{ addUser: { user: [{ name: 'same' }] } }]);
    expect(same.filter((r) => r.errors !== undefined).map((r) => r.errors[0].message)).toEqual([
      "couldn't rewrite mutation addUser because failed to rewrite mutation payload because id same already exists for field name inside type User",
    ]);
    const [stateA, stateB] = await Promise.all([state(a.url, groot), state(b.url, groot)]);
    expect(stateA).toEqual({ digest: stateB.digest, lsn: 5 });
  });

  it('a new node seeded from a peer (--cluster-seed, no password given: it mints a short-lived guardian token with the shared secret) joins with the same users and data', { timeout: 120_000 }, async () => {
    const groot = await token(a.url, 'groot', 'password');
    const snapshot = await send(`${a.url}/admin/snapshot`, { method: 'POST', headers: { 'x-dgraph-accesstoken': groot } });
    expect(snapshot.status).toBe(200);
    c = await startServer({ args: [...args, '--cluster-seed', a.url], timeoutMs: 60_000 });
    expect(findLog(c.output(), 'seeded from a peer')).toMatchObject({ seed: `${a.url}/admin/snapshot`, lsn: 5 });
    // The peer logs who took its snapshot: the token's user names the purpose.
    expect(findLog(a.output(), 'snapshot sent')).toMatchObject({ lsn: 5, by: 'cluster-seed' });
    const onC = await token(c.url, 'alice', 'alice-password');
    expect((await admin(c.url, '{ getCurrentUser { name } }', { 'x-dgraph-accesstoken': onC })).data).toEqual({ getCurrentUser: { name: 'alice' } });
    const users = await admin(c.url, '{ queryUser(order: { asc: name }) { name } }', { 'x-dgraph-accesstoken': groot });
    expect(users.data).toEqual({ queryUser: [{ name: 'alice' }, { name: 'groot' }, { name: 'same' }, { name: 'user0' }, { name: 'user1' }] });
    const [stateA, stateC] = await Promise.all([state(a.url, groot), state(c.url, groot)]);
    expect(stateC).toEqual(stateA);
  });

  it('a seed whose ACL secret differs refuses the minted token: the start stops with exit 1 quoting the peer', { timeout: 60_000 }, async () => {
    const otherSecret = join(dir, 'other-secret');
    writeFileSync(otherSecret, 'another-secret-of-at-least-32-bytes-long!');
    const withOther = args.map((arg) => (arg === secretFile ? otherSecret : arg));
    const refused = await runToExit({ args: [...withOther, '--cluster-seed', a.url] }, 60_000);
    expect(refused.code).toBe(1);
    expect(findLog(refused.output, /^the seed/)?.msg).toMatch(new RegExp(`^the seed ${a.url}/admin/snapshot answered \\d+: .*token signature is invalid`));
  });

  it('a write B forwards to A (the last proposer) is refused or run by ACL as on A, the same bytes', { timeout: 60_000 }, async () => {
    const groot = await token(a.url, 'groot', 'password');
    // The schema upload stays on A (it is not forwarded): A proposed last.
    expect(await uploadSchema(a.url, 'type Task {\n  title: String! @id\n}\n', { 'x-dgraph-accesstoken': groot })).toEqual(uploadSucceeded);
    const add = { query: 'mutation { addTask(input: [{ title: "t" }]) { numUids } }' };
    const [local, forwarded] = [await postGraphql(a.url, add), await postGraphql(b.url, add)];
    expect(forwarded.status).toBe(local.status);
    expect(comparable(forwarded.text)).toBe(comparable(local.text));
    expect(JSON.parse(forwarded.text).errors[0].message).toBe('mutation addTask failed because Dgraph execution failed because rpc error: code = Unauthenticated desc = no accessJwt available');
    const tokenOnB = await token(b.url, 'groot', 'password');
    const written = await postGraphql(b.url, add, { 'x-dgraph-accesstoken': tokenOnB });
    expect(JSON.parse(written.text).data).toEqual({ addTask: { numUids: 1 } });
    // Answered once B applied it: read there at once.
    expect(JSON.parse((await postGraphql(b.url, { query: '{ getTask(title: "t") { title } }' }, { 'x-dgraph-accesstoken': tokenOnB })).text).data).toEqual({ getTask: { title: 't' } });
  });
});
