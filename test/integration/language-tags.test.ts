// Issue #13: language-tagged predicates (`@dgraph(pred: "Person.name@hi")`), end to end over HTTP.
// One-language fields are ordinary writable, filterable fields; multi-language fields (`@hi:zh`,
// `@hi:zh:.`) are read-only and read the first language holding a value (`.` = the untagged value);
// `@.` reads the untagged value, else a value in any language. Expected answers follow Dgraph's e2e
// test queryMultipleLangFields (graphql/e2e/common/query.go) over its schema's Person type.

import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askWithoutExtensions, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { makeTempDir, startServer, type ServerProcess } from './helpers/server-process.js';

const schema = `
type Person {
  id: ID!
  name: String! @search(by: [hash])
  nameHi: String @dgraph(pred: "Person.name@hi") @search(by: [hash])
  nameZh: String @dgraph(pred: "Person.name@zh") @search(by: [hash])
  nameHiZh: String @dgraph(pred: "Person.name@hi:zh")
  nameZhHi: String @dgraph(pred: "Person.name@zh:hi")
  nameHi_Zh_Untag: String @dgraph(pred: "Person.name@hi:zh:.")
  name_Untag_AnyLang: String @dgraph(pred: "Person.name@.") @search(by: [hash])
  professionEn: String @dgraph(pred: "Person.profession@en")
}
type Film {
  id: ID!
  title: String
  titleFr: String @dgraph(pred: "Film.title@fr")
  titleAny: String @dgraph(pred: "Film.title@.") @search(by: [term])
}
`;

interface Response {
  data?: any;
  errors?: { message: string; locations?: unknown; path?: unknown }[];
}

const dataDir = makeTempDir('lang-');
let server: ServerProcess;

const gql = (query: string, variables?: Record<string, unknown>): Promise<Response> => askWithoutExtensions<Response>(server.url, query, variables);

function startOn(dir: string): Promise<ServerProcess> {
  return startServer({ rawArgs: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir] });
}

const allFields = 'name nameZh nameHi nameHiZh nameZhHi nameHi_Zh_Untag name_Untag_AnyLang professionEn';
const juliet = {
  name: 'Juliet',
  nameZh: '朱丽叶',
  nameHi: 'जूलियट',
  nameHiZh: 'जूलियट',
  nameZhHi: '朱丽叶',
  nameHi_Zh_Untag: 'जूलियट',
  name_Untag_AnyLang: 'Juliet',
  professionEn: 'singer',
};
const alice = {
  name: 'Alice',
  nameZh: null,
  nameHi: 'ऐलिस',
  nameHiZh: 'ऐलिस',
  nameZhHi: 'ऐलिस',
  nameHi_Zh_Untag: 'ऐलिस',
  name_Untag_AnyLang: 'Alice',
  professionEn: 'cricketer',
};
const bob = {
  name: 'Bob',
  nameZh: null,
  nameHi: null,
  nameHiZh: null,
  nameZhHi: null,
  nameHi_Zh_Untag: 'Bob',
  name_Untag_AnyLang: 'Bob',
  professionEn: 'writer',
};

beforeAll(async () => {
  server = await startOn(dataDir);
  expect(await uploadSchema(server.url, schema)).toEqual(uploadSucceeded);
  const added = await gql(`mutation ($p: [AddPersonInput!]!) { addPerson(input: $p) { numUids } }`, {
    p: [
      { name: 'Bob', professionEn: 'writer' },
      { name: 'Alice', nameHi: 'ऐलिस', professionEn: 'cricketer' },
      { name: 'Juliet', nameHi: 'जूलियट', nameZh: '朱丽叶', professionEn: 'singer' },
    ],
  });
  expect(added).toEqual({ data: { addPerson: { numUids: 3 } } });
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('language tags over HTTP', () => {
  it('reads one-language, multi-language and any-language fields as Dgraph does (filter and order on tagged fields)', async () => {
    const answer = await gql(`{
      queryPerson(filter: { or: [{ name: { eq: "Bob" } }, { nameHi: { eq: "ऐलिस" } }, { nameZh: { eq: "朱丽叶" } }] }, order: { desc: nameHi }) { ${allFields} }
    }`);
    expect(answer).toEqual({ data: { queryPerson: [juliet, alice, bob] } });
  });

  it('the general path (@cascade) and get<T> read them too', async () => {
    const cascade = await gql(`{ queryPerson(order: { asc: name }) @cascade(fields: ["nameHiZh"]) { ${allFields} } }`);
    expect(cascade).toEqual({ data: { queryPerson: [alice, juliet] } });
    const ids = await gql(`{ queryPerson(order: { asc: name }) { id } }`);
    const julietId = ids.data.queryPerson[2].id;
    const get = await gql(`query ($id: ID!) { getPerson(id: $id) { ${allFields} } }`, { id: julietId });
    expect(get).toEqual({ data: { getPerson: juliet } });
  });

  it('orders by an any-language field and finds it with has', async () => {
    const answer = await gql(`{ queryPerson(order: { desc: name_Untag_AnyLang }, filter: { has: name_Untag_AnyLang }) { name } }`);
    expect(answer).toEqual({ data: { queryPerson: [{ name: 'Juliet' }, { name: 'Bob' }, { name: 'Alice' }] } });
  });

  // Dgraph's handleCompareFunction (worker/task.go): for lang "." it compares every value of the
  // predicate (AllValues: untagged and each language), for one language only that language's value,
  // and without a tag only the untagged value; reading `@.` still answers the untagged value first.
  it('a filter on an any-language field matches a value in any language; a tagged or untagged field only its own', async () => {
    const names = async (filter: string): Promise<unknown> => (await gql(`{ queryPerson(filter: ${filter}, order: { asc: name }) { name name_Untag_AnyLang } }`)).data;
    expect(await names('{ name_Untag_AnyLang: { eq: "ऐलिस" } }')).toEqual({ queryPerson: [{ name: 'Alice', name_Untag_AnyLang: 'Alice' }] });
    expect(await names('{ name_Untag_AnyLang: { eq: "Juliet" } }')).toEqual({ queryPerson: [{ name: 'Juliet', name_Untag_AnyLang: 'Juliet' }] });
    expect(await names('{ name_Untag_AnyLang: { in: ["朱丽叶", "Bob"] } }')).toEqual({
      queryPerson: [
        { name: 'Bob', name_Untag_AnyLang: 'Bob' },
        { name: 'Juliet', name_Untag_AnyLang: 'Juliet' },
      ],
    });
    expect(await names('{ name: { eq: "ऐलिस" } }')).toEqual({ queryPerson: [] });
    expect(await names('{ nameHi: { eq: "Alice" } }')).toEqual({ queryPerson: [] });
    expect(await names('{ nameZh: { in: ["朱丽叶", "Juliet"] } }')).toEqual({ queryPerson: [{ name: 'Juliet', name_Untag_AnyLang: 'Juliet' }] });
  });

  it('multi-language fields follow updates of the tagged values', async () => {
    const set = await gql(`mutation { updatePerson(input: { filter: { name: { eq: "Bob" } }, set: { nameZh: "鲍勃" } }) { person { nameZh nameHiZh nameZhHi nameHi_Zh_Untag } } }`);
    expect(set).toEqual({ data: { updatePerson: { person: [{ nameZh: '鲍勃', nameHiZh: '鲍勃', nameZhHi: '鲍勃', nameHi_Zh_Untag: '鲍勃' }] } } });
    const removed = await gql(`mutation { updatePerson(input: { filter: { name: { eq: "Juliet" } }, remove: { nameHi: "जूलियट" } }) { person { nameHi nameHiZh nameHi_Zh_Untag } } }`);
    expect(removed).toEqual({ data: { updatePerson: { person: [{ nameHi: null, nameHiZh: '朱丽叶', nameHi_Zh_Untag: '朱丽叶' }] } } });
  });

  it('an any-language field falls back to a tagged value when there is no untagged one', async () => {
    const added = await gql(`mutation { addFilm(input: [{ titleFr: "Le Mépris" }, { title: "Contempt", titleFr: "Le Mépris" }, {}]) { film { title titleFr titleAny } } }`);
    expect(added).toEqual({
      data: {
        addFilm: {
          film: [
            { title: null, titleFr: 'Le Mépris', titleAny: 'Le Mépris' },
            { title: 'Contempt', titleFr: 'Le Mépris', titleAny: 'Contempt' },
            { title: null, titleFr: null, titleAny: null },
          ],
        },
      },
    });
  });

  it('a term filter on an any-language field searches every language, none of them indexed by a field of its own', async () => {
    const titles = async (terms: string): Promise<unknown> =>
      (await gql(`query ($t: String!) { queryFilm(filter: { titleAny: { anyofterms: $t } }) { title titleFr } }`, { t: terms })).data;
    expect(await titles('MÉPRIS')).toEqual({ queryFilm: [{ title: null, titleFr: 'Le Mépris' }, { title: 'Contempt', titleFr: 'Le Mépris' }] });
    expect(await titles('contempt')).toEqual({ queryFilm: [{ title: 'Contempt', titleFr: 'Le Mépris' }] });
    // A value written later in a language is found too (the index follows the writes).
    await gql(`mutation { addFilm(input: [{ titleFr: "La Jetée" }]) { numUids } }`);
    expect(await titles('jetée')).toEqual({ queryFilm: [{ title: null, titleFr: 'La Jetée' }] });
  });

  it('multi-language and any-language fields are not writable', async () => {
    const answer = await gql(`mutation { addPerson(input: [{ name: "X", nameHiZh: "x" }]) { numUids } }`);
    expect(answer).toEqual({
      errors: [
        {
          message: 'Field "nameHiZh" is not defined by type AddPersonInput. Did you mean nameHi, nameZh, or name?',
          locations: [{ line: 1, column: 43 }],
        },
      ],
    });
  });

  it('survives a crash (log replay) and a clean stop (snapshot)', async () => {
    const query = `{ queryPerson(order: { asc: name }) { ${allFields} } queryFilm { titleAny } }`;
    const before = await gql(query);
    expect(before.data.queryPerson).toHaveLength(3);
    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      server.child.kill(signal);
      await server.exited;
      await server.stop();
      server = await startOn(dataDir);
      expect(await gql(query)).toEqual(before);
    }
  });
});
