// The shapes that cross the facade (engine/index.ts): plain data only, so server/ needs nothing else.

import type { FileIo } from './persist/file-io.js';
import type { SharedLog, SnapshotIdentity } from './persist/persistence.js';

export type { FileIo } from './persist/file-io.js';

export interface EngineOptions {
  /** Directory for snapshots and the mutation log. */
  readonly dataDir: string;
  /** Base URL for `@lambda` / `@lambdaOnMutate` (`--lambda-url`). */
  readonly lambdaUrl?: string;
  /** Parser token limit for one document (graphql-js `maxTokens`). */
  readonly maxQueryTokens: number;
  /** Maximum selection depth of one operation, in field levels with fragments expanded (at most 1000). */
  readonly maxQueryDepth: number;
  /** Selections visited to resolve one operation, fragments expanded (default 20000). */
  readonly maxQuerySelections?: number;
  /** Automatic persisted queries kept at most; a new one past it is refused (0 = no limit; default 10000). */
  readonly maxPersistedQueries?: number;
  /** Add an EXPLAIN of the plan to `extensions` when the request asks for it. */
  readonly debug: boolean;
  /**
   * When the mutation log is fsynced (ignored, like all durability options, when `dataDir` is ''):
   * `always` before each acknowledgement (group commit), `everysec` in the background once a second
   * (default), `no` left to the OS.
   */
  readonly fsync?: FsyncMode;
  /** On damage: fall back to the previous snapshot / truncate the log at the bad record (logging the loss). */
  readonly recover?: boolean;
  /** Snapshot after this many logged mutations (0 = never by count; default 100000). */
  readonly snapshotEveryMutations?: number;
  /** Snapshot every this many seconds when something changed (0 = never by time; default 300). */
  readonly snapshotIntervalSeconds?: number;
  /** Snapshots kept (default 2); the log is kept back to the oldest of them. */
  readonly keepSnapshots?: number;
  /**
   * Snapshots store the token indexes' postings (format 2's optional part): a restore loads them instead
   * of tokenising every value again (~45 % less restart CPU at 1M), for a 47 % larger file and a longer
   * capture on the event loop (~2 s more per snapshot at 1M). Default off.
   */
  readonly snapshotPostings?: boolean;
  /**
   * How long a query waits for a write that is being made durable (`fsync: 'always'`'s fsync, a cluster
   * proposal) before it fails with a message saying so (default 10 s): a query never reads a write that may
   * still be rolled back, and a hung disk must not hold every reader for good.
   */
  readonly readWaitMs?: number;
  /**
   * Where every engine message goes: restore and repair notes, write failures, failed webhooks, internal
   * failures of a request. The server injects its own logger; default: console (engine/util/console-logger.ts).
   */
  readonly log?: EngineLogger;
  /** The file I/O under persistence (tests inject faults here). */
  readonly fileIo?: FileIo;
  /** Outgoing calls of `@custom(http:)` / `@lambda` fields and remote introspection at upload. */
  readonly custom?: CustomLogicOptions;
  /** Bounds on one query's work: estimated cost, answer size, running time. */
  readonly budget?: QueryBudgetOptions;
  /**
   * Write query answers as JSON straight from the store when they need no error handling (default
   * true). false builds response objects for every answer; differential tests compare the two.
   */
  readonly directJson?: boolean;
  /** Dgraph's ACL (`--acl-secret-file`): users, groups and access tokens; absent = off. */
  readonly acl?: AclOptions;
  /**
   * A replica of another engine's log (`Engine.replicate`): it writes nothing of its own at start (no ACL
   * defaults: the writer's records carry its ACL), so its log holds the writer's records under the same LSNs.
   * A cluster node opens as one, then writes the defaults through the shared log (`ensureAclDefaults`).
   */
  readonly replica?: boolean;
  /**
   * A replica serving beside its writer (server/threads/): writes (mutations, persisted-query
   * registrations, /admin mutations, schema uploads, snapshots) are sent there, and every answer waits
   * until this engine applied what the writer had published when it arrived. Implies `replica`.
   */
  readonly writer?: WriterLink;
  /** A replica's start: the state of this data directory, read without changing it (a live writer's). */
  readonly seedFrom?: string;
  /**
   * With `seedFrom`, a replica started while its writer still opens the directory: the newest snapshot is
   * loaded at once, then this (the snapshot the writer restored from, once it opened) is awaited before
   * the log is read; another snapshot than the one loaded rejects `open` with `SeedBaseMismatch`.
   */
  readonly seedBase?: () => Promise<SnapshotIdentity>;
  /**
   * Cluster mode (persist/persistence.ts `SharedLog`, server/cluster/ implements it): the local log is
   * checked against it before the restore, every record this engine writes is proposed to it, and the
   * other nodes' records come in through `Engine.replicate`. Needs a data directory.
   */
  readonly sharedLog?: SharedLog;
  /** How long a request with `X-Service-Read-After: <lsn>` waits for that record before failing (default 10 s). */
  readonly readAfterTimeoutMs?: number;
  /**
   * Cluster mode (server/cluster/write-forwarding.ts): a /graphql mutation taken here goes to the node
   * this returns an answer from, or runs here when it returns undefined. A rejection's message is the
   * error of every root field, as a failed commit's would be.
   */
  readonly forwardWrite?: (request: GraphQLRequest) => Promise<EngineResponse> | undefined;
}

/** How a replica reaches its writer (`EngineOptions.writer`). */
export interface WriterLink {
  execute(request: GraphQLRequest): Promise<EngineResponse>;
  executeAdmin(request: GraphQLRequest): Promise<EngineResponse>;
  updateSchema(sdl: string): Promise<SchemaUpdateResult>;
  snapshot(): Promise<SnapshotResult>;
  /** The LSN of the writer's last published record: what an answer given now must include. */
  visibleLsn(): number;
  /** The writer's draining mode (/admin `draining`), which this replica's answers follow. */
  draining(): boolean;
}

export interface AclOptions {
  /** The HMAC secret (the secret file's bytes, at least 32). */
  readonly secret: Uint8Array;
  /** Lifetime of access tokens in ms (Dgraph's default 6h). */
  readonly accessTtlMs: number;
  /** Lifetime of refresh tokens in ms (Dgraph's default 30 days). */
  readonly refreshTtlMs: number;
}

export interface CustomLogicOptions {
  /** Per-call timeout in ms (default 30000). */
  readonly timeoutMs?: number;
  /** Response bodies above this many bytes fail the call (default 16 MiB). */
  readonly maxResponseBytes?: number;
  /** Outgoing calls in flight at once, process-wide (default 64). */
  readonly maxConcurrency?: number;
  /** Outgoing calls in flight at once to one upstream host:port (default 16), so a slow one cannot starve the rest. */
  readonly maxConcurrencyPerHost?: number;
  /** Refuse private, loopback and link-local destinations, checked on the resolved address (default false). */
  readonly denyPrivateAddresses?: boolean;
  /** Worker threads for batches of calls; 0 sends everything from the main thread (default 2). */
  readonly workers?: number;
  /** Batches of at most this many calls are sent inline, without a worker round trip (default 8). */
  readonly inlineMaxCalls?: number;
  /** Timeout of the remote introspection at schema upload, in ms (default 5000). */
  readonly introspectionTimeoutMs?: number;
  /** Timeout of each JWKS fetch (`JWKUrl`/`JWKUrls`), at upload and in background refreshes, in ms (default 10000). */
  readonly jwksTimeoutMs?: number;
  /** A token with an unknown `kid` refetches the JWKS at most this often, in ms (default 30000). */
  readonly jwksRefreshMs?: number;
}

export interface QueryBudgetOptions {
  /** Queries whose plan estimates more nodes read than this are refused before running; 0 = no limit (default 10,000,000). */
  readonly maxQueryCost?: number;
  /** Query answers larger than this many bytes fail while being written (default 32 MiB). */
  readonly maxResultBytes?: number;
  /** Queries running longer fail; 0 = no limit (default 2000 ms). */
  readonly queryTimeoutMs?: number;
}

export type FsyncMode = 'always' | 'everysec' | 'no';

export type LogFieldValue = string | number | boolean | undefined;

/** The engine logs through this alone (never console or process warnings); server/log.ts's Logger is one. */
export interface EngineLogger {
  error(message: string, fields?: Readonly<Record<string, LogFieldValue>>): void;
  warn(message: string, fields?: Readonly<Record<string, LogFieldValue>>): void;
  info(message: string, fields?: Readonly<Record<string, LogFieldValue>>): void;
}

/** The answer of an on-demand snapshot. */
export type SnapshotResult =
  | { readonly ok: true; readonly lsn: number; readonly file: string; readonly bytes: number; readonly ms: number }
  | { readonly ok: false; readonly message: string };

export type HttpMethod = 'GET' | 'POST';

/** One GraphQL request as the HTTP edge decoded it. `query` absent means the client sent none. */
export interface GraphQLRequest {
  readonly method: HttpMethod;
  readonly query?: string | undefined;
  readonly operationName?: string | null | undefined;
  /** Anything the client sent; the engine checks it is an object. */
  readonly variables?: unknown;
  readonly extensions?: unknown;
  /** Lower-cased request header names → values (for forwardHeaders and auth). */
  readonly headers: Readonly<Record<string, string>>;
  /** The HTTP request's id (X-Request-Id): an internal failure's answer and record quote it. */
  readonly requestId?: string;
}

/**
 * How a response came about, so the HTTP edge can pick a status code without parsing the body:
 * - `ok`: executed (there may still be field errors, `data` is present);
 * - `request-error`: rejected before execution (parse, validation, variables, operation selection): no `data`;
 * - `method-not-allowed`: a mutation sent over GET.
 */
export type ResponseKind = 'ok' | 'request-error' | 'method-not-allowed';

export interface EngineResponse {
  readonly kind: ResponseKind;
  /** The full JSON response text: `{"errors":[...],"data":...,"extensions":...}`. */
  readonly body: string;
  /** The same response as UTF-8 bytes, when it was written as bytes (servers send these as they are). */
  readonly bytes?: Uint8Array;
  /** `extensions.touched_uids` of the answer (absent = 0), for the `Graphql-TouchedUids` header. */
  readonly touchedUids?: number;
  /** `maxAge` of a query operation's `@cacheControl`, for the `Cache-Control` header. */
  readonly cacheMaxAge?: number;
}

/** Who may call /graphql from a browser, from the deployed schema (Dgraph's `addDynamicHeaders`). */
export interface CorsPolicy {
  /** `# Service.Allow-Origin` values; empty = every origin (`*`). */
  readonly allowedOrigins: ReadonlySet<string>;
  /** Request headers the schema reads beyond the fixed list: forwarded `@custom` headers, then the JWT header. */
  readonly extraAllowedHeaders: readonly string[];
}

export interface SchemaErrorLocation {
  readonly line: number;
  readonly column: number;
}

export interface SchemaError {
  readonly message: string;
  readonly locations?: readonly SchemaErrorLocation[];
}

/** `Engine.replicate`: the LSN applied up to, or why the records were refused (a gap, damage, a record that does not apply). */
export type ReplicateResult = { readonly ok: true; readonly lsn: number } | { readonly ok: false; readonly message: string };

export type SchemaUpdateResult =
  /** `lsn`: the upload's log record (absent without a data directory). */
  | { readonly ok: true; readonly schema: string; readonly generatedSchema: string; readonly lsn?: number }
  | { readonly ok: false; readonly errors: readonly SchemaError[] };

export type ProbeStatus = 'init' | 'up' | 'updating schema';

export interface Probe {
  readonly status: ProbeStatus;
  readonly schemaUpdateCounter: number;
}

export interface HealthInfo {
  readonly instance: 'alpha';
  readonly address: string;
  readonly status: 'healthy';
  readonly group: '1';
  readonly version: string;
  readonly uptime: number;
  readonly lastEcho: number;
  readonly ongoing: readonly string[];
  readonly indexing: readonly string[];
  readonly ee_features: readonly string[];
}

/**
 * What the /admin API asks of the process around the engine (the HTTP edge provides it): the log
 * level, writing an export file, and a graceful shutdown.
 */
export interface AdminHost {
  /** `host:port` this node listens on (health, state). */
  readonly address: string;
  logLevel(): string;
  /** Sets the log level; returns why not when `level` is not one. */
  setLogLevel(level: string): string | undefined;
  /** Writes an export of the data as it is now into the data directory; resolves to the data file's path. */
  exportData(taskId: string): Promise<string>;
  /** Starts a graceful shutdown (after the current response is sent). */
  shutdown(): void;
  /** Who an /admin caller is when ACL does not say (the log's `by`): `admin key` when one is set (the caller held it), else `anonymous`. */
  readonly caller: string;
}
