// Message catalogue: every user-visible text with Dgraph's exact wording (typos included, REFERENCE §10-11).

const drainingMode =
  'the server is in draining mode and client requests will only be allowed after exiting the mode  by sending a GraphQL draining(enable: false) mutation to /admin';

export const messages = {
  noQuery: 'no query string supplied in request',
  operationNameRequired: 'Operation name must by supplied when query has more than 1 operation.',
  operationNotFound: (name: string) => `Supplied operation name ${name} isn't present in the request.`,
  noSchema: (field: string) =>
    `Not resolving ${field}. There's no GraphQL schema in Dgraph. Use the /admin API to add a GraphQL schema`,
  mutationNotExecuted: (name: string) => `Mutation ${name} was not executed because of a previous error.`,
  variablesNotObject: 'Variables must be provided as an object.',
  mutationOverGet: 'Can only perform a mutation operation from a POST request.',
  queryTooDeep: (max: number) => `The query exceeds the maximum depth of ${max}.`,
  /** x.HealthCheck's errDrainingMode (two spaces before "by", sic), as the resolvers wrap it. */
  drainingQuery: `Dgraph query failed because Dgraph execution failed because ${drainingMode}`,
  drainingMutation: (name: string) => `mutation ${name} failed because Dgraph execution failed because ${drainingMode}`,
  /** gqlparser's KnownRootType rule (Dgraph's fork lets it through to a resolver panic instead). */
  unsupportedOperation: (operation: string) => `Schema does not support operation type "${operation}"`,
  noSubscriptionFields: "Not resolving subscription because schema doesn't have any fields defined for subscription operation.",
  queryTooNested: (max: number) => `The query exceeds the maximum nesting of ${max}.`,
  tooManySelections: (max: number) => `The query exceeds the maximum of ${max} field selections.`,
  // Automatic persisted queries (edgraph/graphql.go).
  persistedQueryNotFound: 'PersistedQueryNotFound',
  persistedQueryShaMismatch: 'provided sha does not match query',
  persistedQueryMismatch: 'query does not match persisted query',
  // Ours: Dgraph keeps every persisted query (in its graph), without a cap.
  persistedQueriesFull: (max: number) => `The persisted query store is full: it holds the maximum of ${max} queries (--max-persisted-queries).`,
  queryTooCostly: (estimate: number, max: number) => `The query's estimated cost of ${estimate} nodes exceeds the maximum of ${max} (--max-query-cost).`,
  // Dgraph's wording for its query timeout and its response-size check, with the flag that set the limit.
  queryTimedOut: (ms: number) =>
    `Dgraph query failed because Dgraph execution failed because context deadline exceeded (query timeout ${ms} ms, --query-timeout-ms)`,
  resultTooLarge: (bytes: number, max: number) =>
    `Dgraph query failed because Dgraph execution failed because estimated response size: ${bytes} is bigger than threshold: ${max} (--max-result-bytes)`,
  internal: (requestId: string) => `Internal error (request ${requestId}).`,
} as const;
