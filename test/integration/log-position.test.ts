// Issue #16 over HTTP: /admin `state { digest lsn }` (two fields added to Dgraph's state) and the LSN of
// each stored change in `extensions.lsn` (mutations on /graphql, updateGQLSchema on /admin). A restart
// (the log alone, then a snapshot) comes back to the same LSN and digest.

import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { makeTempDir, startServer, type ServerProcess } from './helpers/server-process.js';

const schema = 'type Task {\n  title: String! @id\n  done: Boolean\n}\n';
const dataDir = join(makeTempDir('log-position-'), 'data');
const start = (): Promise<ServerProcess> => startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--snapshot-interval', '0'] });

let server: ServerProcess;
afterAll(async () => {
  await server.stop();
});

async function post(query: string, path = '/graphql', variables?: Record<string, unknown>): Promise<any> {
  const answer = await postGraphql(server.url, variables === undefined ? { query } : { query, variables }, {}, path);
  expect(answer.status).toBe(200);
  return answer.json();
}

const uuid = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const state = async (): Promise<{ digest: string; lsn: number }> => ((await post('{ state { digest lsn } }', '/admin')) as { data: { state: { digest: string; lsn: number } } }).data.state;

describe('log positions and the state digest', () => {
  it('state reports lsn 0 and a digest before anything is stored; each stored change takes the next LSN', async () => {
    server = await start();
    const empty = await state();
    expect(empty).toEqual({ digest: expect.stringMatching(/^[0-9a-f]{16}$/), lsn: 0 });
    expect(await uploadSchema(server.url, schema)).toEqual(uploadSucceeded);
    const afterSchema = await state();
    expect(afterSchema.lsn).toBe(1);
    expect(afterSchema.digest).not.toBe(empty.digest);

    expect(await post('mutation { addTask(input: [{ title: "a" }]) { numUids } }')).toEqual({ data: { addTask: { numUids: 1 } }, extensions: { touched_uids: 3, requestID: uuid, lsn: 2 } });
    // Two stored root fields, one request: one record.
    expect(await post('mutation { one: addTask(input: [{ title: "b" }]) { numUids } two: updateTask(input: { filter: { title: { eq: "a" } }, set: { done: true } }) { numUids } }')).toEqual({
      data: { one: { numUids: 1 }, two: { numUids: 1 } },
      extensions: { touched_uids: 4, requestID: uuid, lsn: 3 },
    });
    // Nothing stored (the @id exists): the LSN it saw, no new record.
    expect(await post('mutation { addTask(input: [{ title: "a" }]) { numUids } }')).toEqual({
      errors: [{ message: "couldn't rewrite mutation addTask because failed to rewrite mutation payload because id a already exists for field title inside type Task", locations: [{ line: 1, column: 12 }], path: ['addTask'] }],
      data: { addTask: null },
      extensions: { requestID: uuid, lsn: 3 },
    });
    // A query carries none.
    expect(await post('{ queryTask(order: { asc: title }) { title done } }')).toEqual({ data: { queryTask: [{ title: 'a', done: true }, { title: 'b', done: null }] }, extensions: { touched_uids: 4 } });

    const sdl = schema.replace('done: Boolean', 'done: Boolean @search');
    expect(await post('mutation ($s: String!) { updateGQLSchema(input: { set: { schema: $s } }) { gqlSchema { schema } } }', '/admin', { s: sdl })).toEqual({
      data: { updateGQLSchema: { gqlSchema: { schema: sdl } } },
      extensions: { lsn: 4 },
    });
    // A refused upload stores nothing.
    expect(await post('mutation { updateGQLSchema(input: { set: { schema: "type {" } }) { gqlSchema { schema } } }', '/admin')).toEqual({
      errors: [{ message: 'resolving updateGQLSchema failed because input:1: Expected Name, found {\n', locations: [{ line: 1, column: 12 }] }],
      data: { updateGQLSchema: null },
    });
    const now = await state();
    expect(now.lsn).toBe(4);
    expect(now.digest).not.toBe(afterSchema.digest);
    // Reading changes nothing.
    expect(await state()).toEqual(now);
  });

  it('a restart replays the log to the same LSN and digest; after a snapshot too', async () => {
    const before = await state();
    await server.stop();
    server = await start();
    expect(await state()).toEqual(before);
    expect(await post('mutation { deleteTask(filter: { title: { eq: "b" } }) { numUids } }')).toEqual({ data: { deleteTask: { numUids: 1 } }, extensions: { touched_uids: 3, requestID: uuid, lsn: 5 } });
    const deleted = await state();
    expect(deleted.lsn).toBe(5);
    expect(deleted.digest).not.toBe(before.digest);
    const snapshot = await postGraphql(server.url, {}, {}, '/admin/snapshot');
    expect(snapshot.status).toBe(200);
    await server.stop();
    server = await start();
    expect(await state()).toEqual(deleted);
    expect(await post('{ queryTask { title done } }')).toEqual({ data: { queryTask: [{ title: 'a', done: true }] }, extensions: { touched_uids: 2 } });
  });
});
