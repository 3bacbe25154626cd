// Export → import → export is byte-identical (ids renumbered densely, references by ID and by @id,
// Int64 beyond 2^53, geo, lists), rejected records are reported, and the CLIs run offline on a data dir.

import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportData } from '../../../server/export/export-data.js';
import { importData } from '../../../server/cli/import.js';
import { projectRoot } from '../../integration/helpers/server-process.js';
import { gql, openEngine, tempDir } from './engine-helpers.js';

const schema = `
type Person {
  name: String! @id @search(by: [hash])
  big: Int64
  home: Point
  tags: [String]
  friends: [Person]
  pets: [Pet] @hasInverse(field: owner)
}
type Pet {
  id: ID!
  nick: String
  owner: Person
}
`;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function dir(): string {
  const d = tempDir();
  dirs.push(d);
  return d;
}

async function exported(dataDir: string): Promise<string> {
  const { engine } = await openEngine(dataDir);
  let text = '';
  await exportData(engine, (line) => (text += line));
  await engine.close();
  return text;
}

describe('export and import', () => {
  it('export → import → export is byte-identical', async () => {
    const source = dir();
    const { engine } = await openEngine(source);
    expect((await engine.updateSchema(schema)).ok).toBe(true);
    await gql(engine, 'mutation { addPet(input: [{ nick: "gone" }]) { numUids } }');
    await gql(engine, 'mutation { deletePet(filter: { id: ["0x1"] }) { numUids } }'); // a gap in the ids
    const added = await gql(
      engine,
      `mutation { addPerson(input: [
        { name: "ann", big: "9223372036854775807", home: { longitude: 1.5, latitude: -2 }, tags: ["x", "y"], pets: [{ nick: "rex" }, { nick: "tom" }] },
        { name: "bob", friends: [{ name: "ann" }], pets: [{ nick: "kit" }] }
      ]) { numUids } }`,
    );
    expect(added.errors).toBeUndefined();
    await gql(engine, 'mutation { updatePerson(input: { filter: { name: { eq: "ann" } }, set: { friends: [{ name: "bob" }] } }) { numUids } }');
    await engine.close();

    const first = await exported(source);
    expect(first).toContain('"big":"9223372036854775807"');
    expect(first.split('\n').filter(Boolean).length).toBe(5);

    const target = dir();
    const fresh = await openEngine(target);
    expect((await fresh.engine.updateSchema(schema)).ok).toBe(true);
    const summary = await importData(fresh.engine, first.split('\n'));
    expect(summary.rejected).toEqual([]);
    expect(summary.added).toBe(5);
    await fresh.engine.close();
    expect(await exported(target)).toBe(first);
  });

  it('union edges round-trip: references by member (`{ dogRef: { id } }`), by ID and by @id', async () => {
    const unionSchema = `
      type Dog { id: ID! breed: String }
      type Robot { serial: String! @id model: String }
      union Member = Dog | Robot
      type Home { id: ID! address: String members: [Member] favourite: Member }
    `;
    const source = dir();
    const { engine } = await openEngine(source);
    expect((await engine.updateSchema(unionSchema)).ok).toBe(true);
    const added = await gql(
      engine,
      `mutation { addHome(input: [
        { address: "a", members: [{ robotRef: { serial: "r2", model: "astromech" } }, { dogRef: { breed: "lab" } }], favourite: { robotRef: { serial: "r2" } } },
        { address: "b", favourite: { dogRef: { breed: "pug" } } }
      ]) { numUids } }`,
    );
    expect(added.errors).toBeUndefined();
    await engine.close();

    const first = await exported(source);
    expect(first.split('\n').filter(Boolean)).toEqual([
      '{"__typename":"Dog","id":"0x1","breed":"lab"}',
      '{"__typename":"Dog","id":"0x2","breed":"pug"}',
      '{"__typename":"Home","id":"0x3","address":"a","members":[{"robotRef":{"serial":"r2"}},{"dogRef":{"id":"0x1"}}],"favourite":{"robotRef":{"serial":"r2"}}}',
      '{"__typename":"Home","id":"0x4","address":"b","favourite":{"dogRef":{"id":"0x2"}}}',
      '{"__typename":"Robot","serial":"r2","model":"astromech"}',
    ]);
    const target = dir();
    const fresh = await openEngine(target);
    expect((await fresh.engine.updateSchema(unionSchema)).ok).toBe(true);
    const summary = await importData(fresh.engine, first.split('\n'));
    expect(summary.rejected).toEqual([]);
    expect(summary.added).toBe(5);
    const read = await gql(fresh.engine, '{ queryHome { address members { __typename ... on Dog { breed } ... on Robot { serial } } favourite { __typename } } }');
    expect(read.data).toEqual({
      queryHome: [
        { address: 'a', members: [{ __typename: 'Dog', breed: 'lab' }, { __typename: 'Robot', serial: 'r2' }], favourite: { __typename: 'Robot' } },
        { address: 'b', members: [], favourite: { __typename: 'Dog' } },
      ],
    });
    await fresh.engine.close();
    expect(await exported(target)).toBe(first);
  });

  it('reports rejected records and goes on', async () => {
    const target = dir();
    const { engine } = await openEngine(target);
    expect((await engine.updateSchema(schema)).ok).toBe(true);
    const lines = [
      '{"__typename":"Person","name":"ok"}',
      'not json',
      '{"__typename":"Nope","x":1}',
      '{"__typename":"Person","name":"ok"}',
      '{"__typename":"Person","big":"12"}',
    ];
    const summary = await importData(engine, lines);
    expect(summary.added).toBe(1);
    expect(summary.rejected.map((r) => r.line)).toEqual([2, 3, 4, 5]);
    await engine.close();
  });

  it('the CLIs run offline on a data dir (dry run writes nothing)', async () => {
    const source = dir();
    const { engine } = await openEngine(source);
    expect((await engine.updateSchema(schema)).ok).toBe(true);
    await gql(engine, 'mutation { addPerson(input: [{ name: "ann", pets: [{ nick: "rex" }] }]) { numUids } }');
    await engine.close();
    const file = join(dir(), 'out.ndjson');
    const cli = (name: string, args: string[]) =>
      spawnSync(process.execPath, [join(projectRoot, `dist/server/cli/${name}.js`), ...args], { encoding: 'utf8' });
    const out = cli('export', [file, '--data-dir', source]);
    expect(out.stderr).toMatch(/exported 2 nodes/);
    const schemaFile = join(dir(), 'schema.graphql');
    writeFileSync(schemaFile, schema);
    const target = dir();
    const dry = cli('import', [file, '--data-dir', target, '--schema', schemaFile, '--dry-run']);
    expect(dry.stderr).toMatch(/dry run: would import 2 of 2 records.*nothing was written/);
    const real = cli('import', [file, '--data-dir', target, '--schema', schemaFile]);
    expect(real.status).toBe(0);
    expect(real.stderr).toMatch(/imported 2 of 2 records/);
    const again = join(dir(), 'again.ndjson');
    cli('export', [again, '--data-dir', target]);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(file, 'utf8'));
  });
});
