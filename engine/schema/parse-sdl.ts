// Step 3-4 of the pipeline: parse the SDL (graphql-js) and turn `extend type X` into a definition
// carrying `@extends`, appended after the other definitions as Dgraph does.
import { GraphQLError, parse } from 'graphql';
import type { SchemaError } from '../api.js';
import { convertDocument } from './from-document.js';
import type { Definition } from './sdl-ast.js';

export type ParseResult = { readonly ok: true; readonly definitions: Definition[]; readonly directiveNames: string[] } | { readonly ok: false; readonly errors: SchemaError[] };

export function parseSdl(sdl: string): ParseResult {
  let doc;
  try {
    doc = parse(sdl);
  } catch (e) {
    if (e instanceof GraphQLError) return { ok: false, errors: [toGqlparserError(e, sdl)] };
    throw e;
  }
  const { definitions, directiveNames } = convertDocument(doc);
  const normal = definitions.filter((d) => !d.extension);
  const extensions = definitions.filter((d) => d.extension);
  for (const ext of extensions) {
    if (ext.name !== 'Query' && ext.name !== 'Mutation') ext.directives.push({ name: 'extends', args: [] });
  }
  return { ok: true, definitions: [...normal, ...extensions], directiveNames };
}

/** graphql-js says `Syntax Error: Expected Name, found ":".`; gqlparser says `Expected Name, found :`. */
export function toGqlparserError(e: GraphQLError, source?: string): SchemaError {
  let message = e.message.replace(/^Syntax Error: /, '').replace(/\.$/, '');
  // gqlparser words an empty `{ }` field/value list this way.
  if (message === 'Expected Name, found "}"' && source !== undefined && e.positions?.[0] !== undefined) {
    if (source.slice(0, e.positions[0]).trimEnd().endsWith('{')) message = 'expected at least one definition, found }';
  }
  message = message.replace(/found "([^"\w]+)"$/, 'found $1').replace(/found <EOF>$/, 'found EOF');
  const loc = e.locations?.[0];
  return loc ? { message, locations: [{ line: loc.line, column: loc.column }] } : { message };
}
