// The five schemas of Dgraph's e2e/custom_logic/schemas (SINGLE/BATCH × REST/GraphQL, mixed) must give
// the same answers over the same data, against the mock upstream.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rewriteHosts, testdata } from './helpers/mock-upstream.js';
import { startRig, uploaded, type Rig } from './helpers/service.js';

const dir = join(testdata, 'e2e/custom_logic/schemas');
const schemas = readdirSync(dir).filter((f) => f.endsWith('.graphql')).sort();

let rig: Rig;

beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.stop();
});

const query = `query {
  queryUser(order: { asc: age }) {
    id name age
    cars { name }
    schools { id name established classes { name } teachers { tid name age } }
  }
}`;

interface Teacher { tid: string; name: string | null; age: number }
interface School { id: string; name: string | null; established: number; classes: { name: string }[]; teachers: Teacher[] }
interface User { id: string; name: string | null; age: number; cars: { name: string } | null; schools: School[] }

function expected(users: readonly User[]): User[] {
  return users.map((u) => ({
    ...u,
    name: `uname-${u.id}`,
    cars: { name: `car-${u.id}` },
    schools: u.schools.map((s) => ({
      ...s,
      name: `sname-${s.id}`,
      classes: [{ name: `class-${s.id}` }],
      teachers: s.teachers.map((t) => ({ ...t, name: `tname-${t.tid}` })),
    })),
  }));
}

describe('e2e/custom_logic/schemas', () => {
  it('finds the five schemas', () => {
    expect(schemas).toHaveLength(5);
  });

  const answers: unknown[] = [];
  for (const file of schemas) {
    it(`${file}: custom fields of stored parents resolve against the mock`, async () => {
      const sdl = rewriteHosts(readFileSync(join(dir, file), 'utf8'), rig.mock.url);
      expect(await rig.upload(sdl)).toEqual(uploaded);
      const existing = await rig.gql('query { queryUser { id } }');
      if ((existing.data?.queryUser ?? []).length === 0) {
        const added = await rig.gql(`mutation {
          addUser(input: [
            { age: 10, schools: [{ established: 1980, teachers: [{ age: 30 }, { age: 31 }] }, { established: 1981, teachers: [{ age: 32 }] }] },
            { age: 20, schools: [{ established: 1990, teachers: [{ age: 40 }] }] },
            { age: 30, schools: [] }
          ]) { numUids }
        }`);
        expect(added.errors).toBeUndefined();
      }
      const answer = await rig.gql(query);
      expect(answer.errors).toBeUndefined();
      const users = answer.data.queryUser as User[];
      expect(users).toHaveLength(3);
      expect(users).toEqual(expected(users));
      answers.push(answer.data);
      expect(answer.data).toEqual(answers[0]);
    });
  }
});
