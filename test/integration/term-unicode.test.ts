// Term and fulltext tokens of non-ASCII text as Dgraph makes them (tok/bleve.go: bleve's unicode
// tokenizer, its lower-case filter — Go's unicode.ToLower rune by rune — then NFKC), over HTTP against
// the real server: a value matches a query only if their tokens agree after that normalisation.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from './helpers/http.js';
import { type ServerProcess, startWithSchema } from './helpers/server-process.js';

const schema = `
type Place {
  id: ID!
  name: String! @search(by: [term, fulltext])
}
`;

const names = ['ＡＢＣ Corp', 'İstanbul', 'Straße', 'Cafe\u0301 Noir', 'ℌello', 'plain ascii'];

let server: ServerProcess;

beforeAll(async () => {
  server = await startWithSchema(schema);
  const input = names.map((name) => ({ name }));
  const added = await postGraphql(server.url, { query: 'mutation ($input: [AddPlaceInput!]!) { addPlace(input: $input) { numUids } }', variables: { input } });
  expect(added.json()).toMatchObject({ data: { addPlace: { numUids: names.length } } });
});
afterAll(async () => {
  await server.stop();
});

async function namesWhere(filter: string, value: string): Promise<unknown> {
  const query = `query ($v: String!) { queryPlace(filter: { name: { ${filter}: $v } }, order: { asc: name }) { name } }`;
  const answer = await postGraphql(server.url, { query, variables: { v: value } });
  const body = answer.json() as { data?: { queryPlace: { name: string }[] }; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data?.queryPlace.map((p) => p.name);
}

describe('term tokens, lower-cased as Go does and NFKC-normalised', () => {
  it('full-width letters match their ASCII form', async () => {
    expect(await namesWhere('anyofterms', 'abc')).toEqual(['ＡＢＣ Corp']);
    expect(await namesWhere('allofterms', 'ＡＢＣ corp')).toEqual(['ＡＢＣ Corp']);
  });

  it('dotted capital I lowers to a plain i (JS would give i + U+0307)', async () => {
    expect(await namesWhere('anyofterms', 'istanbul')).toEqual(['İstanbul']);
  });

  it('ß stays ß: capital ẞ matches, "strasse" does not', async () => {
    expect(await namesWhere('anyofterms', 'STRAẞE')).toEqual(['Straße']);
    expect(await namesWhere('anyofterms', 'strasse')).toEqual([]);
  });

  it('a combining accent composes: e + U+0301 matches é', async () => {
    expect(await namesWhere('anyofterms', 'café')).toEqual(['Cafe\u0301 Noir']);
  });

  it('NFKC after lower-casing: ℌ (no lower case) becomes H, which "hello" does not match', async () => {
    expect(await namesWhere('anyofterms', 'hello')).toEqual([]);
    expect(await namesWhere('anyofterms', 'ℌELLO')).toEqual(['ℌello']);
  });
});

describe('fulltext tokens, the same normalisation before stemming', () => {
  it('full-width and composed forms', async () => {
    expect(await namesWhere('alloftext', 'ＣＯＲＰＳ')).toEqual(['ＡＢＣ Corp']);
    expect(await namesWhere('anyoftext', 'İSTANBUL café')).toEqual(['Cafe\u0301 Noir', 'İstanbul']);
  });
});
