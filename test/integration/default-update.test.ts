// Issue #13: `@default(update: {value})` over HTTP. As in Dgraph (mutation_rewriter.go rewriteObject):
// on every update<T> with a non-empty `set`, each field of T with an update default that the patch
// does not set gets the default (`$now` = the time of the mutation); an add upsert that finds the
// node is an update too. New nodes get the add defaults, also when created inside an update.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askWithoutExtensions } from './helpers/http.js';
import { type ServerProcess, startWithSchema } from './helpers/server-process.js';

const schema = `
type Task {
  id: ID!
  title: String @search(by: [hash])
  status: String @default(add: { value: "new" }, update: { value: "changed" })
  priority: Int @default(add: { value: "1" }, update: { value: "5" })
  done: Boolean @default(update: { value: "false" })
  created: DateTime @default(add: { value: "$now" })
  updated: DateTime @default(add: { value: "$now" }, update: { value: "$now" })
  subtasks: [Task]
}
type Ticket {
  code: String! @id
  state: String @default(add: { value: "open" }, update: { value: "touched" })
}
`;

interface Response {
  data?: any;
  errors?: { message: string; locations?: unknown; path?: unknown }[];
}

let server: ServerProcess;

const gql = (query: string, variables?: Record<string, unknown>): Promise<Response> => askWithoutExtensions<Response>(server.url, query, variables);

const fields = 'title status priority done created updated';

beforeAll(async () => {
  server = await startWithSchema(schema);
});

afterAll(async () => {
  await server?.stop();
});

describe('@default(update:) over HTTP', () => {
  it('add applies the add defaults only', async () => {
    const before = Date.now();
    const added = await gql(`mutation { addTask(input: [{ title: "a" }]) { task { ${fields} } } }`);
    const task = added.data.addTask.task[0];
    expect(task).toMatchObject({ title: 'a', status: 'new', priority: 1, done: null });
    expect(task.created).toBe(task.updated);
    expect(Date.parse(task.created)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  });

  it('every $now of one mutation is one time, however many nodes it writes', async () => {
    const input = Array.from({ length: 3_000 }, (_, i) => ({ title: `bulk${i}` }));
    const added = await gql(`mutation ($input: [AddTaskInput!]!) { addTask(input: $input) { task { created updated } } }`, { input });
    const times = new Set(added.data.addTask.task.flatMap((t: { created: string; updated: string }) => [t.created, t.updated]));
    expect(times.size).toBe(1);
    const deleted = await gql(`mutation ($titles: [String]) { deleteTask(filter: { title: { in: $titles } }) { numUids } }`, { titles: input.map((i) => i.title) });
    expect(deleted.data).toEqual({ deleteTask: { numUids: 3_000 } });
  });

  it('update sets the update defaults of the fields the patch leaves out, and keeps the add-only ones', async () => {
    const { data } = await gql(`{ queryTask(filter: { title: { eq: "a" } }) { created updated } }`);
    const [{ created }] = data.queryTask;
    await new Promise((resolve) => setTimeout(resolve, 1100)); // RFC 3339 times have whole seconds
    const updated = await gql(`mutation { updateTask(input: { filter: { title: { eq: "a" } }, set: { title: "b" } }) { task { ${fields} } } }`);
    const task = updated.data.updateTask.task[0];
    expect(task).toMatchObject({ title: 'b', status: 'changed', priority: 5, done: false, created });
    expect(Date.parse(task.updated)).toBeGreaterThan(Date.parse(created));
    // The read-back agrees with the payload.
    expect(await gql(`{ queryTask(filter: { title: { eq: "b" } }) { ${fields} } }`)).toEqual({ data: { queryTask: [task] } });
  });

  it('a field set in the patch wins over its update default', async () => {
    const updated = await gql(`mutation { updateTask(input: { filter: { title: { eq: "b" } }, set: { status: "mine", done: true } }) { task { status priority done } } }`);
    expect(updated).toEqual({ data: { updateTask: { task: [{ status: 'mine', priority: 5, done: true }] } } });
  });

  it('an update with an empty set, or only remove, applies no update default', async () => {
    await gql(`mutation { updateTask(input: { filter: { title: { eq: "b" } }, set: { status: "kept", priority: 9 } }) { numUids } }`);
    // An empty set is no mutation at all (Dgraph returns before rewriting): nothing changes.
    const empty = await gql(`mutation { updateTask(input: { filter: { title: { eq: "b" } }, set: {} }) { numUids } }`);
    expect(empty.errors).toBeUndefined();
    expect(await gql(`{ queryTask(filter: { title: { eq: "b" } }) { status priority } }`)).toEqual({ data: { queryTask: [{ status: 'kept', priority: 9 }] } });
    const removed = await gql(`mutation { updateTask(input: { filter: { title: { eq: "b" } }, remove: { done: false } }) { task { status priority done } } }`);
    expect(removed).toEqual({ data: { updateTask: { task: [{ status: 'kept', priority: 9, done: null }] } } });
  });

  it('nodes created inside an update get the add defaults; nodes it references keep their values', async () => {
    const updated = await gql(
      `mutation { updateTask(input: { filter: { title: { eq: "b" } }, set: { subtasks: [{ title: "child" }] } }) { task { status subtasks { title status priority done } } } }`,
    );
    expect(updated).toEqual({
      data: { updateTask: { task: [{ status: 'changed', subtasks: [{ title: 'child', status: 'new', priority: 1, done: null }] }] } },
    });
  });

  it('an add upsert that finds the node applies the update defaults', async () => {
    const first = await gql(`mutation { addTicket(input: [{ code: "T1" }], upsert: true) { ticket { code state } } }`);
    expect(first).toEqual({ data: { addTicket: { ticket: [{ code: 'T1', state: 'open' }] } } });
    const again = await gql(`mutation { addTicket(input: [{ code: "T1" }], upsert: true) { ticket { code state } } }`);
    expect(again).toEqual({ data: { addTicket: { ticket: [{ code: 'T1', state: 'touched' }] } } });
  });
});
