// Step 3-4 of the pipeline: parse the SDL (graphql-js) and turn `extend type X` into a definition
// carrying `@extends`, appended after the other definitions as Dgraph does.
import { GraphQLError, Kind, Lexer, Source, TokenKind, parse } from 'graphql';
import type { SchemaError } from '../api.js';
import { convertDocument } from './from-document.js';
import type { Definition } from './sdl-ast.js';
import { toGqlparserSyntax } from '../gqlparser/syntax-errors.js';

export type ParseResult = { readonly ok: true; readonly definitions: Definition[]; readonly directiveNames: string[] } | { readonly ok: false; readonly errors: SchemaError[] };

export function parseSdl(sdl: string): ParseResult {
  let doc;
  try {
    doc = parse(blankEmptyArgumentLists(sdl));
  } catch (e) {
    if (e instanceof GraphQLError) return { ok: false, errors: [toGqlparserError(e, sdl)] };
    throw e;
  }
  // A schema document holds no operations or fragments (gqlparser's ParseSchema refuses them).
  const executable = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION);
  if (executable?.loc) {
    const tok = executable.loc.startToken;
    const what = tok.kind === TokenKind.NAME ? `Name "${tok.value}"` : tok.kind;
    return { ok: false, errors: [{ message: `Unexpected ${what}`, locations: [{ line: tok.line, column: tok.column }] }] };
  }
  const { definitions, directiveNames } = convertDocument(doc);
  const normal = definitions.filter((d) => !d.extension);
  const extensions = definitions.filter((d) => d.extension);
  for (const ext of extensions) {
    if (ext.name !== 'Query' && ext.name !== 'Mutation') ext.directives.push({ name: 'extends', args: [] });
  }
  return { ok: true, definitions: [...normal, ...extensions], directiveNames };
}

/** A syntax error in the words and at the place of gqlparser's schema parser (its lexer and expect() are the query parser's). */
function toGqlparserError(e: GraphQLError, source: string): SchemaError {
  const { message, locations } = toGqlparserSyntax(e, source);
  const first = locations?.[0];
  return first === undefined ? { message } : { message, locations: [first] };
}

/**
 * gqlparser accepts an empty argument list (`@auth()`), graphql-js does not: blank such `()` pairs
 * out (keeping every other position unchanged) before parsing.
 */
function blankEmptyArgumentLists(sdl: string): string {
  const lexer = new Lexer(new Source(sdl));
  const blanks: number[] = [];
  try {
    let prev = lexer.advance();
    while (prev.kind !== TokenKind.EOF) {
      const tok = lexer.advance();
      if (prev.kind === TokenKind.PAREN_L && tok.kind === TokenKind.PAREN_R) blanks.push(prev.start, tok.start);
      prev = tok;
    }
  } catch {
    return sdl; // the parser will report the lexical error
  }
  if (blanks.length === 0) return sdl;
  const chars = [...sdl.split('')];
  for (const i of blanks) chars[i] = ' ';
  return chars.join('');
}
