// validateDocument is graphql-js's validate with each AST kind's handlers resolved on first use: the
// same errors (messages, locations, order), the same maxErrors cut, and the same skip/BREAK rules.
// Compared with graphql-js itself over valid and invalid documents.

import { BREAK, GraphQLError, parse, validate, type ValidationRule } from 'graphql';
import { describe, expect, it } from 'vitest';
import { requestRules } from '../../../engine/gqlparser/dgraph-rules.js';
import { validateDocument } from '../../../engine/request/validate-document.js';
import { compileSchema } from '../../../engine/schema/compile-schema.js';

const compiled = compileSchema(`
type Author { id: ID! handle: String! @id posts: [Post] @hasInverse(field: author) }
type Post { id: ID! slug: String! @id title: String @search(by: [term]) score: Int @search author: Author }
`);
if (!compiled.ok) throw new Error('schema');
const schema = compiled.compiled.apiSchema;

const documents = [
  'query ($id: ID!) { getPost(id: $id) { id slug author { handle } } }',
  '{ queryPost(filter: { title: { allofterms: "a" }, score: { gt: 1 } }, order: { desc: score }, first: 2) { ...F } } fragment F on Post { slug }',
  'mutation ($in: [AddPostInput!]!) { addPost(input: $in) { post { id } numUids } }',
  '{ getPost(id: "0x1") { nope slug(x: 1) author { nope2 } } queryAuthor(filter: { handle: { eq: 1, in: ["a"] } }) { handle } }',
  'query Q($a: Int, $a: String) { getPost(id: $b) { ...Missing ...F } } fragment F on Author { handle } fragment G on Post { slug }',
  'query { a: getPost(id: "1") { slug } a: getPost(id: "2") { title } } query { getPost { slug } }',
  '{ queryPost @cascade(fields: ["nope"]) { slug @skip(if: $v) @include } }',
  `{ ${Array.from({ length: 80 }, (_, i) => `f${i}: nope${i}`).join(' ')} }`,
];

const messages = (errors: readonly GraphQLError[]) => errors.map((e) => ({ message: e.message, locations: e.locations }));

describe('validateDocument', () => {
  it.each(documents.map((d, i) => [i, d]))('document %i: the errors of graphql-js validate, in order', (_i, text) => {
    const document = parse(text as string);
    for (const max of [50, 3]) {
      expect(messages(validateDocument(schema, document, requestRules, max))).toEqual(messages(validate(schema, document, requestRules, { maxErrors: max })));
    }
  });

  it('over 50 errors: cut at 50 plus the "Too many validation errors" error', () => {
    const errors = validateDocument(schema, parse(documents[7] as string), requestRules, 50);
    expect(errors).toHaveLength(51);
    expect(errors[50]?.message).toBe('Too many validation errors, error limit reached. Validation aborted.');
  });

  it('a visitor returning false skips its subtree only for itself; BREAK stops it for the rest of the document', () => {
    const seen: string[] = [];
    const skipsSelections: ValidationRule = () => ({ SelectionSet: () => false, Name: (node) => void seen.push(`a:${node.value}`) });
    const breaksAtField: ValidationRule = () => ({ Field: (node) => (node.name.value === 'author' ? BREAK : undefined), Name: (node) => void seen.push(`b:${node.value}`) });
    const reports: ValidationRule = (context) => ({ Field: { leave: (node) => context.reportError(new GraphQLError(`left ${node.name.value}`, { nodes: node })) } });
    const document = parse('query Q { getPost(id: "1") { slug author { handle } title } }');
    const ours = validateDocument(schema, document, [skipsSelections, breaksAtField, reports], 50);
    const ourSeen = seen.splice(0);
    const theirs = validate(schema, document, [skipsSelections, breaksAtField, reports], { maxErrors: 50 });
    expect(ourSeen).toEqual(seen);
    expect(ourSeen).toEqual(['a:Q', 'b:Q', 'b:getPost', 'b:id', 'b:slug']);
    expect(messages(ours)).toEqual(messages(theirs));
  });

  it('a rule whose visitor changes shape between documents is followed (the per-kind lists are rebuilt)', () => {
    let calls = 0;
    const changing: ValidationRule = (context) =>
      calls++ % 2 === 0 ? {} : { Field: (node) => context.reportError(new GraphQLError(`field ${node.name.value}`, { nodes: node })) };
    const document = parse('{ getPost(id: "1") { slug } }');
    const first = validateDocument(schema, document, [changing], 50);
    const second = validateDocument(schema, document, [changing], 50);
    const third = validateDocument(schema, document, [changing], 50);
    expect(messages(first)).toEqual([]);
    expect(messages(second).map((e) => e.message)).toEqual(['field getPost', 'field slug']);
    expect(messages(third)).toEqual([]);
  });
});
