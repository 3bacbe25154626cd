// The service's start-up, shared by the production entry (main.ts) and the test-only entry with I/O
// faults (testing/main-with-faults.ts). Exit codes: 0 clean, 1 start-up failure, 2 bad usage.

import { mkdir, readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { DATA_DIR_MODE, Engine, RestoreError, type AclOptions, type EngineOptions, type FileIo } from '../engine/index.js';
import { loadConfig, redacted, type ServerConfig } from './config.js';
import { startServer, type RunningServer, type ThreadRole } from './http-server.js';
import { mergedMetricsText } from './metrics.js';
import { createLogger, type Logger } from './log.js';
import { loadTransport } from './uws-transport.js';
import { preloadReplicaThreads, type ReplicaThreads } from './threads/replica-threads.js';
import { ClusterNode } from './cluster/cluster-node.js';
import { reseedFromPeers, SeedError, seedFromPeer } from './cluster/seed.js';
import { WriteForwarding } from './cluster/write-forwarding.js';

const shutdownTimeoutMs = 10_000;

/** What a test entry may add to the engine; production passes nothing. */
export interface ServeHooks {
  readonly fileIo?: FileIo;
  /** Told before each proposal to the cluster log, after the local append (a crash test dies there). */
  readonly beforePropose?: () => void;
}

/** Runs the service until a signal or /admin `shutdown` stops it. */
export async function serve(hooks: ServeHooks = {}): Promise<void> {
  const loaded = loadConfig(process.argv.slice(2), process.env);
  if (loaded.kind === 'help') {
    process.stdout.write(loaded.text);
    return;
  }
  if (loaded.kind === 'error') {
    process.stderr.write(`error: ${loaded.message}\nRun with --help for the list of options.\n`);
    process.exitCode = 2;
    return;
  }
  let config = loaded.config;
  const log = createLogger(config.logLevel, { format: config.logFormat });
  log.debug('configuration', redacted(config));

  const transport = loadTransport();
  if (!transport.native) {
    if (!config.allowJsFallback) {
      log.error('the native uWebSockets.js binary did not load (only its slow JS shim did); refusing to start. Use --allow-js-fallback to run on the shim anyway.', {
        platform: `${process.platform}-${process.arch}`,
        abi: process.versions.modules,
      });
      process.exitCode = 1;
      return;
    }
    log.warn('running on the JS fallback of uWebSockets.js: performance will be degraded');
  }

  const acl = config.acl === undefined ? undefined : await readAclSecret(config.acl);
  if (typeof acl === 'string') {
    log.error(acl);
    process.exitCode = 1;
    return;
  }

  await mkdir(config.dataDir, { recursive: true, mode: DATA_DIR_MODE });
  if (config.cluster?.seed !== undefined && !(await seeded(config.cluster.seed, config, acl?.secret, log))) return;
  // The JS shim listens through node:net, which cannot share a port between threads.
  if (!transport.native && config.threads > 1) {
    log.warn('the JS fallback of uWebSockets.js cannot share the port between threads: serving on one thread', { threads: config.threads });
    config = { ...config, threads: 1 };
  }
  // One WebSocket connection limit for the process, whichever thread takes the connection.
  if (config.threads > 1) config = { ...config, sockets: { ...config.sockets, openCount: new Int32Array(new SharedArrayBuffer(4)) } };
  // The replicas load the snapshot while this thread opens the directory (each restore on its own core).
  const preload = config.threads > 1 ? preloadReplicaThreads({ count: config.threads - 1, config, acl, log }) : undefined;
  // Set once the node joined: mutations run here until then.
  let forwarding: WriteForwarding | undefined;
  const opened = await openNode(config, acl, log, hooks, (request) => forwarding?.forward(request)).catch(async (error: unknown) => {
    await preload?.abandon();
    throw error;
  });
  if (opened === undefined) {
    await preload?.abandon();
    return;
  }
  const { engine, cluster } = opened;
  if (cluster !== undefined) forwarding = new WriteForwarding(cluster, engine, log);
  // uWS sets SO_REUSEPORT only on a listener given a port: with `--port 0` and threads, one is chosen first.
  const port = config.port === 0 && config.threads > 1 ? await freePort(config.host) : config.port;
  // Set once the server listens (a scrape before that has only this thread's figures).
  const serving: { threads?: ReplicaThreads | undefined } = {};
  const role: ThreadRole | undefined =
    config.threads > 1 ? { processWide: true, merge: (own) => serving.threads?.mergedMetrics(own) ?? own().then((json) => mergedMetricsText([json])) } : undefined;
  // /admin `shutdown` calls stop only once the server answers, so it is defined by then.
  const server = await startServer(transport, engine, { ...config, port }, log, () => void stop('admin'), role);
  const threads = preload?.serve({ engine, admin: server.admin, port: server.port, ownMetrics: () => server.metrics.json(), shutdown: () => void stop('admin') });
  serving.threads = threads;
  cluster?.advertise(config.cluster?.advertise ?? reachableUrl(server.url));
  const stop = gracefulStop(server, engine, log, threads, forwarding);
  // A node whose state is frozen must not serve stale reads for good: it stops, and a restart reads the
  // stream again (or seeds itself from a peer when the stream no longer holds what it needs).
  cluster?.onLost((error) => {
    log.error('this node no longer follows the cluster: stopping', { stream: config.cluster?.stream, error: error instanceof Error ? error.message : String(error) });
    void stop('cluster', 1);
  });
  // Before the start-up line: whoever reads it may signal at once.
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
  log.info(`listening on ${server.url}`, { 'data-dir': config.dataDir, transport: transport.name, threads: config.threads });
}

/** The engine's options from the configuration (a replica thread's too: threads/replica-thread.ts). */
export function engineOptions(config: ServerConfig, log: Logger, hooks: ServeHooks): EngineOptions {
  const options: EngineOptions = {
    dataDir: config.dataDir,
    maxQueryTokens: config.maxQueryTokens,
    maxQueryDepth: config.maxQueryDepth,
    maxQuerySelections: config.maxQuerySelections,
    maxPersistedQueries: config.maxPersistedQueries,
    debug: config.debug,
    fsync: config.fsync,
    recover: config.recover,
    snapshotEveryMutations: config.snapshotEvery,
    snapshotIntervalSeconds: config.snapshotIntervalSeconds,
    keepSnapshots: config.snapshotKeep,
    snapshotPostings: config.snapshotPostings,
    custom: config.custom,
    budget: config.budget,
    readAfterTimeoutMs: config.readAfterTimeoutMs,
    log,
    ...(hooks.fileIo === undefined ? {} : { fileIo: hooks.fileIo }),
  };
  return config.lambdaUrl === undefined ? options : { ...options, lambdaUrl: config.lambdaUrl };
}

/** The listen URL as peers can reach it: a wildcard host is this machine's name. */
function reachableUrl(listening: string): string {
  const url = new URL(listening);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = hostname();
  return url.origin;
}

/** A port free on `host` now (the kernel's choice for port 0). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** `--cluster-seed`: false (exit code 1, logged) when the peer's snapshot could not be had. */
async function seeded(peer: string, config: ServerConfig, aclSecret: Uint8Array | undefined, log: Logger): Promise<boolean> {
  try {
    await seedFromPeer(peer, config.dataDir, config.adminKey, aclSecret, log);
    return true;
  } catch (error) {
    if (!(error instanceof SeedError)) throw error;
    log.error(error.message, { 'data-dir': config.dataDir });
    process.exitCode = 1;
    return false;
  }
}

/** `--cluster`: the stream opened, or null (exit code 1, logged) when the cluster cannot be reached. */
async function openCluster(cluster: NonNullable<ServerConfig['cluster']>, dataDir: string, log: Logger, hooks: ServeHooks): Promise<ClusterNode | null> {
  try {
    return await ClusterNode.open(cluster, dataDir, log, hooks.beforePropose);
  } catch (error) {
    joinFailed(error, cluster, log);
    return null;
  }
}

/**
 * The engine opened and, in cluster mode, joined; undefined when the start failed (logged, exit code 1).
 * A cluster node that needs messages purged from the stream sets its files aside and seeds itself from a
 * peer in the retention bucket whose snapshot holds them, then starts again (once).
 */
async function openNode(
  config: ServerConfig,
  acl: AclOptions | undefined,
  log: Logger,
  hooks: ServeHooks,
  forwardWrite: NonNullable<EngineOptions['forwardWrite']>,
): Promise<{ engine: Engine; cluster: ClusterNode | undefined } | undefined> {
  for (let attempt = 1; ; attempt++) {
    const cluster = config.cluster === undefined ? undefined : await openCluster(config.cluster, config.dataDir, log, hooks);
    if (cluster === null) return undefined;
    let engine: Engine;
    try {
      // A cluster node writes nothing of its own before it joined (`replica`): its ACL defaults go through the log.
      engine = await Engine.open({ ...engineOptions(config, log, hooks), ...(acl === undefined ? {} : { acl }), ...(cluster === undefined ? {} : { sharedLog: cluster, replica: true, forwardWrite }) });
    } catch (error) {
      const peers = attempt === 1 ? await seedPeers(cluster) : [];
      await cluster?.close();
      if (!(error instanceof RestoreError)) throw error;
      if (peers.length > 0 && (await reseeded(peers, config, acl, log))) continue;
      log.error(error.message, { 'data-dir': config.dataDir });
      process.exitCode = 1;
      return undefined;
    }
    if (cluster === undefined) return { engine, cluster };
    try {
      await cluster.join(engine, log);
      await engine.ensureAclDefaults();
      return { engine, cluster };
    } catch (error) {
      const peers = attempt === 1 ? await seedPeers(cluster) : [];
      await engine.close();
      if (peers.length > 0 && (await reseeded(peers, config, acl, log))) continue;
      joinFailed(error, cluster.config, log);
      return undefined;
    }
  }
}

async function seedPeers(cluster: ClusterNode | undefined): Promise<string[]> {
  return (await cluster?.seedPeers().catch(() => [])) ?? [];
}

/** The node's files set aside and a peer's snapshot in their place; false (logged, exit code 1) when no peer served one. */
async function reseeded(peers: readonly string[], config: ServerConfig, acl: AclOptions | undefined, log: Logger): Promise<boolean> {
  try {
    await reseedFromPeers(peers, config.dataDir, config.adminKey, acl?.secret, log);
    return true;
  } catch (error) {
    if (!(error instanceof SeedError)) throw error;
    log.error(error.message, { 'data-dir': config.dataDir });
    process.exitCode = 1;
    return false;
  }
}

function joinFailed(error: unknown, cluster: NonNullable<ServerConfig['cluster']>, log: Logger): void {
  log.error(`could not join the cluster: ${error instanceof Error ? error.message : String(error)}`, { cluster: cluster.servers.join(','), stream: cluster.stream });
  process.exitCode = 1;
}

/** HS256 needs a key of at least 256 bits (Dgraph's checkAclKeyLength); returns why not as text. */
const minAclSecretBytes = 32;

async function readAclSecret(acl: NonNullable<ServerConfig['acl']>): Promise<AclOptions | string> {
  let secret: Buffer;
  try {
    secret = await readFile(acl.secretFile);
  } catch (error) {
    return `error reading ACL secret key from file: ${acl.secretFile}: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (secret.length < minAclSecretBytes) {
    return `--acl-secret-file ${acl.secretFile}: the ACL secret must be at least ${minAclSecretBytes} bytes (256 bits for HS256), got ${secret.length}`;
  }
  return { secret, accessTtlMs: acl.accessTtlMs, refreshTtlMs: acl.refreshTtlMs };
}

/** SIGTERM, SIGINT and /admin `shutdown`: stop accepting, drain, snapshot (engine.close), exit 0 (or `exitCode`). */
function gracefulStop(
  server: RunningServer,
  engine: Engine,
  log: Logger,
  threads: ReplicaThreads | undefined,
  forwarding: WriteForwarding | undefined,
): (reason: string, exitCode?: number) => Promise<void> {
  let stopping = false;
  return async (reason, exitCode = 0) => {
    if (stopping) {
      if (!reason.startsWith('SIG')) return; // only a second signal cuts the drain short
      log.warn('second signal: exiting without waiting', { signal: reason });
      log.flush();
      process.exit(1);
    }
    stopping = true;
    log.info('shutting down', { reason });
    // The replicas drain while this thread still runs the writes they forwarded (other nodes' too: new ones go elsewhere).
    const [{ drained }] = await Promise.all([server.shutdown(shutdownTimeoutMs), threads?.stop(shutdownTimeoutMs), forwarding?.stop()]);
    if (!drained) log.warn('in-flight requests did not finish in time', { timeoutMs: shutdownTimeoutMs });
    await engine.close();
    log.info('stopped');
    log.flush();
    process.exit(exitCode);
  };
}

/** Runs `serve` as the process: a failure that escapes it is fatal (exit 1). */
export function runAsProcess(serving: Promise<void>): void {
  serving.catch((error: unknown) => {
    process.stderr.write(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
