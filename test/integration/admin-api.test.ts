// The /admin GraphQL API over HTTP against the real server: a real schema (unknown fields are
// validation errors), health/state/config/task, export into the data directory (read back by the
// importer), draining, and shutdown (drains, snapshots, exits 0).

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { makeTempDir, projectRoot, startServer, type ServerProcess, startWithSchema } from './helpers/server-process.js';
import { findLog } from './helpers/log-records.js';

const schema = 'type Task {\n  id: ID!\n  title: String! @search(by: [hash])\n  done: Boolean\n}\n';

let server: ServerProcess;

beforeAll(async () => {
  server = await startWithSchema(schema);
});
afterAll(async () => {
  await server.stop();
});

async function admin(query: string, variables?: Record<string, unknown>, url = server.url): Promise<unknown> {
  const answer = await postGraphql(url, variables === undefined ? { query } : { query, variables }, {}, '/admin');
  expect(answer.status).toBe(200);
  return answer.json();
}

async function graphql(query: string, url = server.url): Promise<unknown> {
  const answer = await postGraphql(url, { query });
  expect(answer.status).toBe(200);
  return answer.json();
}

describe('/admin is a real GraphQL schema', () => {
  it('an unknown mutation field is a validation error, not an empty success', async () => {
    expect(await admin('mutation { exportData(input: {format: "json"}) { response { code } } }')).toEqual({
      errors: [{ message: 'Cannot query field "exportData" on type "Mutation". Did you mean "export"?', locations: [{ line: 1, column: 12 }] }],
    });
  });

  it('an unknown query field is a validation error', async () => {
    expect(await admin('{ listBackups(input: {location: "/tmp"}) { backupId } }')).toEqual({
      errors: [{ message: 'Cannot query field "listBackups" on type "Query".', locations: [{ line: 1, column: 3 }] }],
    });
  });

  it('a wrong argument is a validation error', async () => {
    expect(await admin('mutation { draining(enabled: true) { response { code } } }')).toEqual({
      errors: [{ message: 'Unknown argument "enabled" on field "draining" of type "Mutation". Did you mean "enable"?', locations: [{ line: 1, column: 12 }] }],
    });
  });

  it('introspection lists what the service serves', async () => {
    const body = (await admin('{ __schema { queryType { fields { name } } mutationType { fields { name } } } }')) as {
      data: { __schema: { queryType: { fields: { name: string }[] }; mutationType: { fields: { name: string }[] } } };
    };
    expect(body.data.__schema.queryType.fields.map((f) => f.name)).toEqual(['getGQLSchema', 'health', 'state', 'config', 'task']);
    expect(body.data.__schema.mutationType.fields.map((f) => f.name)).toEqual(['updateGQLSchema', 'export', 'draining', 'shutdown', 'config']);
  });
});

describe('health, state, config', () => {
  it('health is one healthy alpha', async () => {
    const body = (await admin('{ health { instance status group address } }')) as { data: { health: unknown[] } };
    expect(body.data.health).toEqual([{ instance: 'alpha', status: 'healthy', group: '1', address: new URL(server.url).host }]);
  });

  it('state is one group with this node as leader and a tablet per predicate', async () => {
    const body = (await admin('{ state { groups { id members { id groupId addr leader amDead } tablets { groupId predicate } } zeros { id } } }')) as {
      data: { state: { groups: { id: number; members: unknown[]; tablets: { predicate: string }[] }[]; zeros: unknown[] } };
    };
    const [group] = body.data.state.groups;
    expect(group?.id).toBe(1);
    expect(group?.members).toEqual([{ id: 1, groupId: 1, addr: new URL(server.url).host, leader: true, amDead: false }]);
    expect(group?.tablets.map((t) => t.predicate).sort()).toEqual(['Task.done', 'Task.title', 'dgraph.type']);
    expect(body.data.state.zeros).toEqual([]);
  });

  it('config reads and sets the log level', async () => {
    expect(await admin('{ config { logLevel } }')).toEqual({ data: { config: { logLevel: 'info' } } });
    expect(await admin('mutation { config(input: {logLevel: "debug"}) { response { code message } } }')).toEqual({
      data: { config: { response: { code: 'Success', message: 'Config updated successfully' } } },
    });
    expect(await admin('{ config { logLevel } }')).toEqual({ data: { config: { logLevel: 'debug' } } });
    await graphql('{ queryTask { title } }');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(findLog(server.output(), 'request', { level: 'info', method: 'POST', path: '/graphql', status: 200 })).toBeDefined();
    expect(await admin('mutation { config(input: {logLevel: "info"}) { response { code } } }')).toEqual({
      data: { config: { response: { code: 'Success' } } },
    });
  });

  it('a bad log level is refused and changes nothing', async () => {
    expect(await admin('mutation { config(input: {logLevel: "verbose"}) { response { code } } }')).toEqual({
      errors: [
        {
          message: 'resolving config failed because invalid log level "verbose": use error, warn, info or debug',
          locations: [{ line: 1, column: 12 }],
        },
      ],
      data: { config: null },
    });
    expect(await admin('{ config { logLevel } }')).toEqual({ data: { config: { logLevel: 'info' } } });
  });

  it('a config mutation setting nothing succeeds, as in Dgraph', async () => {
    expect(await admin('mutation { config(input: {}) { response { code message } } }')).toEqual({
      data: { config: { response: { code: 'Success', message: 'Config updated successfully' } } },
    });
  });

  it("Dgraph's cache settings are not served: a validation error", async () => {
    expect(await admin('mutation { config(input: {cacheMb: 1024}) { response { code } } }')).toEqual({
      errors: [{ message: 'Field "cacheMb" is not defined by type ConfigInput.', locations: [{ line: 1, column: 27 }] }],
    });
  });
});

describe('draining', () => {
  const refusal =
    'Dgraph query failed because Dgraph execution failed because the server is in draining mode and client requests will only be allowed after exiting the mode  by sending a GraphQL draining(enable: false) mutation to /admin';

  it('refuses /graphql while on, then accepts again', async () => {
    expect(await admin('mutation { draining(enable: true) { response { code message } } }')).toEqual({
      data: { draining: { response: { code: 'Success', message: 'draining mode has been set to true' } } },
    });
    expect(await graphql('{ queryTask { title } }')).toEqual({
      errors: [{ message: refusal, path: ['queryTask'] }],
      data: { queryTask: null },
    });
    expect(await graphql('mutation { addTask(input: [{title: "x"}]) { numUids } }')).toMatchObject({
      errors: [
        {
          message:
            'mutation addTask failed because Dgraph execution failed because the server is in draining mode and client requests will only be allowed after exiting the mode  by sending a GraphQL draining(enable: false) mutation to /admin',
          locations: [{ line: 1, column: 12 }],
          path: ['addTask'],
        },
      ],
      data: { addTask: null },
    });
    // Introspection and the admin API still answer.
    expect(await graphql('{ __typename }')).toEqual({ data: { __typename: 'Query' } });
    expect(await admin('mutation { draining(enable: false) { response { message } } }')).toEqual({
      data: { draining: { response: { message: 'draining mode has been set to false' } } },
    });
    expect(await graphql('{ queryTask { title } }')).toEqual({ data: { queryTask: [] } });
  });

  it('draining without an argument turns it off, as in Dgraph', async () => {
    expect(await admin('mutation { draining { response { message } } }')).toEqual({
      data: { draining: { response: { message: 'draining mode has been set to false' } } },
    });
  });
});

describe('export', () => {
  it('writes NDJSON and the schema into <data-dir>/export, which the importer reads back', async () => {
    const added = (await graphql('mutation { addTask(input: [{title: "write tests", done: true}, {title: "ship"}]) { numUids } }')) as {
      data: { addTask: { numUids: number } };
    };
    expect(added.data.addTask.numUids).toBe(2);
    const body = (await admin('mutation { export(input: {format: "json"}) { response { code message } taskId } }')) as {
      data: { export: { response: { code: string; message: string }; taskId: string } };
    };
    const { response, taskId } = body.data.export;
    expect(response.code).toBe('Success');
    expect(taskId).toMatch(/^0x[0-9a-f]+$/);
    const dir = join(server.dataDir, 'export');
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    const [dataFile, schemaFile] = files as [string, string];
    expect(dataFile).toMatch(/^export-\d{8}T\d{6}Z-0x[0-9a-f]+\.ndjson$/);
    expect(schemaFile).toBe(dataFile.replace(/\.ndjson$/, '.schema.graphql'));
    expect(response.message).toBe(`Export completed with ID ${taskId}: ${join(dir, dataFile)}`);
    expect(readFileSync(join(dir, schemaFile), 'utf8')).toBe(schema);
    expect(readFileSync(join(dir, dataFile), 'utf8')).toBe(
      '{"__typename":"Task","id":"0x1","title":"write tests","done":true}\n{"__typename":"Task","id":"0x2","title":"ship"}\n',
    );
    expect(await admin(`{ task(input: {id: "${taskId}"}) { kind status } }`)).toEqual({ data: { task: { kind: 'Export', status: 'Success' } } });

    // Read back by the importer into a fresh directory, then exported again offline: the same bytes.
    const other = makeTempDir();
    try {
      const cli = (name: string, args: string[]): string =>
        execFileSync(process.execPath, [join(projectRoot, `dist/server/cli/${name}.js`), ...args], { cwd: projectRoot, encoding: 'utf8', stdio: 'pipe' });
      cli('import', [join(dir, dataFile), '--data-dir', other, '--schema', join(dir, schemaFile)]);
      const again = join(other, 'again.ndjson');
      cli('export', [again, '--data-dir', other]);
      expect(readFileSync(again, 'utf8')).toBe(readFileSync(join(dir, dataFile), 'utf8'));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('refuses formats and destinations it cannot write', async () => {
    expect(await admin('mutation { export(input: {format: "rdf"}) { taskId } }')).toEqual({
      errors: [{ message: 'resolving export failed because invalid export format: rdf (this service exports "json" only)', locations: [{ line: 1, column: 12 }] }],
      data: { export: null },
    });
    expect(await admin('mutation { export(input: {format: "json", destination: "s3://bucket/x"}) { taskId } }')).toEqual({
      errors: [
        {
          message: 'resolving export failed because export destination is not supported: exports are written into the data directory (<data-dir>/export)',
          locations: [{ line: 1, column: 12 }],
        },
      ],
      data: { export: null },
    });
  });

  it('task with an unknown id', async () => {
    expect(await admin('{ task(input: {id: "0x99"}) { kind status } }')).toEqual({
      data: { task: { kind: 'Unknown', status: 'Unknown' } },
    });
    expect(await admin('{ task(input: {id: "zz"}) { kind } }')).toEqual({
      errors: [
        {
          message: 'resolving task failed because invalid task ID: zz: strconv.ParseUint: parsing "zz": invalid syntax',
          locations: [{ line: 1, column: 3 }],
        },
      ],
      data: { task: null },
    });
  });
});

describe('shutdown', () => {
  it('answers, drains, writes a snapshot and exits 0', async () => {
    const own = await startServer();
    try {
      expect(await uploadSchema(own.url, schema)).toEqual(uploadSucceeded);
      await graphql('mutation { addTask(input: [{title: "persist me"}]) { numUids } }', own.url);
      expect(readdirSync(own.dataDir).filter((f) => f.startsWith('snap-'))).toEqual([]);
      expect(await admin('mutation { shutdown { response { code message } } }', undefined, own.url)).toEqual({
        data: { shutdown: { response: { code: 'Success', message: 'Server is shutting down' } } },
      });
      expect(await own.exited).toEqual({ code: 0, signal: null });
      expect(readdirSync(own.dataDir).filter((f) => f.startsWith('snap-'))).toHaveLength(1);
      expect(findLog(own.output(), 'shutting down', { reason: 'admin' })).toBeDefined();
      // The snapshot holds the data: a new server on the same directory answers it.
      const again = await startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', own.dataDir] });
      try {
        expect(await graphql('{ queryTask { title } }', again.url)).toEqual({ data: { queryTask: [{ title: 'persist me' }] }, extensions: { touched_uids: 1 } });
      } finally {
        await again.stop();
      }
    } finally {
      await own.stop();
      if (existsSync(own.dataDir)) rmSync(own.dataDir, { recursive: true, force: true });
    }
  });
});
