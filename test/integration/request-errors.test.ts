// Request errors in Dgraph's wording (its parser and validator, gqlparser), one case per validator
// rule where graphql-js words it otherwise, over HTTP against the real server: exact message and
// locations. Also: an empty argument list parses, and a mutation on a schema without Mutation is a
// validation error.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { type ServerProcess, startWithSchema } from './helpers/server-process.js';
import { answerTo, itAnswersOneError, type ErrorCase } from './helpers/error-cases.js';

const schema = `
enum Mood { HAPPY SAD }
type Human {
  id: ID!
  name: String! @search(by: [term, fulltext])
  mood: Mood
  friends: [Human]
}
`;

let server: ServerProcess;

beforeAll(async () => {
  server = await startWithSchema(schema);
});
afterAll(async () => {
  await server.stop();
});

const errorsOf = (query: string): Promise<unknown> => answerTo(server.url, query);

// gqlparser places a directive at its name (parseDirective takes the position after `@`), a field at
// its alias or name, a fragment cycle at the name of the spread closing it.
const cases: readonly ErrorCase[] = [
  ['KnownArgumentNames (field)', '{ queryHuman(frist: 1) { name } }', 'Unknown argument "frist" on field "queryHuman" of type "Query". Did you mean "first"?', [{ line: 1, column: 3 }]],
  ['KnownDirectives (unknown)', '{ queryHuman { name @upper } }', 'Unknown directive "upper".', [{ line: 1, column: 22 }]],
  ['KnownDirectives (misplaced)', 'query @skip(if: true) { queryHuman { name } }', 'Directive "skip" may not be used on QUERY.', [{ line: 1, column: 8 }]],
  [
    'UniqueDirectivesPerLocation',
    '{ queryHuman { name @cascade @cascade } }',
    'The directive "cascade" can only be used once at this location.',
    [{ line: 1, column: 31 }],
  ],
  [
    'ProvidedRequiredArguments (field)',
    '{ getHuman { name } }',
    'Field "getHuman" argument "id" of type "ID!" is required but not provided.',
    [{ line: 1, column: 3 }],
  ],
  [
    'ProvidedRequiredArguments (directive)',
    '{ queryHuman { name @include } }',
    'Directive "@include" argument "if" of type "Boolean!" is required but not provided.',
    [{ line: 1, column: 22 }],
  ],
  ['ScalarLeafs (missing selection)', '{ queryHuman { friends } }', 'Field "friends" of type "[Human]" must have a selection of subfields. Did you mean "friends { ... }"?', [{ line: 1, column: 16 }]],
  [
    'ValuesOfCorrectType (unknown input field)',
    '{ queryHuman(filter: { name: { regexp: "/a/" } }) { name } }',
    'Field "regexp" is not defined by type StringFullTextFilter_StringTermFilter.',
    [{ line: 1, column: 32 }],
  ],
  [
    'ValuesOfCorrectType (required input field)',
    'mutation { addHuman(input: [{ mood: HAPPY }]) { numUids } }',
    'Field AddHumanInput.name of required type String! was not provided.',
    [{ line: 1, column: 29 }],
  ],
  [
    'ValuesOfCorrectType (enum)',
    'mutation { addHuman(input: [{ name: "x", mood: ANGRY }]) { numUids } }',
    'Expected type Mood, found ANGRY.',
    [{ line: 1, column: 48 }],
  ],
  [
    'UniqueVariableNames',
    'query ($a: Int, $a: Int) { queryHuman(first: $a) { name } }',
    'There can be only one variable named "a".',
    [{ line: 1, column: 17 }],
  ],
  [
    'NoFragmentCycles',
    '{ queryHuman { ...A } } fragment A on Human { ...B } fragment B on Human { ...A }',
    'Cannot spread fragment "A" within itself via B.',
    [{ line: 1, column: 79 }],
  ],
];

describe("gqlparser's wording for validation errors", () => {
  itAnswersOneError(() => server.url, cases);
});

it('KnownArgumentNames (directive), with the missing argument after it as gqlparser orders them', async () => {
  expect(await errorsOf('{ queryHuman { name @include(iff: true) } }')).toEqual({
    errors: [
      { message: 'Unknown argument "iff" on directive "@include". Did you mean "if"?', locations: [{ line: 1, column: 22 }] },
      { message: 'Directive "@include" argument "if" of type "Boolean!" is required but not provided.', locations: [{ line: 1, column: 22 }] },
    ],
  });
});

describe("Dgraph's parser", () => {
  it('accepts an empty argument list', async () => {
    expect(await errorsOf('{ queryHuman() { name } }')).toEqual({ data: { queryHuman: [] } });
  });

  it('accepts an empty variable list and keeps later locations', async () => {
    expect(await errorsOf('query q() { queryHuman() { nam } }')).toEqual({
      errors: [{ message: 'Cannot query field "nam" on type "Human". Did you mean "name"?', locations: [{ line: 1, column: 28 }] }],
    });
  });
});

describe('an operation the schema has no root type for', () => {
  it('a mutation on a schema without Mutation is a validation error, not an internal error', async () => {
    const readOnly = 'type Note @generate(mutation: {add: false, update: false, delete: false}) {\n  id: ID!\n  text: String\n}\n';
    expect(await uploadSchema(server.url, readOnly)).toEqual(uploadSucceeded);
    expect(await errorsOf('mutation { addNote(input: [{text: "x"}]) { numUids } }')).toEqual({
      errors: [{ message: 'Schema does not support operation type "mutation"', locations: [{ line: 1, column: 1 }] }],
    });
    expect(server.output()).not.toMatch(/Internal error|failed:/);
  });
});

describe('an unknown type, as gqlparser and Dgraph report it', () => {
  beforeAll(async () => {
    expect(await uploadSchema(server.url, schema)).toEqual(uploadSucceeded);
  });

  it('a variable of an unknown type used as an argument (e2e error_test "unknown variable type"): three errors', async () => {
    const query = 'query q($filter: HumanFiltarzzz!) {\n  queryHuman(filter: $filter) { name }\n}\n';
    const answer = await postGraphql(server.url, { query, variables: { filter: 'type was wrong' } });
    expect(answer.json()).toEqual({
      errors: [
        { message: 'Variable type provided HumanFiltarzzz! is incompatible with expected type HumanFilter', locations: [{ line: 2, column: 22 }] },
        { message: 'Variable "$filter" of type "HumanFiltarzzz!" used in position expecting type "HumanFilter".', locations: [{ line: 2, column: 22 }] },
        { message: 'Unknown type "HumanFiltarzzz".', locations: [{ line: 1, column: 1 }] },
      ],
    });
  });

  it('an unused variable of an unknown type: reported once, at the operation, before the unused variable', async () => {
    expect(await errorsOf('query q($a: [Foo!]) { queryHuman { name } }')).toEqual({
      errors: [
        { message: 'Unknown type "Foo".', locations: [{ line: 1, column: 1 }] },
        { message: 'Variable "$a" is never used in operation "q".', locations: [{ line: 1, column: 9 }] },
      ],
    });
  });

  it('an inline fragment on an unknown type: at the `on`', async () => {
    expect(await errorsOf('{ queryHuman { ... on Hman { name } } }')).toEqual({
      errors: [{ message: 'Unknown type "Hman".', locations: [{ line: 1, column: 20 }] }],
    });
  });
});

// Dgraph's parser (gqlparser's lexer and parser): no "Syntax Error: " prefix, tokens as it prints them.
const syntaxCases: readonly ErrorCase[] = [
  ['missing closing brace', '{ queryHuman { name }', 'Expected Name, found <EOF>', [{ line: 1, column: 22 }]],
  ['unterminated string', '{ queryHuman(filter: { name: { anyofterms: "abc }) { name } }', 'Unterminated string.', [{ line: 1, column: 62 }]],
  ['unexpected character', '{ queryHuman { name ^ } }', 'Cannot parse the unexpected character "^".', [{ line: 1, column: 21 }]],
  ['digit after 0', '{ queryHuman(first: 01) { name } }', 'Invalid number, unexpected digit after 0: "1".', [{ line: 1, column: 22 }]],
  ['number without digits after the dot', '{ queryHuman(first: 1.) { name } }', 'Invalid number, expected digit but got: ")".', [{ line: 1, column: 23 }]],
  ['unknown escape', '{ queryHuman(filter: { name: { anyofterms: "a\\qb" } }) { name } }', 'Invalid character escape sequence: \\q.', [{ line: 1, column: 47 }]],
  ['short unicode escape', '{ queryHuman(filter: { name: { anyofterms: "a\\u12" } }) { name } }', 'Invalid character escape sequence: \\u12" .', [{ line: 1, column: 47 }]],
  ['empty selection set', '{ queryHuman { } }', 'expected at least one definition, found }', [{ line: 1, column: 16 }]],
  ['variable without a colon', 'query q($a Int) { queryHuman { name } }', 'Expected :, found Name', [{ line: 1, column: 12 }]],
  ['missing value', '{ queryHuman(first: ) { name } }', 'Unexpected )', [{ line: 1, column: 21 }]],
  ['fragment without on', 'fragment F Human { name } { queryHuman { ...F } }', 'Expected "on", found Name "Human"', [{ line: 1, column: 12 }]],
  ['single quote', "{ queryHuman { name } } 'x'", 'Unexpected single quote character (\'), did you mean to use a double quote (")?', [{ line: 1, column: 25 }]],
  ['control character', '{ queryHuman { name \u0001 } }', 'Cannot contain the invalid character "\\u0001"', [{ line: 1, column: 21 }]],
  ['on the second line', '{\n  queryHuman { name ^ }\n}', 'Cannot parse the unexpected character "^".', [{ line: 2, column: 21 }]],
];

describe("gqlparser's wording and location for syntax errors", () => {
  itAnswersOneError(() => server.url, syntaxCases);
});

// gqlparser's ParseQuery knows only operations and fragments: it stops where any other definition
// starts (graphql-js parses it and calls it "not executable" at validation).
const typeSystemCases: readonly ErrorCase[] = [
  ['a type definition', 'type Foo { a: Int }', 'Unexpected Name "type"', [{ line: 1, column: 1 }]],
  ['a scalar after an operation', '{ queryHuman { name } }\nscalar Foo', 'Unexpected Name "scalar"', [{ line: 2, column: 1 }]],
  ['a type extension between two operations', 'query A { queryHuman { name } } extend type Human { x: Int } query B { queryHuman { name } }', 'Unexpected Name "extend"', [{ line: 1, column: 33 }]],
  ['a described definition: at the description', '{ queryHuman { name } }\n"Fooé" type Foo { a: Int }', 'Unexpected String "Fooé"', [{ line: 2, column: 1 }]],
  ['a schema definition after a fragment', '{ queryHuman { ...F } }\nfragment F on Human { name }\nschema { query: Human }', 'Unexpected Name "schema"', [{ line: 3, column: 1 }]],
  // gqlparser never reaches the syntax error further on.
  ['before a syntax error', '{ queryHuman { name } }\ndirective @d on FIELD\n{ queryHuman { name }', 'Unexpected Name "directive"', [{ line: 2, column: 1 }]],
  ['an unfinished type definition', '{ queryHuman { name } }\ntype Foo { a: ', 'Unexpected Name "type"', [{ line: 2, column: 1 }]],
  // A syntax error before it comes first.
  ['after a syntax error', '{ queryHuman(first: ) { name } }\ntype Foo { a: Int }', 'Unexpected )', [{ line: 1, column: 21 }]],
];

describe('a type-system definition in a request, as gqlparser refuses it', () => {
  itAnswersOneError(() => server.url, typeSystemCases);
});
