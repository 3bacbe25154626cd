// Configuration: command-line flags win over `SERVICE_*` environment variables, which win over defaults.

import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isLogFormat, isLogLevel, logFormats, logLevels, type LogFormat, type LogLevel } from './log.js';
import { defaultSocketLimits, type SocketLimits } from './sockets/graphql-sockets.js';

export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly adminKey: string | undefined;
  readonly clientKey: string | undefined;
  /** Whether /graphql answers requests without an `X-Auth-Token`. */
  readonly anonymous: boolean;
  readonly maxBodyBytes: number;
  readonly maxQueryTokens: number;
  readonly maxQueryDepth: number;
  readonly maxQuerySelections: number;
  /** Automatic persisted queries kept at most (0 = no limit). */
  readonly maxPersistedQueries: number;
  /** WebSocket subscriptions on /graphql (server/sockets/). */
  readonly sockets: SocketLimits;
  readonly logLevel: LogLevel;
  /** Undefined: pretty on a terminal, else JSON (log.ts defaultLogFormat). */
  readonly logFormat: LogFormat | undefined;
  readonly lambdaUrl: string | undefined;
  readonly allowJsFallback: boolean;
  /** Per-request /metrics figures; off only to measure what they cost. */
  readonly requestMetrics: boolean;
  /** The request line: 0 none, 1 every request, N one request in N. */
  readonly logRequests: number;
  /** Requests slower than this many ms are logged at warn (0 = off). */
  readonly slowMs: number;
  /** Listener threads on the port, each serving reads from its own replica; the first also writes (server/threads/). */
  readonly threads: number;
  readonly debug: boolean;
  readonly fsync: FsyncSetting;
  readonly recover: boolean;
  readonly snapshotEvery: number;
  readonly snapshotIntervalSeconds: number;
  readonly snapshotKeep: number;
  /** Snapshots store the token indexes' postings (faster restores, larger files, longer captures). */
  readonly snapshotPostings: boolean;
  readonly custom: CustomConfig;
  readonly budget: BudgetConfig;
  /** Dgraph's ACL; undefined when --acl-secret-file is not given. */
  readonly acl: AclConfig | undefined;
  /** `--cluster`: the NATS JetStream log shared with the other nodes (server/cluster/); undefined: one node. */
  readonly cluster: ClusterConfig | undefined;
  /** How long `X-Service-Read-After` waits for its LSN. */
  readonly readAfterTimeoutMs: number;
}

export interface ClusterConfig {
  readonly servers: readonly string[];
  readonly stream: string;
  /** `--cluster-seed`: a peer whose newest snapshot an empty data directory starts from (server/cluster/seed.ts). */
  readonly seed?: string;
  /** `--cluster-advertise`: this node's HTTP address for peers (server/cluster/retention.ts); default from the listen address. */
  readonly advertise?: string;
  /** `--cluster-node-max-age`: how long a node's retention entry lives without being put again (server/cluster/retention.ts). */
  readonly nodeMaxAgeMs: number;
  /** `--cluster-pipeline`: proposals in flight at once on this node (server/cluster/README.md); absent: 1. */
  readonly pipeline?: number;
}

/** `--acl-secret-file` and the token lifetimes (Dgraph's `--acl` superflag: secret-file, access-ttl, refresh-ttl). */
export interface AclConfig {
  readonly secretFile: string;
  readonly accessTtlMs: number;
  readonly refreshTtlMs: number;
}

/** Bounds on one query's work (see engine QueryBudgetOptions). */
export interface BudgetConfig {
  readonly maxQueryCost: number;
  readonly maxResultBytes: number;
  readonly queryTimeoutMs: number;
}

/** Outgoing @custom/@lambda calls (see engine CustomLogicOptions). */
export interface CustomConfig {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly maxConcurrency: number;
  readonly maxConcurrencyPerHost: number;
  readonly denyPrivateAddresses: boolean;
  readonly workers: number;
  readonly inlineMaxCalls: number;
  readonly introspectionTimeoutMs: number;
  readonly jwksTimeoutMs: number;
  readonly jwksRefreshMs: number;
}

const fsyncSettings = ['always', 'everysec', 'no'] as const;
export type FsyncSetting = (typeof fsyncSettings)[number];

export type ConfigResult =
  | { readonly kind: 'config'; readonly config: ServerConfig }
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'error'; readonly message: string };

export const defaults = {
  port: 8080,
  host: '0.0.0.0',
  dataDir: 'snapshots',
  maxBodyBytes: 8 * 1024 * 1024,
  maxQueryTokens: 10_000,
  maxQueryDepth: 200,
  maxQuerySelections: 20_000,
  maxPersistedQueries: 10_000,
  sockets: defaultSocketLimits,
  logLevel: 'info' as LogLevel,
  // A request line costs ~7 us (bench/README.md, Logs): one in 100 keeps that under 0.1 us a request.
  logRequests: '100',
  slowMs: 1000,
  // Every core: one replica per thread (memory grows by one store per thread; --threads 1 for small machines).
  threads: availableParallelism(),
  fsync: 'everysec' as FsyncSetting,
  snapshotEvery: 100_000,
  snapshotIntervalSeconds: 300,
  snapshotKeep: 2,
  customTimeoutMs: 30_000,
  customMaxResponseBytes: 16 * 1024 * 1024,
  customMaxConcurrency: 64,
  customMaxConcurrencyPerHost: 48,
  customWorkers: 2,
  customInlineMax: 8,
  customIntrospectionTimeoutMs: 5_000,
  jwksTimeoutMs: 10_000,
  jwksRefreshMs: 30_000,
  maxQueryCost: 10_000_000,
  maxResultBytes: 32 * 1024 * 1024,
  queryTimeoutMs: 2_000,
  aclAccessTtl: '6h',
  clusterNodeMaxAge: '1d',
  aclRefreshTtl: '30d',
} as const;

type Kind = 'string' | 'boolean';

/** Every option: its flag type, its environment variable and its help line. */
const optionTable = {
  port: { type: 'string', env: 'SERVICE_PORT', help: `TCP port; 0 picks a free one (default ${defaults.port})` },
  host: { type: 'string', env: 'SERVICE_HOST', help: `interface to bind (default ${defaults.host})` },
  'data-dir': { type: 'string', env: 'SERVICE_DATA_DIR', help: `snapshot and log directory (default ./${defaults.dataDir})` },
  'admin-key': { type: 'string', env: 'SERVICE_ADMIN_KEY', help: 'key required in X-Auth-Token for /admin* (and accepted on /graphql)' },
  'client-key': { type: 'string', env: 'SERVICE_CLIENT_KEY', help: 'key accepted in X-Auth-Token on /graphql' },
  anonymous: { type: 'boolean', env: 'SERVICE_ANONYMOUS', help: 'allow /graphql without a key (default: on unless a key is set)' },
  'max-body-bytes': { type: 'string', env: 'SERVICE_MAX_BODY_BYTES', help: `request body cap, also after gunzip (default ${defaults.maxBodyBytes})` },
  'max-query-tokens': { type: 'string', env: 'SERVICE_MAX_QUERY_TOKENS', help: `parser token limit (default ${defaults.maxQueryTokens})` },
  'max-query-depth': { type: 'string', env: 'SERVICE_MAX_QUERY_DEPTH', help: `selection depth limit in field levels, fragments expanded, at most 1000 (default ${defaults.maxQueryDepth})` },
  'max-query-selections': {
    type: 'string',
    env: 'SERVICE_MAX_QUERY_SELECTIONS',
    help: `selections visited to resolve one operation, fragments expanded (default ${defaults.maxQuerySelections})`,
  },
  'max-persisted-queries': {
    type: 'string',
    env: 'SERVICE_MAX_PERSISTED_QUERIES',
    help: `automatic persisted queries kept at most, 0 = no limit (default ${defaults.maxPersistedQueries})`,
  },
  'ws-max-connections': { type: 'string', env: 'SERVICE_WS_MAX_CONNECTIONS', help: `open WebSocket connections at most; more are refused with 503 (default ${defaults.sockets.maxConnections})` },
  'ws-max-subscriptions': { type: 'string', env: 'SERVICE_WS_MAX_SUBSCRIPTIONS', help: `subscriptions per WebSocket connection (default ${defaults.sockets.maxSubscriptions})` },
  'ws-max-message-bytes': { type: 'string', env: 'SERVICE_WS_MAX_MESSAGE_BYTES', help: `largest WebSocket message a client may send (default ${defaults.sockets.maxMessageBytes})` },
  'ws-max-backpressure-bytes': { type: 'string', env: 'SERVICE_WS_MAX_BACKPRESSURE_BYTES', help: `bytes a client may leave unread before it is disconnected (default ${defaults.sockets.maxBackpressure})` },
  'ws-init-timeout-ms': { type: 'string', env: 'SERVICE_WS_INIT_TIMEOUT_MS', help: `time a WebSocket client has to send connection_init (default ${defaults.sockets.initTimeoutMs})` },
  'log-level': { type: 'string', env: 'SERVICE_LOG_LEVEL', help: `${logLevels.join('|')} (default ${defaults.logLevel})` },
  'log-format': { type: 'string', env: 'SERVICE_LOG_FORMAT', help: `${logFormats.join('|')} (default: pretty when stdout is a terminal, else json)` },
  'lambda-url': { type: 'string', env: 'SERVICE_LAMBDA_URL', help: 'base URL for @lambda fields' },
  'log-requests': { type: 'string', env: 'SERVICE_LOG_REQUESTS', help: `one info line per request: all|none|<N> (one in N) (default ${defaults.logRequests})` },
  threads: { type: 'string', env: 'SERVICE_THREADS', help: `listener threads, each with its own replica of the data (default: the number of cores, ${defaults.threads} here)` },
  'slow-ms': { type: 'string', env: 'SERVICE_SLOW_MS', help: `log requests slower than this at warn (operation name and duration); 0 = off (default ${defaults.slowMs})` },
  'request-metrics': { type: 'boolean', env: 'SERVICE_REQUEST_METRICS', help: 'per-request figures in /metrics (default on; off only to measure their cost)' },
  'allow-js-fallback': { type: 'boolean', env: 'SERVICE_ALLOW_JS_FALLBACK', help: 'start even if only the slow JS shim of uWebSockets.js loads' },
  debug: { type: 'boolean', env: 'SERVICE_DEBUG', help: 'debug extensions (query plans) in responses, and the texts of authorization failures (as Dgraph with --graphql debug=true)' },
  fsync: { type: 'string', env: 'SERVICE_FSYNC', help: `mutation log fsync: always|everysec|no (default ${defaults.fsync})` },
  recover: { type: 'boolean', env: 'SERVICE_RECOVER', help: 'on damaged data: fall back to the previous snapshot / cut the log at the bad record' },
  'snapshot-every': { type: 'string', env: 'SERVICE_SNAPSHOT_EVERY', help: `snapshot after this many mutations; 0 = off (default ${defaults.snapshotEvery})` },
  'snapshot-interval': { type: 'string', env: 'SERVICE_SNAPSHOT_INTERVAL', help: `snapshot every N seconds if changed; 0 = off (default ${defaults.snapshotIntervalSeconds})` },
  'snapshot-keep': { type: 'string', env: 'SERVICE_SNAPSHOT_KEEP', help: `snapshots kept (default ${defaults.snapshotKeep})` },
  'snapshot-postings': {
    type: 'boolean',
    env: 'SERVICE_SNAPSHOT_POSTINGS',
    help: 'snapshots store the token indexes\' postings: restores skip tokenising (~45% less restart CPU at 1M) for a ~47% larger file and a longer snapshot capture (default off)',
  },
  cluster: { type: 'string', env: 'SERVICE_CLUSTER', help: 'cluster mode: nats://host:port[,...] of the NATS JetStream servers holding the shared log' },
  'cluster-seed': { type: 'string', env: 'SERVICE_CLUSTER_SEED', help: 'cluster mode: http://host:port of a node whose newest snapshot an empty data directory starts from (sent --admin-key; with --acl-secret-file a guardian token minted with the shared secret)' },
  'cluster-advertise': { type: 'string', env: 'SERVICE_CLUSTER_ADVERTISE', help: 'cluster mode: http://host:port at which the other nodes reach this one (default: the listen address)' },
  'cluster-node-max-age': { type: 'string', env: 'SERVICE_CLUSTER_NODE_MAX_AGE', help: `cluster mode: a node gone this long stops holding stream retention back, e.g. 12h (default ${defaults.clusterNodeMaxAge})` },
  'cluster-stream': { type: 'string', env: 'SERVICE_CLUSTER_STREAM', help: 'JetStream stream of the shared log (default graphdb)' },
  'cluster-pipeline': { type: 'string', env: 'SERVICE_CLUSTER_PIPELINE', help: 'cluster mode: groups of writes proposed before the previous one is answered, 1-8 (default 1: one at a time)' },
  'read-after-timeout-ms': { type: 'string', env: 'SERVICE_READ_AFTER_TIMEOUT_MS', help: 'how long a request with X-Service-Read-After waits for its LSN (default 10000)' },
  'custom-timeout-ms': { type: 'string', env: 'SERVICE_CUSTOM_TIMEOUT_MS', help: `timeout of one outgoing @custom/@lambda call (default ${defaults.customTimeoutMs})` },
  'custom-max-response-bytes': {
    type: 'string',
    env: 'SERVICE_CUSTOM_MAX_RESPONSE_BYTES',
    help: `largest accepted @custom response body (default ${defaults.customMaxResponseBytes})`,
  },
  'custom-max-concurrency': { type: 'string', env: 'SERVICE_CUSTOM_MAX_CONCURRENCY', help: `outgoing @custom calls in flight at once (default ${defaults.customMaxConcurrency})` },
  'custom-max-concurrency-per-host': {
    type: 'string',
    env: 'SERVICE_CUSTOM_MAX_CONCURRENCY_PER_HOST',
    help: `outgoing @custom calls in flight at once to one upstream host:port, so a slow one cannot starve the others (default ${defaults.customMaxConcurrencyPerHost})`,
  },
  'custom-deny-private': { type: 'boolean', env: 'SERVICE_CUSTOM_DENY_PRIVATE', help: 'refuse @custom calls to private, loopback and link-local addresses' },
  'custom-workers': { type: 'string', env: 'SERVICE_CUSTOM_WORKERS', help: `worker threads for batches of @custom calls; 0 = none (default ${defaults.customWorkers})` },
  'custom-inline-max': { type: 'string', env: 'SERVICE_CUSTOM_INLINE_MAX', help: `batches up to this many calls skip the workers (default ${defaults.customInlineMax})` },
  'custom-introspection-timeout-ms': {
    type: 'string',
    env: 'SERVICE_CUSTOM_INTROSPECTION_TIMEOUT_MS',
    help: `timeout of remote GraphQL introspection at upload (default ${defaults.customIntrospectionTimeoutMs})`,
  },
  'jwks-timeout-ms': {
    type: 'string',
    env: 'SERVICE_JWKS_TIMEOUT_MS',
    help: `timeout of each JWKS fetch (JWKUrl/JWKUrls of # Service.Authorization), at upload and in background refreshes (default ${defaults.jwksTimeoutMs})`,
  },
  'jwks-refresh-ms': {
    type: 'string',
    env: 'SERVICE_JWKS_REFRESH_MS',
    help: `a token with an unknown kid refetches the JWKS at most this often (default ${defaults.jwksRefreshMs})`,
  },
  'max-query-cost': {
    type: 'string',
    env: 'SERVICE_MAX_QUERY_COST',
    help: `refuse queries estimated to read more nodes than this; 0 = no limit (default ${defaults.maxQueryCost})`,
  },
  'max-result-bytes': { type: 'string', env: 'SERVICE_MAX_RESULT_BYTES', help: `largest query answer in bytes (default ${defaults.maxResultBytes})` },
  'query-timeout-ms': { type: 'string', env: 'SERVICE_QUERY_TIMEOUT_MS', help: `time budget of one query; 0 = none (default ${defaults.queryTimeoutMs})` },
  'acl-secret-file': {
    type: 'string',
    env: 'SERVICE_ACL_SECRET_FILE',
    help: 'turns ACL on: the HMAC secret (at least 32 bytes) that signs access and refresh tokens',
  },
  'acl-access-ttl': { type: 'string', env: 'SERVICE_ACL_ACCESS_TTL', help: `lifetime of ACL access tokens, e.g. 30m, 6h (default ${defaults.aclAccessTtl})` },
  'acl-refresh-ttl': { type: 'string', env: 'SERVICE_ACL_REFRESH_TTL', help: `lifetime of ACL refresh tokens, e.g. 12h, 30d (default ${defaults.aclRefreshTtl})` },
  help: { type: 'boolean', env: undefined, help: 'print this help' },
} as const satisfies Record<string, { type: Kind; env: string | undefined; help: string }>;

type OptionName = keyof typeof optionTable;

export function usage(): string {
  const lines = ['Usage: node dist/server/main.js [options]', '', 'Options (flags win over environment variables):'];
  for (const [name, option] of Object.entries(optionTable)) {
    const flag = option.type === 'boolean' && name !== 'help' ? `--[no-]${name}` : `--${name}${option.type === 'string' ? ' <value>' : ''}`;
    const env = option.env === undefined ? '' : ` [${option.env}]`;
    lines.push(`  ${flag.padEnd(30)} ${option.help}${env}`);
  }
  return lines.join('\n') + '\n';
}

class ConfigError extends Error {}

/** Parses flags and environment into a validated configuration; never throws. */
export function loadConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, cwd = process.cwd()): ConfigResult {
  let values: Partial<Record<OptionName, string | boolean>>;
  try {
    const options = Object.fromEntries(Object.entries(optionTable).map(([name, o]) => [name, { type: o.type }]));
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false, allowNegative: true }).values as typeof values;
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help === true) return { kind: 'help', text: usage() };
  try {
    return { kind: 'config', config: build(new Source(values, env), cwd) };
  } catch (error) {
    if (error instanceof ConfigError) return { kind: 'error', message: error.message };
    throw error;
  }
}

/** Looks one option up: flag first, then its environment variable. */
class Source {
  constructor(
    private readonly flags: Partial<Record<OptionName, string | boolean>>,
    private readonly env: Readonly<Record<string, string | undefined>>,
  ) {}

  raw(name: OptionName): { value: string | boolean; from: string } | undefined {
    const flag = this.flags[name];
    if (flag !== undefined) return { value: flag, from: `--${name}` };
    const variable = optionTable[name].env;
    const fromEnv = variable === undefined ? undefined : this.env[variable];
    if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, from: variable ?? name };
    return undefined;
  }

  string(name: OptionName): string | undefined {
    const raw = this.raw(name);
    if (raw === undefined) return undefined;
    if (typeof raw.value !== 'string' || raw.value === '') throw new ConfigError(`${raw.from} needs a non-empty value`);
    return raw.value;
  }

  boolean(name: OptionName): boolean | undefined {
    const raw = this.raw(name);
    if (raw === undefined || typeof raw.value === 'boolean') return raw?.value as boolean | undefined;
    const text = raw.value.toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(text)) return true;
    if (['0', 'false', 'no', 'off'].includes(text)) return false;
    throw new ConfigError(`${raw.from} must be true or false, got ${JSON.stringify(raw.value)}`);
  }

  integer(name: OptionName, min: number, max: number): number | undefined {
    const text = this.string(name);
    if (text === undefined) return undefined;
    const from = this.raw(name)?.from ?? name;
    if (!/^\d+$/.test(text)) throw new ConfigError(`${from} must be an integer, got ${JSON.stringify(text)}`);
    const value = Number(text);
    if (value < min || value > max) throw new ConfigError(`${from} must be between ${min} and ${max}, got ${text}`);
    return value;
  }
}

function build(source: Source, cwd: string): ServerConfig {
  const adminKey = source.string('admin-key');
  const clientKey = source.string('client-key');
  const keyed = adminKey !== undefined || clientKey !== undefined;
  const anonymous = source.boolean('anonymous') ?? !keyed;
  if (!anonymous && !keyed) throw new ConfigError('--no-anonymous needs --admin-key or --client-key, or nobody could use /graphql');
  const logLevel = source.string('log-level') ?? defaults.logLevel;
  if (!isLogLevel(logLevel)) throw new ConfigError(`--log-level must be one of ${logLevels.join(', ')}, got ${JSON.stringify(logLevel)}`);
  return {
    port: source.integer('port', 0, 65_535) ?? defaults.port,
    host: source.string('host') ?? defaults.host,
    dataDir: resolve(cwd, source.string('data-dir') ?? defaults.dataDir),
    adminKey,
    clientKey,
    anonymous,
    maxBodyBytes: source.integer('max-body-bytes', 1, 2 ** 31 - 1) ?? defaults.maxBodyBytes,
    maxQueryTokens: source.integer('max-query-tokens', 1, 10_000_000) ?? defaults.maxQueryTokens,
    // Deeper selections would recurse past the stack in execution; the document nesting bound is 1000 too.
    maxQueryDepth: source.integer('max-query-depth', 1, 1000) ?? defaults.maxQueryDepth,
    maxQuerySelections: source.integer('max-query-selections', 1, 10_000_000) ?? defaults.maxQuerySelections,
    maxPersistedQueries: source.integer('max-persisted-queries', 0, 100_000_000) ?? defaults.maxPersistedQueries,
    sockets: {
      ...defaults.sockets,
      maxConnections: source.integer('ws-max-connections', 0, 10_000_000) ?? defaults.sockets.maxConnections,
      maxSubscriptions: source.integer('ws-max-subscriptions', 1, 1_000_000) ?? defaults.sockets.maxSubscriptions,
      maxMessageBytes: source.integer('ws-max-message-bytes', 1024, 2 ** 30) ?? defaults.sockets.maxMessageBytes,
      maxBackpressure: source.integer('ws-max-backpressure-bytes', 1024, 2 ** 31 - 1) ?? defaults.sockets.maxBackpressure,
      initTimeoutMs: source.integer('ws-init-timeout-ms', 1, 3_600_000) ?? defaults.sockets.initTimeoutMs,
    },
    logLevel,
    logFormat: logFormat(source.string('log-format')),
    lambdaUrl: httpUrl(source.string('lambda-url')),
    allowJsFallback: source.boolean('allow-js-fallback') ?? false,
    requestMetrics: source.boolean('request-metrics') ?? true,
    logRequests: requestSampling(source.string('log-requests') ?? defaults.logRequests),
    slowMs: source.integer('slow-ms', 0, 3_600_000) ?? defaults.slowMs,
    threads: source.integer('threads', 1, 256) ?? defaults.threads,
    debug: source.boolean('debug') ?? false,
    fsync: fsyncSetting(source.string('fsync')),
    recover: source.boolean('recover') ?? false,
    snapshotEvery: source.integer('snapshot-every', 0, 2 ** 31 - 1) ?? defaults.snapshotEvery,
    snapshotIntervalSeconds: source.integer('snapshot-interval', 0, 10_000_000) ?? defaults.snapshotIntervalSeconds,
    snapshotKeep: source.integer('snapshot-keep', 1, 1000) ?? defaults.snapshotKeep,
    snapshotPostings: source.boolean('snapshot-postings') ?? false,
    custom: {
      timeoutMs: source.integer('custom-timeout-ms', 1, 3_600_000) ?? defaults.customTimeoutMs,
      maxResponseBytes: source.integer('custom-max-response-bytes', 1, 2 ** 31 - 1) ?? defaults.customMaxResponseBytes,
      maxConcurrency: source.integer('custom-max-concurrency', 1, 100_000) ?? defaults.customMaxConcurrency,
      maxConcurrencyPerHost: source.integer('custom-max-concurrency-per-host', 1, 100_000) ?? defaults.customMaxConcurrencyPerHost,
      denyPrivateAddresses: source.boolean('custom-deny-private') ?? false,
      workers: source.integer('custom-workers', 0, 64) ?? defaults.customWorkers,
      inlineMaxCalls: source.integer('custom-inline-max', 0, 1_000_000) ?? defaults.customInlineMax,
      introspectionTimeoutMs: source.integer('custom-introspection-timeout-ms', 1, 600_000) ?? defaults.customIntrospectionTimeoutMs,
      jwksTimeoutMs: source.integer('jwks-timeout-ms', 1, 600_000) ?? defaults.jwksTimeoutMs,
      jwksRefreshMs: source.integer('jwks-refresh-ms', 0, 86_400_000) ?? defaults.jwksRefreshMs,
    },
    budget: {
      maxQueryCost: source.integer('max-query-cost', 0, Number.MAX_SAFE_INTEGER) ?? defaults.maxQueryCost,
      maxResultBytes: source.integer('max-result-bytes', 1024, 2 ** 31 - 1) ?? defaults.maxResultBytes,
      queryTimeoutMs: source.integer('query-timeout-ms', 0, 3_600_000) ?? defaults.queryTimeoutMs,
    },
    acl: aclConfig(source, cwd),
    cluster: clusterConfig(source),
    readAfterTimeoutMs: source.integer('read-after-timeout-ms', 1, 600_000) ?? 10_000,
  };
}

function aclConfig(source: Source, cwd: string): AclConfig | undefined {
  const accessTtlMs = duration(source, 'acl-access-ttl', defaults.aclAccessTtl);
  const refreshTtlMs = duration(source, 'acl-refresh-ttl', defaults.aclRefreshTtl);
  const file = source.string('acl-secret-file');
  return file === undefined ? undefined : { secretFile: resolve(cwd, file), accessTtlMs, refreshTtlMs };
}

const durationUnits: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A Go duration as Dgraph's superflags read it (`90m`, `1h30m`, `30d`); positive. */
function duration(source: Source, name: 'acl-access-ttl' | 'acl-refresh-ttl' | 'cluster-node-max-age', fallback: string): number {
  const text = source.string(name) ?? fallback;
  const parts = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+$/.test(text) ? [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)] : [];
  const ms = parts.reduce((sum, [, n, unit]) => sum + Number(n) * (durationUnits[unit ?? ''] ?? 0), 0);
  if (!(ms >= 1000)) throw new ConfigError(`--${name} must be a duration of at least 1s such as 30m, 6h or 30d, got ${JSON.stringify(text)}`);
  return Math.round(ms);
}

function requestSampling(text: string): number {
  if (text === 'all') return 1;
  if (text === 'none') return 0;
  if (/^[1-9]\d{0,8}$/.test(text)) return Number(text);
  throw new ConfigError(`--log-requests must be all, none or a whole number N (one request in N), got ${JSON.stringify(text)}`);
}

function logFormat(text: string | undefined): LogFormat | undefined {
  if (text === undefined || isLogFormat(text)) return text;
  throw new ConfigError(`--log-format must be one of ${logFormats.join(', ')}, got ${JSON.stringify(text)}`);
}

function fsyncSetting(text: string | undefined): FsyncSetting {
  if (text === undefined) return defaults.fsync;
  if (!(fsyncSettings as readonly string[]).includes(text)) {
    throw new ConfigError(`--fsync must be one of ${fsyncSettings.join(', ')}, got ${JSON.stringify(text)}`);
  }
  return text as FsyncSetting;
}

function clusterConfig(source: Source): ClusterConfig | undefined {
  const [servers, stream, seed] = [source.string('cluster'), source.string('cluster-stream'), source.string('cluster-seed')];
  if (servers === undefined) {
    for (const flag of ['cluster-stream', 'cluster-seed', 'cluster-advertise', 'cluster-node-max-age', 'cluster-pipeline'] as const) {
      if (source.string(flag) !== undefined) throw new ConfigError(`--${flag} needs --cluster`);
    }
    return undefined;
  }
  const urls = servers.split(',').map((url) => url.trim());
  for (const url of urls) {
    if (!/^nats:\/\/[^\s/:,]+:\d{1,5}$/.test(url)) throw new ConfigError(`--cluster takes nats://host:port[,...], got ${JSON.stringify(url)}`);
  }
  const name = stream ?? 'graphdb';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) throw new ConfigError(`--cluster-stream may hold only letters, digits, '-' and '_' (at most 64), got ${JSON.stringify(name)}`);
  const seedUrl = httpUrl(seed, '--cluster-seed');
  const advertise = httpUrl(source.string('cluster-advertise'), '--cluster-advertise');
  const pipeline = source.integer('cluster-pipeline', 1, 8);
  return {
    servers: urls,
    stream: name,
    ...(seedUrl === undefined ? {} : { seed: seedUrl }),
    ...(advertise === undefined ? {} : { advertise }),
    nodeMaxAgeMs: duration(source, 'cluster-node-max-age', defaults.clusterNodeMaxAge),
    ...(pipeline === undefined ? {} : { pipeline }),
  };
}

function httpUrl(text: string | undefined, flag = '--lambda-url'): string | undefined {
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${flag} must be an absolute http(s) URL, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${flag} must use http or https, got ${JSON.stringify(text)}`);
  }
  return text;
}

/** The configuration with secrets replaced, for logging. */
export function redacted(config: ServerConfig): Record<string, string | number | boolean | undefined> {
  const { custom, budget, acl, sockets, cluster, ...rest } = config;
  return {
    ...rest,
    ...(cluster === undefined ? {} : { cluster: cluster.servers.join(','), clusterStream: cluster.stream }),
    ...Object.fromEntries(Object.entries(sockets).map(([k, v]) => [`ws.${k}`, v])),
    ...(acl === undefined ? {} : { aclSecretFile: acl.secretFile, aclAccessTtlMs: acl.accessTtlMs, aclRefreshTtlMs: acl.refreshTtlMs }),
    ...Object.fromEntries(Object.entries(custom).map(([k, v]) => [`custom.${k}`, v])),
    ...budget,
    adminKey: config.adminKey === undefined ? undefined : '<set>',
    clientKey: config.clientKey === undefined ? undefined : '<set>',
  };
}
