// In-process engines over a temporary data directory, for the persistence tests.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, type EngineOptions, type FileIo } from '../../../engine/index.js';

export const schema = `
type Person {
  name: String! @id @search(by: [hash])
  age: Int @search
  big: Int64
  score: Float
  tags: [String] @search(by: [term])
  home: Point
  vec: [Float!] @embedding
  friends: [Person]
}
`;

export interface Notes {
  readonly warnings: string[];
  readonly infos: string[];
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'persist-unit-'));
}

export async function openEngine(dataDir: string, extra: Partial<EngineOptions> = {}, io?: FileIo): Promise<{ engine: Engine; notes: Notes }> {
  const notes: Notes = { warnings: [], infos: [] };
  const engine = await Engine.open({
    dataDir,
    maxQueryTokens: 50_000,
    maxQueryDepth: 200,
    debug: false,
    fsync: 'always',
    snapshotIntervalSeconds: 0,
    log: {
      error: (m, f) => notes.warnings.push(`${m} ${JSON.stringify(f ?? {})}`),
      info: (m, f) => notes.infos.push(`${m} ${JSON.stringify(f ?? {})}`),
      warn: (m, f) => notes.warnings.push(`${m} ${JSON.stringify(f ?? {})}`),
    },
    ...(io === undefined ? {} : { fileIo: io }),
    ...extra,
  });
  return { engine, notes };
}

export async function gql(engine: Engine, query: string, variables?: Record<string, unknown>): Promise<any> {
  const response = await engine.execute({ method: 'POST', query, variables, headers: {} });
  return JSON.parse(response.body);
}

export function addPeople(engine: Engine, names: readonly string[]): Promise<any> {
  const input = names.map((name, i) => ({ name, age: i, big: '9007199254740993', score: -0, tags: ['a b', name], home: { longitude: 1.5, latitude: -2.25 }, vec: [0.1, 0.2, 0.3] }));
  return gql(engine, 'mutation ($input: [AddPersonInput!]!) { addPerson(input: $input) { numUids } }', { input });
}

export async function allPeople(engine: Engine): Promise<any[]> {
  const answer = await gql(engine, '{ queryPerson(order: { asc: name }) { name age big score tags home { longitude latitude } vec friends { name } } }');
  if (answer.errors !== undefined) throw new Error(JSON.stringify(answer.errors));
  return answer.data.queryPerson as any[];
}
