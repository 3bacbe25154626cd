// The HTTP server: transport + router, with a count of in-flight requests so shutdown can drain.

import type { AdminHost, Engine } from '../engine/index.js';
import type { ServerConfig } from './config.js';
import { createAdminHost } from './admin-host.js';
import { Exchange } from './exchange.js';
import type { Logger } from './log.js';
import { createRequestFigures, Router } from './router.js';
import { KeyChecker } from './auth.js';
import { graphqlSockets } from './sockets/graphql-sockets.js';
import type { Listening, Transport } from './uws-transport.js';
import type { Registry } from 'prom-client';
import { createMetrics, type MetricsJson } from './metrics.js';
import type { ServerMetrics } from './routes/route.js';

/** uWS flushes corked writes on its next loop turn; give the last responses that long before exiting. */
const flushGraceMs = 50;

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /** What /admin asks of this process (a replica thread's forwarded /admin writes run with it: server/threads/). */
  readonly admin: AdminHost;
  readonly metrics: ServerMetrics;
  /** Closes the connections still open after `shutdown` (a replica thread's exit: uws-transport.ts). */
  closeAll(): void;
  /** Stops accepting, then resolves once every in-flight request has settled (or after `timeoutMs`). */
  shutdown(timeoutMs: number): Promise<{ readonly drained: boolean }>;
}

/**
 * A server's place under `--threads` (server/threads/): a replica thread's registry has only its own
 * traffic, and a scrape on any thread answers for the process (`merge` gathers every thread's figures).
 */
export interface ThreadRole {
  readonly processWide: boolean;
  merge(own: () => Promise<MetricsJson>): Promise<string>;
}

/** `shutdown`: what /admin `shutdown` calls (main's graceful stop). */
export async function startServer(transport: Transport, engine: Engine, config: ServerConfig, log: Logger, shutdown: () => void, thread?: ThreadRole): Promise<RunningServer> {
  const figures = createRequestFigures(config.requestMetrics);
  let registry: Registry | undefined;
  const own = (): Registry => (registry ??= createMetrics(engine, figures, thread?.processWide ?? true));
  const metrics: ServerMetrics = {
    json: () => own().getMetricsAsJSON(),
    text: () => (thread === undefined ? own().metrics() : thread.merge(() => own().getMetricsAsJSON())),
  };
  let onIdle: (() => void) | undefined;
  let boundPort = config.port;
  const address = (): string => `${config.host}:${boundPort}`;
  const admin = createAdminHost({ engine, dataDir: config.dataDir, log, address, shutdown, adminKeySet: config.adminKey !== undefined });
  const router = new Router({ engine, config, log, address, admin, figures, metrics });
  const settled = (): void => {
    figures.inFlight--;
    if (figures.inFlight === 0) onIdle?.();
  };
  const listening: Listening = await transport.listen(
    config.host,
    config.port,
    (request, sink) => {
      const exchange = new Exchange(request, sink, settled);
      figures.inFlight++;
      exchange.insideHandler(() => router.handle(exchange)); // never throws: the router answers every failure
    },
    (error, sink) => router.fail(error, sink),
    () => engine.readsRequestHeaders,
    graphqlSockets(engine, new KeyChecker(config), config.sockets),
  );
  const port = listening.port;
  boundPort = port;
  engine.listeningOn(config.host, port); // @custom calls must never reach the service itself
  const hostForUrl = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    admin,
    metrics,
    closeAll: () => listening.closeAll(),
    async shutdown(timeoutMs) {
      listening.close();
      let drained = true;
      if (figures.inFlight > 0) {
        log.info('waiting for in-flight requests', { count: figures.inFlight });
        drained = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), timeoutMs);
          onIdle = () => {
            clearTimeout(timer);
            resolve(true);
          };
        });
      }
      await new Promise((resolve) => setTimeout(resolve, flushGraceMs));
      return { drained };
    },
  };
}
