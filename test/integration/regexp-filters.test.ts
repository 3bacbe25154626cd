// Issue #13 (short regular expressions) and the regexp siblings of issue #19 item 3, against the
// real server over HTTP. Dgraph evaluates a GraphQL `regexp` filter inside @filter, over the nodes
// of the queried type, with Go's RE2 syntax compiled as `(?m)` + pattern (`(?i)(?m)` + pattern for
// the `i` flag): every pattern is answered, also one without a trigram such as `/n/`; an empty value
// never matches; `^`/`$` match at line breaks; errors are RE2's parse errors.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from './helpers/http.js';
import { type ServerProcess, startWithSchema } from './helpers/server-process.js';

let server: ServerProcess;

const schema = `
type Place { id: ID!  name: String! @search(by: [regexp, hash])  tags: [String] @search(by: [regexp])  note: String }
`;

const names = ['Angola', 'Anguilla', 'Bangladesh', 'Nusa', 'NSW', 'Ελλάδα', 'Straße', 'line one\nline two', '', 'Kelvin'];

interface Response {
  data?: any;
  errors?: { message: string; locations?: unknown; path?: unknown }[];
}

async function gql(query: string, variables?: Record<string, unknown>): Promise<Response> {
  const answer = await postGraphql(server.url, { query, variables });
  expect(answer.status).toBe(200);
  return answer.json() as Response;
}

async function matching(regexp: string): Promise<string[]> {
  const r = await gql(`query ($r: String) { queryPlace(filter: { name: { regexp: $r } }, order: { asc: name }) { name } }`, { r: regexp });
  expect(r.errors).toBeUndefined();
  return (r.data.queryPlace as { name: string }[]).map((p) => p.name);
}

beforeAll(async () => {
  server = await startWithSchema(schema);
  const input = names.map((name, i) => ({ name, tags: i % 2 === 0 ? ['red', `t${i}`] : ['blue'] }));
  const added = await gql(`mutation ($input: [AddPlaceInput!]!) { addPlace(input: $input) { numUids } }`, { input });
  expect(added.data).toEqual({ addPlace: { numUids: names.length } });
});

afterAll(async () => {
  await server?.stop();
});

describe('regexp filters without a trigram (issue #13)', () => {
  it('answers /n/ by checking the values, as Dgraph does', async () => {
    expect(await matching('/n/')).toEqual(['Angola', 'Anguilla', 'Bangladesh', 'Kelvin', 'line one\nline two']);
  });
  it('answers one- and two-character patterns, anchored or with the i flag', async () => {
    expect(await matching('/n/i')).toEqual(['Angola', 'Anguilla', 'Bangladesh', 'Kelvin', 'NSW', 'Nusa', 'line one\nline two']);
    expect(await matching('/^N/')).toEqual(['NSW', 'Nusa']);
    expect(await matching('/.*/')).toEqual([...names].filter((n) => n !== '').sort());
    expect(await matching('/a$/')).toEqual(['Angola', 'Anguilla', 'Nusa']); // not the Greek alpha of Ελλάδα
  });
  it('never matches an empty value (Dgraph skips empty strings)', async () => {
    expect(await matching('/^$/')).toEqual([]);
    expect(await matching('/x*/')).toEqual([...names].filter((n) => n !== '').sort());
  });
});

describe('regexp semantics of RE2 as Dgraph compiles it', () => {
  it('matches ^ and $ at line breaks ((?m) prefix)', async () => {
    expect(await matching('/^line two$/')).toEqual(['line one\nline two']);
    expect(await matching('/one$/')).toEqual(['line one\nline two']);
  });
  it('folds case over Unicode with the i flag and (?i)', async () => {
    expect(await matching('/ΕΛΛ/i')).toEqual(['Ελλάδα']);
    expect(await matching('/(?i)ANG/')).toEqual(['Angola', 'Anguilla', 'Bangladesh']);
    expect(await matching('/\u212aelvin/i')).toEqual(['Kelvin']); // KELVIN SIGN folds to k
    expect(await matching('/STRASSE/i')).toEqual([]); // simple folding only: ß is not ss
  });
  it('accepts RE2-only syntax: Unicode classes, POSIX classes, \\x{...}, \\Q...\\E, (?P<name>...), \\A and \\z', async () => {
    expect(await matching('/\\p{Greek}+/')).toEqual(['Ελλάδα']);
    expect(await matching('/^[[:upper:]]{3}$/')).toEqual(['NSW']);
    expect(await matching('/\\x{df}/')).toEqual(['Straße']);
    expect(await matching('/\\Qa$\\E|gol/')).toEqual(['Angola']);
    expect(await matching('/(?P<x>ang)l/i')).toEqual(['Bangladesh']);
    expect(await matching('/\\Aline/')).toEqual(['line one\nline two']);
    expect(await matching('/two\\z/')).toEqual(['line one\nline two']);
    expect(await matching('/[]a]ng/')).toEqual(['Bangladesh']);
  });
  it('works inside not, or and and, and on list fields', async () => {
    const r = await gql(`{
      a: queryPlace(filter: { not: { name: { regexp: "/n/i" } } }, order: { asc: name }) { name }
      b: queryPlace(filter: { or: [{ name: { regexp: "/^N/" } }, { name: { regexp: "/ß/" } }] }, order: { asc: name }) { name }
      c: queryPlace(filter: { and: [{ name: { regexp: "/an/" } }, { tags: { regexp: "/^t\\\\d$/" } }] }, order: { asc: name }) { name }
      d: queryPlace(filter: { tags: { regexp: "/lu/" } }, order: { asc: name }) { name }
    }`);
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({
      a: [{ name: '' }, { name: 'Straße' }, { name: 'Ελλάδα' }],
      b: [{ name: 'NSW' }, { name: 'Nusa' }, { name: 'Straße' }],
      c: [{ name: 'Bangladesh' }],
      d: [{ name: 'Anguilla' }, { name: 'Kelvin' }, { name: 'Nusa' }, { name: 'line one\nline two' }, { name: 'Ελλάδα' }],
    });
  });
});

describe('invalid regular expressions get RE2 errors', () => {
  const cases: [string, string][] = [
    ['/(abc/', 'error parsing regexp: missing closing ): `(?m)(abc`'],
    ['/(abc/i', 'error parsing regexp: missing closing ): `(?i)(?m)(abc`'],
    ['/(?=abc)abc/', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['/x(?<!a)b/', 'error parsing regexp: invalid named capture: `(?<!a)b`'], // Go 1.22+ reads (?< as a named group
    ['/(abc)\\1/', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['/abc[/', 'error parsing regexp: missing closing ]: `[`'],
    ['/a{1001}/', 'error parsing regexp: invalid repeat count: `{1001}`'],
    ['/a**/', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['/abc/g', 'Invalid regexp modifier: g'],
    ['/abc/ii', 'Invalid regexp modifier: ii'],
  ];
  for (const [regexp, message] of cases) {
    it(`${regexp} → ${message}`, async () => {
      const r = await gql(`query ($r: String) { queryPlace(filter: { name: { regexp: $r } }) { name } }`, { r: regexp });
      expect(r.errors).toEqual([{ message, locations: [{ line: 1, column: 22 }], path: ['queryPlace'] }]);
      expect(r.data).toEqual({ queryPlace: null });
    });
  }
});
