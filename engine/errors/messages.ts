// Message catalogue: every user-visible text with Dgraph's exact wording (typos included, REFERENCE §10-11).

const drainingMode =
  'the server is in draining mode and client requests will only be allowed after exiting the mode  by sending a GraphQL draining(enable: false) mutation to /admin';

export const messages = {
  noQuery: 'no query string supplied in request',
  notSubscription: 'given GraphQL operation is not a subscription',
  subscriptionTokenExpired: 'subscription terminated: its JWT expired',
  operationNameRequired: 'Operation name must by supplied when query has more than 1 operation.',
  operationNotFound: (name: string) => `Supplied operation name ${name} isn't present in the request.`,
  noSchema: (field: string) =>
    `Not resolving ${field}. There's no GraphQL schema in Dgraph. Use the /admin API to add a GraphQL schema`,
  mutationNotExecuted: (name: string) => `Mutation ${name} was not executed because of a previous error.`,
  variablesNotObject: 'Variables must be provided as an object.',
  mutationOverGet: 'Can only perform a mutation operation from a POST request.',
  queryTooDeep: (max: number) => `The query exceeds the maximum depth of ${max}.`,
  /** How Dgraph's GraphQL layer words a query or mutation the store refused (resolve/query.go, mutation.go, dgraph/execute.go). */
  failedQuery: (reason: string) => `Dgraph query failed because Dgraph execution failed because ${reason}`,
  failedMutation: (name: string, reason: string) => `mutation ${name} failed because Dgraph execution failed because ${reason}`,
  /** x.HealthCheck's errDrainingMode (two spaces before "by", sic), as the resolvers wrap it. */
  drainingQuery: `Dgraph query failed because Dgraph execution failed because ${drainingMode}`,
  /** Ours (Dgraph reads at a timestamp instead): a query that waited EngineOptions.readWaitMs on a write being made durable. */
  readWaitExpired: (seconds: number) =>
    `Dgraph query failed because a write has waited ${seconds} s to be made durable (the mutation log's fsync or the cluster log's answer); the query does not read writes that may still be rolled back: try again`,
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
  // Execution: resolver and mutation-rewriting errors (graphql/resolve/*.go), one text however many paths raise it.
  listForOne:
    'A list was returned, but GraphQL was expecting just one item. This indicates an internal error - probably a mismatch between the GraphQL and Dgraph/remote schemas. The value was resolved as null (which may trigger GraphQL error propagation) and as much other data as possible returned.',
  notSupportedYet: (field: string) => `${field} is not supported yet`,
  oneFilterFunction: (filterInput: string, count: number) => `${filterInput} filter expects only one filter function, got: ${count}`,
  int64Mismatch: (value: string) => `Type mismatched for Value \`${value}\`, expected: Int64`,
  int64MismatchFloat: (value: string) => `Type mismatched for Value \`${value}\`, expected: Int64, got: 'Float'`,
  /** The variables path words it without the space (Dgraph's coercion of JSON numbers). */
  int64MismatchVariable: (value: string) => `Type mismatched for Value \`${value}\`, expected:\`Int64\``,
  int64OutOfRange: (text: string) => `Out of range value '${text}', for type \`Int64\``,
  idNotParsed: (raw: string) => `ID argument (${raw}) was not able to be parsed`,
  idArgumentNotParsed: (raw: string, field: string) => `ID argument (${raw}) of ${field} was not able to be parsed`,
  idOfOtherType: (raw: string, type: string) => `ID "${raw}" isn't a ${type}`,
  referenceNeedsId: (type: string) => `type ${type} requires an id or @id value to reference`,
  /** `field` is `Type.field` (the predicate). */
  emptyXid: (field: string) => `encountered an empty value for @id field \`${field}\``,
  fieldCannotBeEmpty: (field: string) => `field ${field} cannot be empty`,
  requiredFieldMissing: (type: string, field: string) => `type ${type} requires a value for field ${field}, but no value present`,
  xidExists: (value: string, field: string, type: string) => `id ${value} already exists for field ${field} inside type ${type}`,
  /** Dgraph's wording of an error that could reveal nodes of a type with query rules: shown in debug mode only (wire-error.ts shownOnlyInDebug). */
  graphqlDebug: (text: string) => `GraphQL debug: ${text}`,
  unionOneChild: (where: string, count: number) => `value for ${where} must have exactly one child, found ${count} children`,
  unionUnknownMember: (keys: string, union: string) => `unknown member ${keys} for union ${union}`,
  vectorLengths: (metric: string) => `Dgraph execution failed because can not compute ${metric} on vectors of different lengths`,
  entitiesUnknownType: (type: string) => `unable to find type ${type} in the schema`,
  entitiesNoKey: (type: string) => `type ${type} has no @key`,
} as const;
