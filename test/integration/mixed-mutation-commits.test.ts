// Mutations mixing remote root fields (`@lambda`, `@custom(http:)`) with stored ones (add<T>): Dgraph
// runs each root field in turn, a stored one in its own transaction, a remote one as an HTTP call outside
// any. So no remote call may hold the commit queue: a lambda writing back into the service is not stuck
// behind the mutation waiting for it, and other clients' writes go on while a slow call runs — also while
// a stored mutation's payload reads a remote field (Dgraph commits, then runs the query part). Errors stay
// as before: a failing field's later fields are not executed. Everything is read back, also after a
// SIGKILL and a restart on the same data directory.

import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { startJsonUpstream, type JsonUpstream } from './helpers/json-upstream.js';
import { makeTempDir, startServer, type ServerProcess } from './helpers/server-process.js';

/** Far above what any answer here needs: a call stuck behind the queue would run into it. */
const customTimeoutMs = 8_000;
const dataDir = makeTempDir('mixed-mutation-commits-');
const startOn = (): Promise<ServerProcess> =>
  startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--fsync', 'always', '--snapshot-interval', '0', '--custom-timeout-ms', String(customTimeoutMs), '--lambda-url', `${upstreamUrl}/lambda`] });

let server: ServerProcess;
let upstream: JsonUpstream;
let upstreamUrl: string;

/** A slow upstream call: started (the test then acts), and held until released or 2 s passed. */
class SlowCall {
  started!: Promise<void>;
  answered = false;
  #start!: () => void;
  #release!: () => void;
  #released!: Promise<void>;
  constructor() {
    this.reset();
  }
  reset(): void {
    this.answered = false;
    this.started = new Promise((r) => (this.#start = r));
    this.#released = new Promise((r) => (this.#release = r));
  }
  async hold(): Promise<void> {
    this.#start();
    await Promise.race([this.#released, new Promise((r) => setTimeout(r, 2_000))]);
    this.answered = true;
  }
  release(): void {
    this.#release();
  }
}
const slow = new SlowCall();

async function handle(path: string, body: Record<string, unknown>): Promise<unknown> {
  if (path === '/slow') {
    await slow.hold();
    return `${String(body['text'])}!`;
  }
  if (path === '/fail') return { errors: [{ message: 'upstream refused' }] };
  // The lambda adds a Note through the service and answers that answer's text.
  const { title } = body['args'] as { title: string };
  const answer = await postGraphql(server.url, { query: `mutation { addNote(input: [{key: "${title}", title: "${title}"}]) { note { title } } }` });
  const json = answer.json() as Record<string, unknown>;
  delete json['extensions'];
  return JSON.stringify(json);
}

const schema = (): string => `
type Note {
  key: String! @id
  title: String! @search(by: [hash])
  loud: String @custom(http: { url: "${upstreamUrl}/slow", method: POST, body: "{ text: $key }", mode: SINGLE })
}
type Mutation {
  addViaLambda(title: String!): String @lambda
  slowShout(text: String!): String @custom(http: { url: "${upstreamUrl}/slow", method: POST, body: "{ text: $text }" })
  failing(text: String!): String @custom(http: { url: "${upstreamUrl}/fail", method: POST, body: "{ text: $text }" })
}`;

async function gql(query: string): Promise<Record<string, unknown>> {
  const answer = await postGraphql(server.url, { query });
  expect(answer.status).toBe(200);
  const body = answer.json() as Record<string, unknown>;
  delete body['extensions'];
  return body;
}

const titles = async (): Promise<unknown> => gql('{ queryNote(order: {asc: title}) { key title } }');
const notes = (...names: string[]): unknown => ({ data: { queryNote: names.sort().map((name) => ({ key: name, title: name })) } });
const add = (title: string): string => `addNote(input: [{key: "${title}", title: "${title}"}]) { note { title } }`;
const added = (title: string): unknown => ({ note: [{ title }] });

beforeAll(async () => {
  upstream = await startJsonUpstream(handle);
  upstreamUrl = upstream.url;
  server = await startOn();
  expect(await uploadSchema(server.url, schema())).toEqual(uploadSucceeded);
}, 30_000);

afterAll(async () => {
  server.child.kill('SIGKILL');
  await Promise.all([server.exited, upstream.close()]);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('remote and stored root mutation fields in one request', () => {
  it('a lambda writing back into the service between two adds: prompt, all three answers right', async () => {
    const started = performance.now();
    const answer = await gql(`mutation { a: ${add('A')} viaLambda: addViaLambda(title: "L") b: ${add('B')} }`);
    const ms = performance.now() - started;
    expect(answer).toEqual({ data: { a: added('A'), viaLambda: JSON.stringify({ data: { addNote: added('L') } }), b: added('B') } });
    // Stuck behind the queue, the lambda's write would wait for the custom call's timeout.
    expect(ms).toBeLessThan(customTimeoutMs / 2);
    expect(await titles()).toEqual(notes('A', 'B', 'L'));
  });

  it('while a slow remote field runs, another client\'s add completes', async () => {
    slow.reset();
    const mixed = gql(`mutation { c: ${add('C')} shout: slowShout(text: "hi") d: ${add('D')} }`);
    await slow.started;
    expect(await gql(`mutation { ${add('E')} }`)).toEqual({ data: { addNote: added('E') } });
    const slowStillRunning = !slow.answered;
    slow.release();
    expect(slowStillRunning).toBe(true);
    expect(await mixed).toEqual({ data: { c: added('C'), shout: 'hi!', d: added('D') } });
    expect(await titles()).toEqual(notes('A', 'B', 'C', 'D', 'E', 'L'));
  });

  it('while a stored mutation\'s payload reads a remote field, another client\'s add completes', async () => {
    slow.reset();
    const withPayload = gql('mutation { addNote(input: [{key: "P", title: "P"}]) { note { title loud } } }');
    await slow.started;
    expect(await gql(`mutation { ${add('Q')} }`)).toEqual({ data: { addNote: added('Q') } });
    const slowStillRunning = !slow.answered;
    slow.release();
    expect(slowStillRunning).toBe(true);
    expect(await withPayload).toEqual({ data: { addNote: { note: [{ title: 'P', loud: 'P!' }] } } });
    expect(await titles()).toEqual(notes('A', 'B', 'C', 'D', 'E', 'L', 'P', 'Q'));
  });

  it('a failing stored field: the later fields, remote ones too, are not executed', async () => {
    expect(await gql(`mutation { f: ${add('F')} dup: ${add('A')} shout: slowShout(text: "no") g: ${add('G')} }`)).toEqual({
      errors: [
        { message: "couldn't rewrite mutation addNote because failed to rewrite mutation payload because id A already exists for field key inside type Note", locations: [{ line: 1, column: 75 }], path: ['dup'] },
        { message: 'Mutation shout was not executed because of a previous error.', locations: [{ line: 1, column: 140 }], path: ['shout'] },
        { message: 'Mutation g was not executed because of a previous error.', locations: [{ line: 1, column: 169 }], path: ['g'] },
      ],
      data: { f: added('F'), dup: null, shout: null, g: null },
    });
    expect(await titles()).toEqual(notes('A', 'B', 'C', 'D', 'E', 'F', 'L', 'P', 'Q'));
  });

  it('a failing remote field: its error at its path, the later fields not executed', async () => {
    expect(await gql(`mutation { h: ${add('H')} bad: failing(text: "x") i: ${add('I')} }`)).toEqual({
      errors: [
        { message: `Error coercing value '{"errors":[{"message":"upstream refused"}]}' for field 'failing' to type String.`, locations: [{ line: 1, column: 75 }], path: ['bad'] },
        { message: 'Mutation i was not executed because of a previous error.', locations: [{ line: 1, column: 99 }], path: ['i'] },
      ],
      data: { h: added('H'), bad: null, i: null },
    });
    expect(await titles()).toEqual(notes('A', 'B', 'C', 'D', 'E', 'F', 'H', 'L', 'P', 'Q'));
  });

  it('every acknowledged write is there after a SIGKILL and a restart', async () => {
    server.child.kill('SIGKILL');
    await server.exited;
    server = await startOn();
    expect(await titles()).toEqual(notes('A', 'B', 'C', 'D', 'E', 'F', 'H', 'L', 'P', 'Q'));
  }, 30_000);
});
