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
}

// An inline flag group that turns case folding on: `(?i)`, `(?si:`, `(?i-s)`, ...
const INLINE_I = /\(\?[a-zA-Z]*i[a-zA-Z-]*[:)]/;

export function compileRegexp(pattern: string, flags: string): CompiledRegexp {
  if (flags !== '' && flags !== 'i') throw new InvalidRegexpError(`Invalid regexp modifier: ${flags}`);
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
