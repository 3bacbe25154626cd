// Secrets never reach the log: a workload that uses every kind (the admin and client keys, a JWT of
// # Dgraph.Authorization, ACL passwords and tokens, a # Service.Secret forwarded to a custom upstream),
// with request lines and debug on; the server's whole output must contain none of them.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { findLogs } from './helpers/log-records.js';
import { makeTempDir, startServer, type ServerProcess } from './helpers/server-process.js';

const adminKey = 'adm1n-k3y-9d2f';
const clientKey = 'cli3nt-k3y-4b7e';
const jwtSecret = 'jwt-verification-key-of-32-bytes-x7';
const serviceSecret = 'svc-s3cret-value-a81c';
const aclSecret = 'acl-hmac-secret-of-at-least-32-bytes-q9';
const passwords = ['password', 'alice-pass-5521', 'alice-pass-7734', 'wrong-pass-0042'];

let upstream: Server;
let upstreamUrl = '';
const upstreamHeaders: IncomingHttpHeaders[] = [];
const servers: ServerProcess[] = [];

beforeAll(async () => {
  upstream = createServer((request, response) => {
    upstreamHeaders.push(request.headers);
    response.setHeader('content-type', 'application/json');
    response.end('"from upstream"');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await new Promise((resolve) => upstream.close(resolve));
});

it('keys, a JWT, a forwarded Service.Secret: none in the log', async () => {
  const server = await startServer({ args: ['--log-level', 'debug', '--log-requests', 'all', '--slow-ms', '1'], env: { SERVICE_ADMIN_KEY: adminKey, SERVICE_CLIENT_KEY: clientKey } });
  servers.push(server);
  const schema = `type Item { id: ID! name: String }
type Query { remote: String @custom(http: { url: "${upstreamUrl}/r", method: GET, secretHeaders: ["X-Api-Key:API_KEY"] }) }
# Service.Secret API_KEY "${serviceSecret}"
# Dgraph.Authorization {"VerificationKey":"${jwtSecret}","Header":"X-My-Token","Namespace":"https://ns","Algo":"HS256"}
`;
  expect(await uploadSchema(server.url, schema, { 'X-Auth-Token': adminKey })).toEqual(uploadSucceeded);
  const jwt = await new SignJWT({ 'https://ns': { role: 'a' } }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(jwtSecret));
  const answer = await postGraphql(server.url, { query: '{ remote }' }, { 'X-Auth-Token': clientKey, 'X-My-Token': jwt });
  expect(answer.json()).toMatchObject({ data: { remote: 'from upstream' } });
  expect(upstreamHeaders.at(-1)?.['x-api-key']).toBe(serviceSecret);
  expect((await postGraphql(server.url, { query: '{ queryItem { name } }' }, { 'X-Auth-Token': 'wrong-k3y-0000' })).status).toBe(401);
  await postGraphql(server.url, { query: '{ health { status } }' }, { 'X-Auth-Token': adminKey }, '/admin');
  await server.stop();
  const output = server.output();
  expect(findLogs(output, 'request').length).toBeGreaterThanOrEqual(4);
  for (const secret of [adminKey, clientKey, jwtSecret, serviceSecret, jwt, jwt.split('.')[2] ?? jwt, 'wrong-k3y-0000']) expect(output).not.toContain(secret);
});

it('ACL: the HMAC secret, passwords (login, addUser, updateUser) and access tokens: none in the log', async () => {
  const dir = makeTempDir();
  const secretFile = join(dir, 'hmac');
  writeFileSync(secretFile, aclSecret);
  const server = await startServer({ args: ['--acl-secret-file', secretFile, '--log-level', 'debug', '--log-requests', 'all'] });
  servers.push(server);
  const admin = async (query: string, token?: string): Promise<Record<string, any>> =>
    (await postGraphql(server.url, { query }, token === undefined ? {} : { 'X-Dgraph-AccessToken': token }, '/admin')).json() as Record<string, any>;
  const login = await admin(`mutation { login(userId: "groot", password: "${passwords[0]}") { response { accessJWT refreshJWT } } }`);
  const { accessJWT, refreshJWT } = login['data'].login.response as { accessJWT: string; refreshJWT: string };
  expect(await admin(`mutation { addUser(input: [{name: "alice", password: "${passwords[1]}"}]) { user { name } } }`, accessJWT)).toEqual({ data: { addUser: { user: [{ name: 'alice' }] } }, extensions: { lsn: 2 } });
  await admin(`mutation { updateUser(input: {filter: {name: {eq: "alice"}}, set: {password: "${passwords[2]}"}}) { user { name } } }`, accessJWT);
  await admin(`mutation { login(userId: "alice", password: "${passwords[3]}") { response { accessJWT } } }`);
  await admin(`mutation { login(refreshToken: "${refreshJWT}") { response { accessJWT } } }`);
  await server.stop();
  const output = server.output();
  expect(findLogs(output, 'request', { path: '/admin' }).length).toBeGreaterThanOrEqual(5);
  for (const secret of [aclSecret, ...passwords.slice(1), accessJWT, refreshJWT]) expect(output).not.toContain(secret);
  // groot's default password is the word "password": never as a value.
  expect(output).not.toContain('"password"');
});
