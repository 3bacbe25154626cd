// The writer's side of `--threads N`: N-1 replica threads, each a uWS listener on the same port
// (SO_REUSEPORT: the kernel spreads connections) serving reads from its own replica of the data. This
// thread keeps the only log: it publishes every durable batch of records to the replicas (and the LSN
// they must have applied before answering, in shared memory), and runs the writes they forward.

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

export interface ReplicaThreadsOptions {
  readonly count: number;
  /** The writer's configuration with the port it is bound to (a `--port 0` start included). */
  readonly config: ServerConfig;
  readonly acl: AclOptions | undefined;
  readonly engine: Engine;
  readonly admin: AdminHost;
  readonly log: Logger;
  /** This (the writer) thread's own /metrics figures. */
  readonly ownMetrics: () => Promise<MetricsJson>;
  /** A replica asked the process to stop (its /admin host; /admin `shutdown` itself is forwarded here). */
  readonly shutdown: () => void;
}

/** How long a scrape waits for a replica thread's figures. */
const metricsAskMs = 2000;

/** How long a replica that failed waits before it is started again (it reloads the data directory). */
const restartDelayMs = 1000;

/** Starts in a row that end before the replica serves, after which it is given up. */
const maxFailedStarts = 3;

/** Starts the replicas in the background: the writer serves at once, each replica joins once it loaded the data. */
export function startReplicaThreads(options: ReplicaThreadsOptions): ReplicaThreads {
  const { engine, log } = options;
  const shared = new BigInt64Array(new SharedArrayBuffer(16));
  Atomics.store(shared, 0, BigInt(engine.lsn));
  /** Each replica with its outbox (every message to it goes through it, in order). */
  const replicas = new Map<Worker, Outbox<ToReplica>>();
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

  // A replica that fails is started again (it reloads the data directory); one that keeps failing
  // before it ever serves is given up, and the process serves on the threads it has.
  const start = (index: number, failedStarts: number): void => {
    const workerData: ReplicaThreadData = { config: options.config, shared, acl: options.acl, index };
    const replica = new Worker(new URL('./replica-thread.js', import.meta.url), { workerData });
    // Added before it can load anything: every record published from now on reaches it, in order.
    const outbox = new Outbox<ToReplica>(replica);
    replicas.set(replica, outbox);
    let ready = false;
    replica.on('message', (batch: ToWriter[]) => {
      for (const message of batch) {
        if (message.t === 'ready') {
          ready = true;
          log.info('replica thread serving', { thread: index, lsn: message.lsn });
        } else if (message.t === 'shutdown') options.shutdown();
        else if (message.t === 'metrics-json') asked.get(message.id)?.(message.value);
        else if (message.t === 'metrics') void mergedMetrics(options.ownMetrics).then((value) => outbox.send({ t: 'answer', id: message.id, value }));
        else void answer(options, message).then((reply) => outbox.send(reply));
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
      setTimeout(() => {
        if (!stopping) start(index, failed);
      }, restartDelayMs);
    });
  };
  for (let i = 1; i <= options.count; i++) start(i, 0);

  return {
    count: options.count,
    mergedMetrics,
    async stop(timeoutMs) {
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
    },
  };
}

/** Runs a write a replica forwarded, on this engine (with this process's /admin host). */
async function answer(options: ReplicaThreadsOptions, call: Exclude<WriterCall, { t: 'metrics' }>): Promise<ToReplica> {
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
