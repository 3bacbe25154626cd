// A regexp filter's value, `/pattern/flags`, split as Dgraph does (dql parseRegexArgs): at the last
// `/`, with `\/` → `/`; index errors become field errors with the index's message.

import { FieldError } from './exec-context.js';

export function regexpParts(literal: string): { readonly pattern: string; readonly flags: string } {
  const end = literal.lastIndexOf('/');
  if (end < 1 || !literal.startsWith('/')) throw new FieldError(`regexp filter expects a value of the form /pattern/flags, got: ${literal}`);
  return { pattern: literal.slice(1, end).replaceAll('\\/', '/'), flags: literal.slice(end + 1) };
}

/** Runs an index call on a regexp, reporting an invalid pattern or flag as a field error. */
export function withRegexpErrors<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw new FieldError(error instanceof Error ? error.message : String(error));
  }
}
