// "Did you mean" suggestions and fragment-spread locations as Dgraph's validator (gqlparser) gives them,
// over HTTP against the real server: its candidates (plain Levenshtein, threshold half the longer
// name, ties in schema order, at most five), its quoting, and its places (an unknown argument at its
// field or directive name, a spread at the fragment's name, an inline fragment at the token after `...`).

import { afterAll, beforeAll, describe } from 'vitest';
import { type ServerProcess, startWithSchema } from './helpers/server-process.js';
import { itAnswersOneError, type ErrorCase } from './helpers/error-cases.js';

const schema = `
enum Mood { HAPPY SAD HANGRY }
interface Animal { id: ID!  name: String! @search(by: [term]) }
type Dog implements Animal { lives: Int  barks: Boolean }
type Cat implements Animal { lives: Int  meows: Boolean }
type Person {
  id: ID!
  name: String! @search(by: [hash])
  nickname: String
  age: Int @search
  mood: Mood
  pets: [Animal]
}
`;

let server: ServerProcess;

beforeAll(async () => {
  server = await startWithSchema(schema);
});
afterAll(async () => {
  await server.stop();
});


const suggestionCases: readonly ErrorCase[] = [
  // graphql-js: "age" or "name" (ties in alphabetical order).
  ['unknown field: ties in field order', '{ queryPerson { nage } }', 'Cannot query field "nage" on type "Person". Did you mean "name" or "age"?', [{ line: 1, column: 17 }]],
  // graphql-js suggests nothing: its threshold is 40% of the typed name, gqlparser's half the longer one.
  ['unknown field: a short name', '{ queryPerson { pe } }', 'Cannot query field "pe" on type "Person". Did you mean "pets"?', [{ line: 1, column: 17 }]],
  // graphql-js: "age" (it counts a transposition as one edit).
  ['unknown field: no transpositions', '{ queryPerson { aeg } }', 'Cannot query field "aeg" on type "Person".', [{ line: 1, column: 17 }]],
  // graphql-js: "Cat" or "Dog".
  [
    'unknown field on an interface: the implementing types in schema order',
    '{ queryAnimal { lives } }',
    'Cannot query field "lives" on type "Animal". Did you mean to use an inline fragment on "Dog" or "Cat"?',
    [{ line: 1, column: 17 }],
  ],
  // graphql-js: at the argument, without the suggestion once reworded.
  ['unknown argument of a field: at the field', '{ queryPerson(frist: 1) { name } }', 'Unknown argument "frist" on field "queryPerson" of type "Query". Did you mean "first"?', [{ line: 1, column: 3 }]],
  ['unknown argument of an aliased field: at the alias', '{ p: queryPerson(frist: 1) { name } }', 'Unknown argument "frist" on field "queryPerson" of type "Query". Did you mean "first"?', [{ line: 1, column: 3 }]],
  ['unknown argument of a directive: at its name', '{ queryPerson { name @skip(iff: true, if: false) } }', 'Unknown argument "iff" on directive "@skip". Did you mean "if"?', [{ line: 1, column: 23 }]],
  // graphql-js: "name, age, and, has, or not".
  ['unknown input field', '{ queryPerson(filter: { nae: { eq: "x" } }) { name } }', 'Field "nae" is not defined by type PersonFilter. Did you mean name?', [{ line: 1, column: 25 }]],
  // graphql-js: HAPPY only.
  [
    'unknown enum value',
    'mutation { addPerson(input: [{ name: "x", mood: HAPY }]) { numUids } }',
    'Expected type Mood, found HAPY. Did you mean the enum value HAPPY or HANGRY?',
    [{ line: 1, column: 49 }],
  ],
  ['a string for an enum value', '{ queryPerson(order: { asc: "name" }) { name } }', 'Expected type PersonOrderable, found "name". Did you mean the enum value name, age, or nickname?', [{ line: 1, column: 30 }]],
  ['an enum value where a list is expected', '{ queryPerson(filter: { has: nam }) { name } }', 'Expected type [PersonHasFilter], found nam. Did you mean the enum value name?', [{ line: 1, column: 30 }]],
  ['a missing selection', '{ queryPerson { pets } }', 'Field "pets" of type "[Animal]" must have a selection of subfields. Did you mean "pets { ... }"?', [{ line: 1, column: 17 }]],
  ['the unknown type of a fragment', '{ queryPerson { ...F } }\nfragment F on Persn { name }', 'Unknown type "Persn". Did you mean "Person" or "PersonRef"?', [{ line: 2, column: 1 }]],
];

describe("gqlparser's suggestions", () => {
  itAnswersOneError(() => server.url, suggestionCases);
});

const spreadCases: readonly ErrorCase[] = [
  ['an unknown fragment: at its name', '{ queryPerson { ...  Nope } }', 'Unknown fragment "Nope".', [{ line: 1, column: 22 }]],
  [
    'a fragment that can never apply: at its name, not at `...`',
    '{ queryPerson { ... D } }\nfragment D on Dog { barks }',
    'Fragment "D" cannot be spread here as objects of type "Person" can never be of type "Dog".',
    [{ line: 1, column: 21 }],
  ],
  [
    'an inline fragment that can never apply: at its `on`',
    '{ queryPerson { ... on Dog { barks } } }',
    'Fragment cannot be spread here as objects of type "Person" can never be of type "Dog".',
    [{ line: 1, column: 21 }],
  ],
  [
    'a fragment cycle: once, at the name of the spread that closes it',
    '{ queryPerson { ...A } }\nfragment A on Person { ...B }\nfragment B on Person { name ...A }',
    'Cannot spread fragment "A" within itself via B.',
    [{ line: 3, column: 32 }],
  ],
];

describe('fragment spreads placed as gqlparser places them', () => {
  itAnswersOneError(() => server.url, spreadCases);
});
