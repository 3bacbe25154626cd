// graphql-js's syntax errors in the wording and at the place of Dgraph's parser (gqlparser): its lexer
// words every lexical error otherwise, and its parser prints tokens without quotes around punctuators,
// without the `Syntax Error: ` prefix or a final period.

import type { GraphQLError } from 'graphql';

interface Location {
  readonly line: number;
  readonly column: number;
}

export interface SyntaxErrorText {
  readonly message: string;
  readonly locations?: Location[];
}

interface LexError {
  readonly message: string;
  /** UTF-16 offset of the token it is in, to compare with graphql-js's positions. */
  readonly tokenStart: number;
  readonly location: Location;
}

const punctuators = new Set(['!', '$', '&', '(', ')', ':', '=', '@', '[', ']', '{', '}', '|']);
const escapes = new Set(['"', '/', '\\', 'b', 'f', 'n', 'r', 't']);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isNameStart = (c: string): boolean => c === '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isNameChar = (c: string | undefined): boolean => c !== undefined && (isNameStart(c) || isDigit(c));
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** Go's `%04d` of a byte: gqlparser prints control characters as `\u` plus four *decimal* digits. */
const goControl = (c: string): string => `\\u${String(c.charCodeAt(0)).padStart(4, '0')}`;

const utf8 = new TextEncoder();

/** gqlparser describes a character by its first UTF-8 byte read as a rune (Latin-1 for non-ASCII). */
function goByte(text: string, index: number): string {
  const first = utf8.encode(String.fromCodePoint(text.codePointAt(index) ?? 0))[0] ?? 0;
  return String.fromCharCode(first);
}

/** The first error gqlparser's lexer meets in the text, if any (it stops at the first one). */
function firstLexError(text: string): LexError | undefined {
  const chars = text; // indexed by UTF-16 unit; columns are counted in code points, as gqlparser's runes
  let line = 1;
  let lineStart = 0;
  let i = 0;
  let tokenStart = 0;
  const at = (index: number, message: string): LexError => ({
    message,
    tokenStart,
    location: { line, column: Array.from(text.slice(lineStart, index)).length + 1 },
  });
  const describe = (index: number): string => (index < chars.length ? `"${goByte(text, index)}"` : '<EOF>');
  const newline = (index: number): number => {
    const next = chars[index] === '\r' && chars[index + 1] === '\n' ? index + 2 : index + 1;
    line++;
    lineStart = next;
    return next;
  };

  while (i < chars.length) {
    const c = chars[i] ?? '';
    tokenStart = i;
    if (c === ' ' || c === '\t' || c === ',' || c === '\uFEFF') {
      i++;
    } else if (c === '\n' || c === '\r') {
      i = newline(i);
    } else if (punctuators.has(c)) {
      i++;
    } else if (c === '.') {
      if (chars[i + 1] !== '.' || chars[i + 2] !== '.') return at(i, 'Cannot parse the unexpected character ".".');
      i += 3;
    } else if (c === '#') {
      while (i < chars.length && ((chars[i] ?? '') > '\u001f' || chars[i] === '\t')) i++;
    } else if (isNameStart(c)) {
      while (isNameChar(chars[i])) i++;
    } else if (c === '-' || isDigit(c)) {
      let j = c === '-' ? i + 1 : i;
      if (chars[j] === '0') {
        j++;
        if (isDigit(chars[j])) return at(j, `Invalid number, unexpected digit after 0: ${describe(j)}.`);
      } else {
        if (!isDigit(chars[j])) return at(j, `Invalid number, expected digit but got: ${describe(j)}.`);
        while (isDigit(chars[j])) j++;
      }
      if (chars[j] === '.') {
        j++;
        if (!isDigit(chars[j])) return at(j, `Invalid number, expected digit but got: ${describe(j)}.`);
        while (isDigit(chars[j])) j++;
      }
      if (chars[j] === 'e' || chars[j] === 'E') {
        j++;
        if (chars[j] === '-' || chars[j] === '+') j++;
        if (!isDigit(chars[j])) return at(j, `Invalid number, expected digit but got: ${describe(j)}.`);
        while (isDigit(chars[j])) j++;
      }
      i = j;
    } else if (c === '"' && chars[i + 1] === '"' && chars[i + 2] === '"') {
      i += 3;
      for (;;) {
        const s = chars[i];
        if (s === undefined) return at(i, 'Unterminated string.');
        if (s === '"' && chars[i + 1] === '"' && chars[i + 2] === '"') break;
        if (s < ' ' && s !== '\t' && s !== '\n' && s !== '\r') return at(i, `Invalid character within String: "${goControl(s)}".`);
        if (s === '\\' && chars[i + 1] === '"' && chars[i + 2] === '"' && chars[i + 3] === '"') i += 4;
        else if (s === '\n' || s === '\r') i = newline(i);
        else i++;
      }
      i += 3;
    } else if (c === '"') {
      i++;
      for (;;) {
        const s = chars[i];
        if (s === undefined || s === '\n' || s === '\r') return at(i, 'Unterminated string.');
        if (s < ' ' && s !== '\t') return at(i, `Invalid character within String: "${goControl(s)}".`);
        if (s === '"') break;
        if (s !== '\\') {
          i++;
          continue;
        }
        const escape = chars[i + 1];
        if (escape === undefined) return at(i + 1, 'Invalid character escape sequence.');
        if (escape === 'u') {
          if (i + 6 >= chars.length) return at(i + 1, `Invalid character escape sequence: \\${chars.slice(i + 1)}.`);
          if (![2, 3, 4, 5].every((k) => isHex(chars[i + k]))) return at(i + 1, `Invalid character escape sequence: \\${chars.slice(i + 1, i + 6)}.`);
          i += 6;
        } else if (escapes.has(escape)) {
          i += 2;
        } else {
          return at(i + 1, `Invalid character escape sequence: \\${escape}.`);
        }
      }
      i++;
    } else if (c < ' ') {
      return at(i, `Cannot contain the invalid character "${goControl(c)}"`);
    } else if (c === "'") {
      return at(i, 'Unexpected single quote character (\'), did you mean to use a double quote (")?');
    } else {
      return at(i, `Cannot parse the unexpected character "${goByte(text, i)}".`);
    }
  }
  return undefined;
}

/** graphql-js's `"}"` is gqlparser's `}`; names and values keep their quoted value. */
function token(description: string, withValue: boolean): string {
  const punctuator = /^"([^\w"]+)"$/.exec(description);
  if (punctuator !== null) return punctuator[1] ?? '';
  return withValue ? description : description.replace(/ ".*"$/s, '');
}

/** gqlparser's text and location for a syntax error graphql-js reported in `text`. */
export function toGqlparserSyntax(error: GraphQLError, text: string): SyntaxErrorText {
  const position = error.positions?.[0] ?? text.length;
  const lexical = firstLexError(text);
  if (lexical !== undefined && lexical.tokenStart <= position) return { message: lexical.message, locations: [lexical.location] };
  const locations = error.locations?.map((l) => ({ line: l.line, column: l.column }));
  const withLocations = (message: string): SyntaxErrorText => (locations === undefined ? { message } : { message, locations });
  const message = error.message.replace(/^Syntax Error: /, '');
  const expected = /^Expected ("\w+"|"[^"]+"|\w+), found (.*)\.$/s.exec(message);
  if (expected !== null) {
    const [, want = '', found = ''] = expected;
    // An empty selection set: gqlparser's `some` wants at least one selection.
    if (want === 'Name' && found === '"}"' && text.slice(0, position).trimEnd().endsWith('{')) return withLocations('expected at least one definition, found }');
    const keyword = /^"\w+"$/.test(want);
    return withLocations(`Expected ${keyword ? want : token(want, false)}, found ${token(found, keyword)}`);
  }
  const unexpected = /^Unexpected (.*)\.$/s.exec(message);
  if (unexpected !== null && !message.startsWith('Unexpected character')) return withLocations(`Unexpected ${token(unexpected[1] ?? '', true)}`);
  return withLocations(error.message);
}
