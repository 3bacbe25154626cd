// A mutation mixing a remote root field (`@custom(http:)`) with stored ones commits each run of stored
// fields as its own queue turn and log record (engine/exec/executor.ts CommitTurn). A failed log write
// loses only its own segment: the fields of the segments before it stay answered and durable, its own
// fields fail with the durability error (no locations, as a whole failed mutation's), the ones after
// are not executed (the remote field is not called), and a restart sees exactly what was acknowledged.
// A mutation whose first commit waited behind a schema upload is prepared again against that schema.

import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { nodeFileIo } from '../../../engine/index.js';
import { faultyFileIo } from '../../../engine/testing.js';
import { startJsonUpstream, type JsonUpstream } from '../../integration/helpers/json-upstream.js';
import { gql, openEngine, tempDir } from './engine-helpers.js';

let upstream: JsonUpstream;
let shouts: string[];
let schema: string;
const dirs: string[] = [];

beforeAll(async () => {
  upstream = await startJsonUpstream((_path, body) => {
    const said = String(body['text']);
    shouts.push(said);
    return said.toUpperCase();
  });
  const url = `${upstream.url}/shout`;
  schema = `type Person { name: String! @id }
type Mutation { shout(text: String!): String @custom(http: { url: "${url}", method: POST, body: "{ text: $text }" }) }`;
});
afterAll(() => upstream.close());
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const lost = 'the mutation could not be made durable (EIO while writing the mutation log); it was rolled back and not applied';
const mixed = 'mutation { a: addPerson(input: [{name: "ann"}]) { numUids } s: shout(text: "hi") b: addPerson(input: [{name: "bob"}]) { numUids } }';
const names = async (engine: Parameters<typeof gql>[0]): Promise<unknown> => (await gql(engine, '{ queryPerson(order: {asc: name}) { name } }')).data;

async function setup(failingFsync: number) {
  const dir = tempDir();
  dirs.push(dir);
  const io = faultyFileIo(nodeFileIo, []);
  const { engine } = await openEngine(dir, { fsync: 'always' }, io);
  expect((await engine.updateSchema(schema)).ok).toBe(true);
  io.rules.push({ op: 'fsync', path: 'wal-', code: 'EIO', nth: failingFsync, times: 1 });
  shouts = [];
  return { dir, engine };
}

it('the second segment lost: the first stays, answered and durable', async () => {
  const { dir, engine } = await setup(2);
  expect(await gql(engine, mixed)).toEqual({
    errors: [{ message: lost, path: ['b'] }],
    data: { a: { numUids: 1 }, s: 'HI', b: null },
    // touched_uids: the first segment's alone (a node, its type, its name); lsn: its record, after the schema's.
    extensions: { touched_uids: 3, requestID: expect.any(String), lsn: 2 },
  });
  expect(shouts).toEqual(['hi']);
  expect(await names(engine)).toEqual({ queryPerson: [{ name: 'ann' }] });
  await engine.close();
  const reopened = await openEngine(dir);
  expect(await names(reopened.engine)).toEqual({ queryPerson: [{ name: 'ann' }] });
  await reopened.engine.close();
});

it('the first segment lost: the remote field is not called, nothing is written', async () => {
  const { dir, engine } = await setup(1);
  expect(await gql(engine, mixed)).toEqual({
    errors: [
      { message: lost, path: ['a'] },
      { message: 'Mutation s was not executed because of a previous error.', locations: [{ line: 1, column: 61 }], path: ['s'] },
      { message: 'Mutation b was not executed because of a previous error.', locations: [{ line: 1, column: 82 }], path: ['b'] },
    ],
    data: { a: null, s: null, b: null },
    extensions: { requestID: expect.any(String) },
  });
  expect(shouts).toEqual([]);
  await engine.close();
  const reopened = await openEngine(dir);
  expect(await names(reopened.engine)).toEqual({ queryPerson: [] });
  await reopened.engine.close();
});

it('a mutation queued behind a schema upload is prepared again against the new schema before it runs', async () => {
  const dir = tempDir();
  dirs.push(dir);
  const { engine } = await openEngine(dir, { fsync: 'always' });
  expect((await engine.updateSchema('type Person { name: String! @id }')).ok).toBe(true);
  // The upload's record is queued first (its checks are done within this turn's microtasks), then the mutation: both drain after this turn.
  const upload = engine.updateSchema('type Pet { name: String! @id }');
  for (let i = 0; i < 20; i++) await Promise.resolve();
  const added = gql(engine, 'mutation { addPerson(input: [{name: "ann"}]) { numUids } }');
  expect((await upload).ok).toBe(true);
  expect(await added).toEqual({
    errors: [{ message: 'Cannot query field "addPerson" on type "Mutation". Did you mean "addPet"?', locations: [{ line: 1, column: 12 }] }],
  });
  await engine.close();
});
