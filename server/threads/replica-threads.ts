// The writer's side of `--threads N`: N-1 replica threads, each a uWS listener on the same port
// (SO_REUSEPORT: the kernel spreads connections) serving reads from its own replica of the data. They
// start loading while the writer opens the data directory. This thread keeps the only log: it publishes
// every durable batch of records to the replicas (and the LSN they must have applied before answering,
// in shared memory), and runs the writes they forward.

import { Worker } from 'node:worker_threads';
import type { AclOptions, AdminHost, Engine } from '../../engine/index.js';
import type { ServerConfig } from '../config.js';
import type { Logger } from '../log.js';
import { mergedMetricsText, type MetricsJson } from '../metrics.js';
import { decodeRequest } from '../request-wire.js';
import { Outbox, plainResponse, type ReplicaThreadData, type ToReplica, type ToWriter, type WriterCall } from './messages.js';

export interface ReplicaThreads {
  readonly count: number;
  /** /metrics for the process: this thread's figures (`own`) merged with every replica thread's. */
  mergedMetrics(own: () => Promise<MetricsJson>): Promise<string>;
  /** Tells every replica to stop (drain its requests, close its listener); resolves when all have exited. */
  stop(timeoutMs: number): Promise<void>;
}

export interface ReplicaPreloadOptions {
  readonly count: number;
  /** The writer's configuration (its port comes with `serve`: a `--port 0` start binds one later). */
  readonly config: ServerConfig;
  readonly acl: AclOptions | undefined;
  readonly log: Logger;
}

export interface ReplicaServeOptions {
  readonly engine: Engine;
  readonly admin: AdminHost;
  /** The port the writer listens on. */
  readonly port: number;
  /** This (the writer) thread's own /metrics figures. */
  readonly ownMetrics: () => Promise<MetricsJson>;
  /** A replica asked the process to stop (its /admin host; /admin `shutdown` itself is forwarded here). */
  readonly shutdown: () => void;
}

/** Replica threads loading the data directory's snapshot while the writer opens it. */
export interface ReplicaPreload {
  /** The writer opened its engine and listens: each replica reads the log after its snapshot and serves. */
  serve(options: ReplicaServeOptions): ReplicaThreads;
  /** The writer's start failed: the replicas are stopped (the process can exit). */
  abandon(): Promise<void>;
}

/** How long a scrape waits for a replica thread's figures. */
const metricsAskMs = 2000;

/** How long a replica that failed waits before it is started again (it reloads the data directory). */
const restartDelayMs = 1000;

/** Starts in a row that end before the replica serves, after which it is given up. */
const maxFailedStarts = 3;

/**
 * Starts the replicas before the writer opens the data directory: each loads the newest snapshot at once
 * (on its own core, beside the writer's restore), then waits for `serve` to read the log and join.
 */
export function preloadReplicaThreads(options: ReplicaPreloadOptions): ReplicaPreload {
  const { log } = options;
  const shared = new BigInt64Array(new SharedArrayBuffer(16));
  /** Each replica with its outbox (every message to it goes through it, in order). */
  const replicas = new Map<Worker, Outbox<ToReplica>>();
  let serving: ReplicaServeOptions | undefined;
  let nextAsk = 1;
  const asked = new Map<number, (value: MetricsJson) => void>();
  const askMetrics = (outbox: Outbox<ToReplica>): Promise<MetricsJson> =>
    new Promise((resolve) => {
      const id = nextAsk++;
      // A thread that does not answer in time (busy, or stopping) is left out of this scrape.
      const timer = setTimeout(() => {
        asked.delete(id);
        resolve([]);
      }, metricsAskMs);
      asked.set(id, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
      outbox.send({ t: 'metrics-json', id });
    });
  const mergedMetrics = async (own: () => Promise<MetricsJson>): Promise<string> => mergedMetricsText(await Promise.all([own(), ...[...replicas.values()].map(askMetrics)]));
  let stopping = false;
  const broadcast = (message: ToReplica, now = false): void => {
    for (const outbox of replicas.values()) {
      if (now) outbox.sendNow(message);
      else outbox.send(message);
    }
  };
  const go = (on: ReplicaServeOptions): ToReplica => ({ t: 'go', port: on.port, base: on.engine.restoredFrom });

  // A replica that fails is started again (it reloads the data directory); one that keeps failing
  // before it ever serves is given up, and the process serves on the threads it has.
  const start = (index: number, failedStarts: number): void => {
    const workerData: ReplicaThreadData = { config: options.config, shared, acl: options.acl, index, early: serving === undefined };
    const replica = new Worker(new URL('./replica-thread.js', import.meta.url), { workerData });
    // Until the writer serves, a failed start must not keep the process alive.
    if (serving === undefined) replica.unref();
    // Added before it can load anything: every record published from now on reaches it, in order.
    const outbox = new Outbox<ToReplica>(replica);
    replicas.set(replica, outbox);
    if (serving !== undefined) outbox.send(go(serving));
    let ready = false;
    replica.on('message', (batch: ToWriter[]) => {
      const on = serving;
      if (on === undefined) return; // nothing is asked before `go`
      for (const message of batch) {
        if (message.t === 'ready') {
          ready = true;
          log.info('replica thread serving', { thread: index, lsn: message.lsn, ...(message.preloaded === undefined ? {} : { preloaded: message.preloaded }) });
        } else if (message.t === 'shutdown') on.shutdown();
        else if (message.t === 'metrics-json') asked.get(message.id)?.(message.value);
        else if (message.t === 'metrics') void mergedMetrics(on.ownMetrics).then((value) => outbox.send({ t: 'answer', id: message.id, value }));
        else void answer(on, message).then((reply) => outbox.send(reply));
      }
    });
    replica.on('error', (error) => log.error('replica thread failed', { thread: index, error: error.stack ?? error.message }));
    replica.on('exit', (code) => {
      replicas.delete(replica);
      if (stopping) return;
      const failed = ready ? 0 : failedStarts + 1;
      if (failed >= maxFailedStarts) {
        log.error('replica thread did not start; serving without it', { thread: index, code, attempts: failed });
        return;
      }
      log.error('replica thread exited; starting it again', { thread: index, code });
      const timer = setTimeout(() => {
        if (!stopping) start(index, failed);
      }, restartDelayMs);
      if (serving === undefined) timer.unref();
    });
  };
  for (let i = 1; i <= options.count; i++) start(i, 0);

  const stopAll = async (timeoutMs: number): Promise<void> => {
    stopping = true;
    const exits = [...replicas].map(([replica, outbox]) => new Promise<void>((resolve) => {
      const timer = setTimeout(() => void replica.terminate(), timeoutMs + 1000);
      replica.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      outbox.send({ t: 'stop', timeoutMs });
    }));
    await Promise.all(exits);
  };

  return {
    serve(on) {
      const { engine } = on;
      serving = on;
      Atomics.store(shared, 0, BigInt(engine.lsn));
      for (const [replica, outbox] of replicas) {
        replica.ref();
        outbox.send(go(on));
      }
      // Stored before any waiting answer is resolved (Persistence publishes, then settles the writes).
      engine.onLogRecords((frames) => {
        Atomics.store(shared, 0, BigInt(engine.lsn));
        // Now, not at the end of the turn: a read on a replica that arrives meanwhile waits for them.
        broadcast({ t: 'frames', frames }, true);
      });
      engine.drainingChanged = (enable) => Atomics.store(shared, 1, enable ? 1n : 0n);
      // /admin `config(logLevel)` runs here (forwarded or not): every thread's logger follows.
      // Posted before the answer that set it leaves: the next request, on any thread, reads it back.
      log.onLevelChange((level) => broadcast({ t: 'log-level', level }, true));
      return { count: options.count, mergedMetrics, stop: stopAll };
    },
    async abandon() {
      stopping = true;
      await Promise.all([...replicas.keys()].map((replica) => replica.terminate()));
    },
  };
}

/** Runs a write a replica forwarded, on this engine (with this process's /admin host). */
async function answer(options: ReplicaServeOptions, call: Exclude<WriterCall, { t: 'metrics' }>): Promise<ToReplica> {
  const { engine } = options;
  try {
    switch (call.t) {
      case 'execute':
        return { t: 'answer', id: call.id, value: plainResponse(await engine.execute(decodeRequest(call.request))) };
      case 'admin':
        return { t: 'answer', id: call.id, value: plainResponse(await engine.executeAdmin(decodeRequest(call.request), options.admin)) };
      case 'schema':
        return { t: 'answer', id: call.id, value: await engine.updateSchema(call.sdl) };
      case 'snapshot':
        return { t: 'answer', id: call.id, value: await engine.snapshot() };
    }
  } catch (error) {
    return { t: 'failed', id: call.id, message: error instanceof Error ? error.message : String(error) };
  }
}
