// The /admin GraphQL schema: the part of Dgraph's `graphqlAdminSchema` (graphql/admin/admin.go) that
// one process can serve, with Dgraph's type, field and argument names so its client scripts work.
// Left out, so that asking for them is a validation error rather than a silent no-op: cluster
// operations (removeNode, moveTablet, assign), backups and restores (backup, restore, restoreTenant,
// listBackups), namespaces (one here), and the cache settings of `config` (cacheMb,
// logDQLRequest). `config` has `logLevel` instead (this service's --log-level). The ACL's login, users
// and groups (Dgraph's adminTypes, adminMutations, adminQueries in graphql/admin/endpoints.go) and resetPassword are in
// the schema only when ACL is on (`aclAdminSchema`).

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
    "A hash of the whole stored state (schema, data, ACL, persisted queries): replicas that applied the same log agree on it."
    digest: String
    "The last log record applied (0 without a data directory); mutation answers carry theirs in extensions.lsn."
    lsn: UInt64
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

const aclSdl = /* GraphQL */ `
  type LoginResponse {
    "JWT token that should be used in future requests after this login."
    accessJWT: String
    "Refresh token that can be used to re-login after accessJWT expires."
    refreshJWT: String
  }

  type LoginPayload {
    response: LoginResponse
  }

  type User {
    "Username for the user.  Dgraph ensures that usernames are unique."
    name: String!
    groups: [Group]
  }

  type Group {
    "Name of the group.  Dgraph ensures uniqueness of group names."
    name: String!
    users: [User]
    rules: [Rule]
  }

  type Rule {
    "Predicate to which the rule applies."
    predicate: String!
    "Permissions that apply for the rule: 4 READ, 2 WRITE, 1 MODIFY, summed (UNIX file modes); 0 blocks everything."
    permission: Int!
  }

  input StringHashFilter {
    eq: String
  }

  enum UserOrderable {
    name
  }

  enum GroupOrderable {
    name
  }

  input AddUserInput {
    name: String!
    password: String!
    groups: [GroupRef]
  }

  input AddGroupInput {
    name: String!
    rules: [RuleRef]
  }

  input UserRef {
    name: String!
  }

  input GroupRef {
    name: String!
  }

  input RuleRef {
    "Predicate to which the rule applies."
    predicate: String!
    "Permissions that apply for the rule: 4 READ, 2 WRITE, 1 MODIFY, summed (UNIX file modes); 0 blocks everything."
    permission: Int!
  }

  input UserFilter {
    name: StringHashFilter
    and: UserFilter
    or: UserFilter
    not: UserFilter
  }

  input UserOrder {
    asc: UserOrderable
    desc: UserOrderable
    then: UserOrder
  }

  input GroupOrder {
    asc: GroupOrderable
    desc: GroupOrderable
    then: GroupOrder
  }

  input UserPatch {
    password: String
    groups: [GroupRef]
  }

  input UpdateUserInput {
    filter: UserFilter!
    set: UserPatch
    remove: UserPatch
  }

  "As Dgraph's: its and/or/not take UserFilter."
  input GroupFilter {
    name: StringHashFilter
    and: UserFilter
    or: UserFilter
    not: UserFilter
  }

  input SetGroupPatch {
    rules: [RuleRef!]!
  }

  input RemoveGroupPatch {
    rules: [String!]!
  }

  input UpdateGroupInput {
    filter: GroupFilter!
    set: SetGroupPatch
    remove: RemoveGroupPatch
  }

  type AddUserPayload {
    user: [User]
  }

  type AddGroupPayload {
    group: [Group]
  }

  type DeleteUserPayload {
    msg: String
    numUids: Int
  }

  type DeleteGroupPayload {
    msg: String
    numUids: Int
  }

  extend type Query {
    getUser(name: String!): User
    getGroup(name: String!): Group
    "Get the currently logged in user."
    getCurrentUser: User
    queryUser(filter: UserFilter, order: UserOrder, first: Int, offset: Int): [User]
    queryGroup(filter: GroupFilter, order: GroupOrder, first: Int, offset: Int): [Group]
  }

  extend type Mutation {
    "Login to Dgraph.  Successful login results in a JWT that can be used in future requests. If login is not successful an error is returned."
    login(userId: String, password: String, namespace: Int, refreshToken: String): LoginPayload
    "Add a user. Groups that do not exist are created; adding an existing user is an error."
    addUser(input: [AddUserInput!]!): AddUserPayload
    "Add a new group and (optionally) set the rules for the group."
    addGroup(input: [AddGroupInput!]!): AddGroupPayload
    "Update users, their passwords and groups (groups that do not exist are created)."
    updateUser(input: UpdateUserInput!): AddUserPayload
    "Add or remove rules for groups."
    updateGroup(input: UpdateGroupInput!): AddGroupPayload
    deleteGroup(filter: GroupFilter!): DeleteGroupPayload
    deleteUser(filter: UserFilter!): DeleteUserPayload
    """
    Reset password can only be used by the Guardians of the galaxy to reset password of
    any user in any namespace.
    """
    resetPassword(input: ResetPasswordInput!): ResetPasswordPayload
    "Add a new namespace (refused here: this service has one namespace, 0)."
    addNamespace(input: AddNamespaceInput): NamespacePayload
    "Delete a namespace (refused here: namespace 0 cannot be deleted and no other exists)."
    deleteNamespace(input: DeleteNamespaceInput!): NamespacePayload
  }

  input AddNamespaceInput {
    password: String
  }

  input DeleteNamespaceInput {
    namespaceId: Int!
  }

  type NamespacePayload {
    namespaceId: UInt64
    message: String
  }

  input ResetPasswordInput {
    userId: String!
    password: String!
    namespace: Int!
  }

  type ResetPasswordPayload {
    userId: String
    message: String
    namespace: UInt64
  }
`;

export const adminSchema: GraphQLSchema = buildSchema(adminSdl);
/** The admin schema with the ACL's operations (--acl-secret-file). */
export const aclAdminSchema: GraphQLSchema = buildSchema(adminSdl + aclSdl);
