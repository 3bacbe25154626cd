// One replica thread of `--threads N` (started by replica-threads.ts): its own engine, a replica that
// loads the writer's data directory and then applies the records the writer publishes, and its own uWS
// listener on the writer's port. Reads are answered here; writes go to the writer (engine
// `EngineOptions.writer`), and every answer waits until this replica applied what the writer had
// published when it arrived.

import { parentPort, workerData } from 'node:worker_threads';
import { Engine, SeedBaseMismatch, type EngineResponse, type GraphQLRequest, type SchemaUpdateResult, type SnapshotResult, type WriterLink } from '../../engine/index.js';
import { startServer } from '../http-server.js';
import { createLogger, isLogLevel } from '../log.js';
import { engineOptions } from '../serve.js';
import { loadTransport } from '../uws-transport.js';
import type { MetricsJson } from '../metrics.js';
import { encodeRequest } from '../request-wire.js';
import { Outbox, type ReplicaThreadData, type ToReplica, type ToWriter, type WriterCall } from './messages.js';

type Pending = { readonly resolve: (value: unknown) => void; readonly reject: (error: Error) => void };

class WriterPort implements WriterLink {
  #next = 1;
  readonly #pending = new Map<number, Pending>();

  constructor(
    private readonly post: (message: ToWriter) => void,
    private readonly shared: BigInt64Array,
  ) {}

  execute(request: GraphQLRequest): Promise<EngineResponse> {
    return this.#call((id) => ({ t: 'execute', id, request: encodeRequest(request) }));
  }

  executeAdmin(request: GraphQLRequest): Promise<EngineResponse> {
    return this.#call((id) => ({ t: 'admin', id, request: encodeRequest(request) }));
  }

  updateSchema(sdl: string): Promise<SchemaUpdateResult> {
    return this.#call((id) => ({ t: 'schema', id, sdl }));
  }

  snapshot(): Promise<SnapshotResult> {
    return this.#call((id) => ({ t: 'snapshot', id }));
  }

  metricsText(): Promise<string> {
    return this.#call((id) => ({ t: 'metrics', id }));
  }

  visibleLsn(): number {
    return Number(Atomics.load(this.shared, 0));
  }

  draining(): boolean {
    return Atomics.load(this.shared, 1) === 1n;
  }

  settle(message: Extract<ToReplica, { t: 'answer' | 'failed' }>): void {
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    if (message.t === 'answer') pending.resolve(message.value);
    else pending.reject(new Error(`the writer thread failed the forwarded write: ${message.message}`));
  }

  #call<T>(make: (id: number) => WriterCall): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.post(make(id));
    });
  }
}

async function run(port: NonNullable<typeof parentPort>, data: ReplicaThreadData): Promise<void> {
  const { config } = data;
  const log = createLogger(config.logLevel, { format: config.logFormat });
  const outbox = new Outbox<ToWriter>(port);
  const post = (message: ToWriter): void => outbox.send(message);
  const writer = new WriterPort(post, data.shared);
  // Records published while the data directory loads are kept, then applied in order (known ones skip).
  let early: Uint8Array[] | undefined = [];
  // Set once the engine is open and the listener up (messages may arrive before either).
  const opened: { engine?: Engine; stop?: (timeoutMs: number) => Promise<void>; metrics?: () => Promise<MetricsJson> } = {};
  let applying: Promise<unknown> = Promise.resolve();
  const apply = (frames: Uint8Array): void => {
    const into = opened.engine as Engine;
    applying = applying
      .then(() => into.replicate(frames))
      .then((result) => {
        // A replica that cannot follow the log must not serve: the writer starts a new one.
        if (!result.ok) fail(`replica thread ${data.index} cannot apply the writer's records: ${result.message}`);
      });
  };
  const fail = (message: string): void => {
    log.error(message);
    log.flush();
    process.exit(1);
  };
  let gone: (message: Extract<ToReplica, { t: 'go' }>) => void = () => undefined;
  const going = new Promise<Extract<ToReplica, { t: 'go' }>>((resolve) => (gone = resolve));
  const handle = (message: ToReplica): void => {
    switch (message.t) {
      case 'go':
        gone(message);
        break;
      case 'frames':
        if (early !== undefined) early.push(message.frames);
        else apply(message.frames);
        break;
      case 'answer':
      case 'failed':
        writer.settle(message);
        break;
      case 'metrics-json':
        void (opened.metrics?.() ?? Promise.resolve([])).then((value) => post({ t: 'metrics-json', id: message.id, value }));
        break;
      case 'log-level':
        if (isLogLevel(message.level)) log.setLevel(message.level);
        break;
      case 'stop':
        void (opened.stop?.(message.timeoutMs) ?? Promise.resolve()).finally(() => {
          log.flush();
          process.exit(0);
        });
        break;
    }
  };
  port.on('message', (batch: ToReplica[]) => {
    for (const message of batch) handle(message);
  });

  const transport = loadTransport();
  const open = (early: boolean): Promise<Engine> =>
    Engine.open({
      ...engineOptions(config, log, {}),
      dataDir: '',
      seedFrom: config.dataDir,
      ...(early ? { seedBase: () => going.then((message) => message.base) } : {}),
      writer,
      ...(data.acl === undefined ? {} : { acl: data.acl }),
    });
  let engine: Engine;
  let preloaded: number | undefined;
  try {
    engine = await open(data.early);
    if (data.early) preloaded = (await going).base?.lsn ?? 0;
  } catch (error) {
    if (!(error instanceof SeedBaseMismatch)) throw error;
    // The writer fell back to another snapshot (--recover) or was seeded again: load what it restored.
    log.info('replica thread loads the data directory again', { thread: data.index, why: error.message });
    engine = await open(false);
  }
  const { port: listenPort } = await going;
  opened.engine = engine;
  for (const frames of early) apply(frames);
  early = undefined;
  await applying;
  const server = await startServer(transport, engine, { ...config, port: listenPort }, log, () => post({ t: 'shutdown' }), { processWide: false, merge: () => writer.metricsText() });
  opened.metrics = () => server.metrics.json();
  opened.stop = async (timeoutMs) => {
    await server.shutdown(timeoutMs);
    server.closeAll();
    await engine.close();
  };
  post({ t: 'ready', lsn: engine.lsn, ...(preloaded === undefined ? {} : { preloaded }) });
}

if (parentPort === null) throw new Error('replica-thread.ts runs as a worker thread of replica-threads.ts');
const port = parentPort;
run(port, workerData as ReplicaThreadData).catch((error: unknown) => {
  // The writer logs why (the thread's error event) and decides whether to start it again.
  throw error;
});
