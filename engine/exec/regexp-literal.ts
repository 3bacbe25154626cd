// A regexp filter's value, `/pattern/flags`, split as Dgraph does (dql parseRegexArgs): at the last
// `/`, with `\/` → `/`; index errors become field errors with the index's message.

import { splitRegexpLiteral } from '../indexes/regexp-compile.js';
import { FieldError } from './exec-context.js';

export function regexpParts(literal: string): { readonly pattern: string; readonly flags: string } {
  const parts = splitRegexpLiteral(literal);
  if (parts === undefined) throw new FieldError(`regexp filter expects a value of the form /pattern/flags, got: ${literal}`);
  return parts;
}

/** Runs an index call on a regexp, reporting an invalid pattern or flag as a field error. */
export function withRegexpErrors<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw new FieldError(error instanceof Error ? error.message : String(error));
  }
}
