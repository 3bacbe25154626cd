// `@secret` passwords written by add and update mutations, over real HTTP: Dgraph's types.Encrypt
// (6 to 72 UTF-8 bytes, bcrypt) refuses as the mutation executes ("mutation X failed because Dgraph
// execution failed because …", nothing written), and the `password` rule plays no part in mutations
// (only check<T>Password reads it). The hashes survive a restart.

import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { makeTempDir, startServer, type ServerProcess } from './helpers/server-process.js';

const ns = 'https://example.com/claims';
const secret = 'a-secret-mutations-key-of-32-bytes!!';
const sdl = `type Member @secret(field: "pwd") @auth(password: { rule: "{$ROLE: { eq: \\"ADMIN\\" }}" }) {
  name: String! @id
  note: String
}
# Dgraph.Authorization ${JSON.stringify({ VerificationKey: secret, Header: 'X-Auth', Namespace: ns, Algo: 'HS256' })}`;

const dir = makeTempDir('service-secret-');
const dataDir = join(dir, 'data');
let server: ServerProcess;
let admin: string;

const start = (): Promise<ServerProcess> => startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--snapshot-interval', '0'] });

async function post(query: string, token?: string): Promise<unknown> {
  const answer = await postGraphql(server.url, { query }, token === undefined ? {} : { 'X-Auth': token });
  const body = (await answer.json()) as Record<string, unknown>;
  delete body['extensions'];
  return body;
}

const failed = (field: string, reason: string, column = 12): unknown => ({
  errors: [{ message: `mutation ${field} failed because Dgraph execution failed because ${reason}`, locations: [{ line: 1, column }], path: [field] }],
  data: { [field]: null },
});
const tooShort = 'Password too short, i.e. should have at least 6 chars';
const tooLong = 'bcrypt: password length exceeds 72 bytes';
const check = (name: string, pwd: string): Promise<unknown> => post(`{ checkMemberPassword(name: ${JSON.stringify(name)}, pwd: ${JSON.stringify(pwd)}) { name } }`, admin);
const found = (name: string): unknown => ({ data: { checkMemberPassword: { name } } });
const notFound = { data: { checkMemberPassword: null } };

beforeAll(async () => {
  mkdirSync(dataDir);
  server = await start();
  expect(await uploadSchema(server.url, sdl)).toEqual(uploadSucceeded);
  admin = await new SignJWT({ [ns]: { ROLE: 'ADMIN' } }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));
}, 30_000);
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('@secret in add and update', () => {
  it('add: lengths in UTF-8 bytes; a refused password writes nothing, the next field is not executed', async () => {
    expect(await post('mutation { addMember(input: [{name: "short", pwd: "abcde"}]) { numUids } }')).toEqual(failed('addMember', tooShort));
    expect(await post(`mutation { addMember(input: [{name: "long", pwd: "${'x'.repeat(73)}"}]) { numUids } }`)).toEqual(failed('addMember', tooLong));
    const two = 'mutation { addMember(input: [{name: "ok", pwd: "abcdef"}, {name: "short2", pwd: "éé"}]) { numUids } b: addMember(input: [{name: "b", pwd: "abcdef"}]) { numUids } }';
    expect(await post(two)).toEqual({
      errors: [
        { message: `mutation addMember failed because Dgraph execution failed because ${tooShort}`, locations: [{ line: 1, column: 12 }], path: ['addMember'] },
        { message: 'Mutation b was not executed because of a previous error.', locations: [{ line: 1, column: two.indexOf('b:') + 1 }], path: ['b'] },
      ],
      data: { addMember: null, b: null },
    });
    expect(await post('{ queryMember { name } }')).toEqual({ data: { queryMember: [] } });
    // Three characters, six bytes; 72 bytes exactly. No token: the password rule does not apply to adds.
    expect(await post(`mutation { addMember(input: [{name: "accents", pwd: "ééé"}, {name: "max", pwd: "${'y'.repeat(72)}"}]) { numUids } }`)).toEqual({ data: { addMember: { numUids: 2 } } });
    expect(await check('accents', 'ééé')).toEqual(found('accents'));
    expect(await check('max', 'y'.repeat(72))).toEqual(found('max'));
    expect(await check('accents', 'éée')).toEqual(notFound);
  });

  it('the password rule decides check<T>Password only', async () => {
    expect(await post('{ checkMemberPassword(name: "accents", pwd: "ééé") { name } }')).toEqual(notFound);
    expect(await post('mutation { updateMember(input: {filter: {name: {eq: "accents"}}, set: {note: "n"}}) { numUids } }')).toEqual({ data: { updateMember: { numUids: 1 } } });
  });

  it('update: the same refusals, the old password kept; an accepted one replaces it', async () => {
    const update = (pwd: string): Promise<unknown> => post(`mutation { updateMember(input: {filter: {name: {eq: "accents"}}, set: {pwd: ${JSON.stringify(pwd)}, note: "changed"}}) { numUids } }`);
    expect(await update('short')).toEqual(failed('updateMember', tooShort));
    expect(await update('z'.repeat(73))).toEqual(failed('updateMember', tooLong));
    expect(await post('{ getMember(name: "accents") { note } }')).toEqual({ data: { getMember: { note: 'n' } } });
    expect(await check('accents', 'ééé')).toEqual(found('accents'));
    expect(await update('new-password')).toEqual({ data: { updateMember: { numUids: 1 } } });
    expect(await check('accents', 'ééé')).toEqual(notFound);
    expect(await check('accents', 'new-password')).toEqual(found('accents'));
  });

  it('the hashes survive a restart', async () => {
    await server.stop();
    server = await start();
    expect(await check('accents', 'new-password')).toEqual(found('accents'));
    expect(await check('max', 'y'.repeat(72))).toEqual(found('max'));
  }, 30_000);
});
