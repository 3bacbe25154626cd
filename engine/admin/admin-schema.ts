// The /admin GraphQL schema: the part of Dgraph's `graphqlAdminSchema` (graphql/admin/admin.go) that
// one process can serve, with Dgraph's type, field and argument names so its client scripts work.
// Left out, so that asking for them is a validation error rather than a silent no-op: cluster
// operations (removeNode, moveTablet, assign), backups and restores (backup, restore, restoreTenant,
// listBackups), ACL (login, users, groups, namespaces; a later issue), and the cache settings of
// `config` (cacheMb, logDQLRequest). `config` has `logLevel` instead (this service's --log-level).

import { buildSchema, type GraphQLSchema } from 'graphql';

const adminSdl = /* GraphQL */ `
  """
  The Int64 scalar type represents a signed 64-bit numeric non-fractional value.
  Int64 can represent values in range [-(2^63),(2^63 - 1)].
  """
  scalar Int64

  """
  The UInt64 scalar type represents an unsigned 64-bit numeric non-fractional value.
  UInt64 can represent values in range [0,(2^64 - 1)].
  """
  scalar UInt64

  """
  The DateTime scalar type represents date and time as a string in RFC3339 format.
  """
  scalar DateTime

  "Data about the GraphQL schema being served."
  type GQLSchema {
    id: ID!
    "Input schema (GraphQL types) that was used in the latest schema update."
    schema: String!
    "The GraphQL schema that was generated from the 'schema' field. This is the schema served at /graphql."
    generatedSchema: String!
  }

  "A NodeState is the state of an individual node (this service is one alpha)."
  type NodeState {
    instance: String
    address: String
    status: String
    group: String
    version: String
    "Seconds since the node started."
    uptime: Int64
    "Unix time of the last contact (now: there are no other nodes)."
    lastEcho: Int64
    ongoing: [String]
    indexing: [String]
    ee_features: [String]
  }

  type MembershipState {
    counter: UInt64
    groups: [ClusterGroup]
    zeros: [Member]
    maxUID: UInt64
    maxNsID: UInt64
    maxTxnTs: UInt64
    maxRaftId: UInt64
    removed: [Member]
    cid: String
    namespaces: [UInt64]
  }

  type ClusterGroup {
    id: UInt64
    members: [Member]
    tablets: [Tablet]
    snapshotTs: UInt64
    checksum: UInt64
  }

  type Member {
    id: UInt64
    groupId: UInt64
    addr: String
    leader: Boolean
    amDead: Boolean
    lastUpdate: UInt64
    clusterInfoOnly: Boolean
    forceGroupId: Boolean
  }

  type Tablet {
    groupId: UInt64
    predicate: String
    force: Boolean
    space: Int
    remove: Boolean
    readOnly: Boolean
    moveTs: UInt64
  }

  type UpdateGQLSchemaPayload {
    gqlSchema: GQLSchema
  }

  input UpdateGQLSchemaInput {
    set: GQLSchemaPatch!
  }

  input GQLSchemaPatch {
    schema: String!
  }

  input ExportInput {
    "Data format for the export: only \\"json\\" (the default here; Dgraph's default is rdf)."
    format: String
    "Namespace: this service has one (0); a negative value means all of them, as in Dgraph."
    namespace: Int
    "Not supported: exports are written into <data-dir>/export."
    destination: String
    accessKey: String
    secretKey: String
    sessionToken: String
    anonymous: Boolean
  }

  input TaskInput {
    id: String!
  }

  type Response {
    code: String
    message: String
  }

  type ExportPayload {
    response: Response
    taskId: String
  }

  type DrainingPayload {
    response: Response
  }

  type ShutdownPayload {
    response: Response
  }

  type TaskPayload {
    kind: TaskKind
    status: TaskStatus
    lastUpdated: DateTime
  }

  enum TaskStatus {
    Queued
    Running
    Failed
    Success
    Unknown
  }

  enum TaskKind {
    Backup
    Export
    Unknown
  }

  input ConfigInput {
    "Log level of the service: error, warn, info or debug (--log-level)."
    logLevel: String
  }

  type ConfigPayload {
    response: Response
  }

  type Config {
    logLevel: String
  }

  type Query {
    getGQLSchema: GQLSchema
    health: [NodeState]
    state: MembershipState
    config: Config
    task(input: TaskInput!): TaskPayload
  }

  type Mutation {
    "Update the service to serve the input schema."
    updateGQLSchema(input: UpdateGQLSchemaInput!): UpdateGQLSchemaPayload
    "Export all data as NDJSON (the format of npm run export) into <data-dir>/export."
    export(input: ExportInput!): ExportPayload
    "Set (or unset) draining mode. In draining mode /graphql serves no queries or mutations."
    draining(enable: Boolean): DrainingPayload
    "Shut down: stop accepting, finish in-flight requests, write a snapshot, exit 0."
    shutdown: ShutdownPayload
    "Alter the service's config."
    config(input: ConfigInput!): ConfigPayload
  }
`;

export const adminSchema: GraphQLSchema = buildSchema(adminSdl);
