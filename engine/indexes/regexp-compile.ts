// Compiles Dgraph's `/pattern/flags` pieces with an RE2-class engine (re2js, a pure-JS port of RE2:
// linear-time matching, Go's RE2 syntax and Go's error texts). This is the only file that imports
// re2js. Dgraph compiles `(?m)` + pattern (`(?i)(?m)` + pattern for the `i` flag, the only flag it
// accepts) and never matches an empty value (worker/task.go); both rules are kept here, and the
// prefix is part of the compiled text so that RE2's parse errors quote exactly what Dgraph's do.

import { RE2JS } from 're2js';

export class InvalidRegexpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidRegexpError';
  }
}

export interface CompiledRegexp {
  /** Dgraph's match: the value is non-empty and the pattern matches somewhere in it. */
  test(value: string): boolean;
  /** The pattern as the user wrote it (RE2 syntax), for deriving trigrams. */
  readonly source: string;
  /** True when some part of the pattern matches case-insensitively (the flag or an inline `(?i`). */
  readonly ignoreCase: boolean;
  /** For a case-sensitive literal pattern (anchors aside), the text every match contains. */
  readonly literal?: string;
}

// An inline flag group that turns case folding on: `(?i)`, `(?si:`, `(?i-s)`, ...
const INLINE_I = /\(\?[a-zA-Z]*i[a-zA-Z-]*[:)]/;

// A pattern of plain characters only (no metacharacter, no escape), optionally anchored by `^`/`$`.
const LITERAL = /^\^?[A-Za-z0-9 _\-,;:'"!@#%&=<>`~/]*\$?$/;

/** `/pattern/flags` split as Dgraph's parseRegexArgs splits it (at the last `/`, `\/` → `/`); undefined when not of that form. */
export function splitRegexpLiteral(literal: string): { readonly pattern: string; readonly flags: string } | undefined {
  const end = literal.lastIndexOf('/');
  if (end < 1 || !literal.startsWith('/')) return undefined;
  return { pattern: literal.slice(1, end).replaceAll('\\/', '/'), flags: literal.slice(end + 1) };
}

export function compileRegexp(pattern: string, flags: string): CompiledRegexp {
  if (flags !== '' && flags !== 'i') throw new InvalidRegexpError(`Invalid regexp modifier: ${flags}`);
  const literal = literalRegexp(pattern, flags);
  if (literal !== undefined) return literal;
  const prefix = flags === 'i' ? '(?i)(?m)' : '(?m)';
  let re: RE2JS;
  try {
    re = RE2JS.compile(prefix + pattern);
  } catch (error) {
    throw new InvalidRegexpError(error instanceof Error ? error.message : String(error));
  }
  return {
    test: (value: string): boolean => value.length > 0 && re.test(value),
    source: pattern,
    ignoreCase: flags === 'i' || INLINE_I.test(pattern),
  };
}

/**
 * A case-sensitive literal (`^k123`, `abc`, `^x$`), else undefined: RE2 compiles any pattern in about
 * 100 µs, which a request with a new pattern pays every time, while a literal is matched by string
 * search with the same meaning under Dgraph's `(?m)`: `^` at the start of the value or after a
 * newline, `$` at its end or before a newline. Made in well under a µs: not worth a cache.
 */
export function literalRegexp(pattern: string, flags: string): CompiledRegexp | undefined {
  if (flags !== '' || !LITERAL.test(pattern)) return undefined;
  const start = pattern.startsWith('^');
  const end = pattern.length > (start ? 1 : 0) && pattern.endsWith('$');
  const text = pattern.slice(start ? 1 : 0, end ? -1 : undefined);
  const atLine = (value: string, from: number): boolean => {
    if (start && from > 0 && value.charCodeAt(from - 1) !== 10) return false;
    const after = from + text.length;
    return !end || after === value.length || value.charCodeAt(after) === 10;
  };
  const test = (value: string): boolean => {
    if (value.length === 0) return false;
    // The commonest anchored match, at the value's start, without a search (a candidate is tested per id).
    if (start && value.startsWith(text) && atLine(value, 0)) return true;
    if (start && value.indexOf('\n') < 0) return false;
    for (let at = value.indexOf(text); at >= 0; at = value.indexOf(text, at + 1)) {
      if (atLine(value, at)) return true;
      if (at >= value.length) break;
    }
    return false;
  };
  return { test, source: pattern, ignoreCase: false, literal: text };
}
