// gqlparser (Dgraph's parser) reads an empty argument or variable list, `queryHuman() { ... }`, as no
// list; graphql-js refuses it. Blank such `(` `)` pairs before parsing: spaces keep every location.

import { Lexer, Source, TokenKind } from 'graphql';

const maybeEmpty = /\(\s*\)/;

export function blankEmptyArguments(query: string): string {
  if (!maybeEmpty.test(query)) return query;
  const lexer = new Lexer(new Source(query));
  const blanks: number[] = [];
  try {
    let previous = lexer.advance();
    while (previous.kind !== TokenKind.EOF) {
      const token = lexer.advance();
      if (previous.kind === TokenKind.PAREN_L && token.kind === TokenKind.PAREN_R) blanks.push(previous.start, token.start);
      previous = token;
    }
  } catch {
    return query; // a lexing error: let the parser report it
  }
  if (blanks.length === 0) return query;
  const chars = query.split('');
  for (const at of blanks) chars[at] = ' ';
  return chars.join('');
}
