// `query @cacheControl(maxAge: N)`: Dgraph answers such a query operation with
// `Cache-Control: public,max-age=N` and `Vary: Accept-Encoding` (resolve/resolver.go), whatever its
// fields then return. The directive is declared `on QUERY`, so validation refuses it elsewhere.

import { Kind, type OperationDefinitionNode } from 'graphql';

/** The operation's maxAge, or undefined without the directive (or a variable left unset). */
export function cacheMaxAgeOf(operation: OperationDefinitionNode, variables: Readonly<Record<string, unknown>>): number | undefined {
  const directives = operation.directives;
  if (directives === undefined || directives.length === 0 || operation.operation !== 'query') return undefined;
  const directive = directives.find((d) => d.name.value === 'cacheControl');
  const value = directive?.arguments?.find((a) => a.name.value === 'maxAge')?.value;
  if (value === undefined) return undefined;
  // Dgraph copies the literal's text; a variable gets its value (Dgraph would print the variable's name).
  const maxAge = value.kind === Kind.INT ? Number(value.value) : value.kind === Kind.VARIABLE ? variables[value.name.value] : undefined;
  return typeof maxAge === 'number' && Number.isSafeInteger(maxAge) ? maxAge : undefined;
}
