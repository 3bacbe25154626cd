// A type-system definition (`type`, `scalar`, `extend`, `schema`, a described definition...) in a
// request document. graphql-js parses it and validation calls it "not executable"; gqlparser's
// ParseQuery stops where such a definition starts: `Unexpected Name "type"` (`Unexpected String "..."`
// for a description), before any syntax error further on.

import { Lexer, Source, TokenKind, type Token } from 'graphql';
import { goQuote } from '../schema/go-quote.js';
import type { SyntaxErrorText } from '../gqlparser/syntax-errors.js';

const executableStarts = new Set(['query', 'mutation', 'subscription', 'fragment']);
const opening = new Set<string>([TokenKind.BRACE_L, TokenKind.PAREN_L, TokenKind.BRACKET_L]);
const closing = new Set<string>([TokenKind.BRACE_R, TokenKind.PAREN_R, TokenKind.BRACKET_R]);

function describe(token: Token): string | undefined {
  const value = token.value ?? '';
  if (token.kind === TokenKind.NAME) return executableStarts.has(value) ? undefined : `Name ${goQuote(value)}`;
  if (token.kind === TokenKind.STRING) return `String ${goQuote(value)}`;
  if (token.kind === TokenKind.BLOCK_STRING) return `BlockString ${goQuote(value)}`;
  return undefined;
}

/**
 * gqlparser's error for the first definition, starting before `before` (a UTF-16 offset), that is not
 * an operation or a fragment; undefined if there is none. Definitions start at the top level after a
 * `}` that closes the previous one.
 */
export function typeSystemDefinitionError(text: string, before = Infinity): SyntaxErrorText | undefined {
  const lexer = new Lexer(new Source(text));
  let depth = 0;
  let atStart = true;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF && token.start < before; token = lexer.advance()) {
      if (atStart && depth === 0) {
        const what = describe(token);
        if (what !== undefined) {
          // Columns in code points, as gqlparser counts runes.
          const lineStart = token.start - (token.column - 1);
          const column = Array.from(text.slice(lineStart, token.start)).length + 1;
          return { message: `Unexpected ${what}`, locations: [{ line: token.line, column }] };
        }
      }
      if (opening.has(token.kind)) depth++;
      else if (closing.has(token.kind)) depth--;
      atStart = token.kind === TokenKind.BRACE_R && depth === 0;
    }
  } catch {
    return undefined; // a lexical error comes first
  }
  return undefined;
}
