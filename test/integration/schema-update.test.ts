// Schema replacement over HTTP: a new upload swaps the API atomically and keeps the data of fields
// that remain (new indexes are back-filled); a failed upload changes nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, send, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { nativeTransport, startServer, type ServerProcess } from './helpers/server-process.js';

let server: ServerProcess;

const v1 = `type Book { id: ID!  title: String! @search(by: [hash])  pages: Int }`;
const v2 = `type Book { id: ID!  title: String! @search(by: [hash, term])  pages: Int @search  isbn: String @id }`;

const upload = (schema: string): Promise<unknown> => uploadSchema(server.url, schema);

async function gql(query: string): Promise<any> {
  return (await postGraphql(server.url, { query })).json();
}

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

describe('schema updates', () => {
  it('runs on the native uWebSockets.js transport', () => {
    expect(server.transport).toBe(nativeTransport);
  });

  it('keeps stored data across an upload and back-fills new indexes', async () => {
    expect(await upload(v1)).toEqual(uploadSucceeded);
    const added = await gql(`mutation { addBook(input: [{ title: "Deep Graph Theory", pages: 300 }, { title: "Shallow Waters", pages: 120 }]) { numUids } }`);
    expect(added.data).toEqual({ addBook: { numUids: 2 } });

    expect(await upload(v2)).toEqual(uploadSucceeded);
    const byTerm = await gql(`{ queryBook(filter: { title: { anyofterms: "graph" } }) { title pages isbn } }`);
    expect(byTerm).toEqual({ data: { queryBook: [{ title: 'Deep Graph Theory', pages: 300, isbn: null }] }, extensions: { touched_uids: 3 } });
    const byPages = await gql(`{ queryBook(filter: { pages: { lt: 200 } }) { title } }`);
    expect(byPages).toEqual({ data: { queryBook: [{ title: 'Shallow Waters' }] }, extensions: { touched_uids: 1 } });
  });

  it('a failed upload leaves the running schema and the data untouched', async () => {
    const failed = (await upload(`type Book { id: ID!  title: String! @search(by: [nonsense]) }`)) as { errors: { message: string }[] };
    expect(failed.errors[0]?.message).toContain('Type Book; Field title: the argument to @search nonsense isn\'t valid.');
    const still = await gql(`{ queryBook(filter: { pages: { ge: 100 } }, order: { asc: pages }) { title } }`);
    expect(still).toEqual({ data: { queryBook: [{ title: 'Shallow Waters' }, { title: 'Deep Graph Theory' }] }, extensions: { touched_uids: 2 } });
    const probe = (await send(`${server.url}/probe/graphql`)).json() as { schemaUpdateCounter: number };
    expect(probe.schemaUpdateCounter).toBe(2);
  });

  it('refuses an admin mutation over GET with 405', async () => {
    const query = encodeURIComponent('mutation { updateGQLSchema(input: { set: { schema: "type A { id: ID! n: String }" } }) { gqlSchema { id } } }');
    const answer = await send(`${server.url}/admin?query=${query}`);
    expect(answer.status).toBe(405);
    const schema = await send(`${server.url}/admin/schema`);
    expect(schema.text).toBe(v2);
  });
});
