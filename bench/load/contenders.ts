// The contenders of a load run: how each starts (pinned to the server core) and where each scenario
// is sent. The service is loaded through its HTTP API; the peers and the ceiling read the data file.
// Every contender but the ceiling computes `Post.ref` through the loopback upstream at `upstreamUrl`.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Dataset } from '../data/dataset.js';
import { loadService } from './load-service.js';
import type { PinResult } from './pin.js';
import { spawnContender } from './spawn-contender.js';

export type ContenderName = 'ceiling' | 'service' | 'mercurius' | 'apollo' | 'yoga';

export interface StartedContender {
  readonly pid: number;
  /** null for the ceiling, which speaks no GraphQL. */
  readonly graphqlUrl: string | null;
  urlFor(scenario: string): string;
  stop(): Promise<void>;
}

export interface ContenderSpec {
  readonly name: ContenderName;
  readonly label: string;
  start(pin: PinResult, dataFile: string, data: Dataset, upstreamUrl: string): Promise<StartedContender>;
}

/** dist/ (this file is dist/bench/load/contenders.js). */
const distRoot = resolve(import.meta.dirname, '../..');

function peer(name: ContenderName, label: string, file: string): ContenderSpec {
  return {
    name,
    label,
    async start(pin, dataFile, _data, upstreamUrl) {
      const child = await spawnContender(pin, join(distRoot, 'bench/contenders', file), ['--port', '0', '--data', dataFile, '--upstream', upstreamUrl]);
      const graphqlUrl = name === 'ceiling' ? null : `${child.url}/graphql`;
      return {
        pid: child.pid,
        graphqlUrl,
        urlFor: (scenario) => graphqlUrl ?? `${child.url}/ceiling/${scenario}`,
        stop: () => child.stop(),
      };
    },
  };
}

const service: ContenderSpec = {
  name: 'service',
  label: 'this service (uWS + engine)',
  async start(pin, _dataFile, data, upstreamUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-service-'));
    const entry = join(distRoot, 'server/main.js');
    const child = await spawnContender(pin, entry, ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--threads', '1']);
    const stop = async (): Promise<void> => {
      await child.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
    try {
      await loadService(child.url, data, upstreamUrl);
    } catch (error) {
      await stop();
      throw error;
    }
    return { pid: child.pid, graphqlUrl: `${child.url}/graphql`, urlFor: () => `${child.url}/graphql`, stop };
  },
};

export const contenders: readonly ContenderSpec[] = [
  peer('ceiling', 'ceiling: bare uWS, fixed body', 'ceiling-uws.js'),
  service,
  peer('mercurius', 'mercurius + graphql-jit', 'mercurius-jit.js'),
  peer('apollo', 'Apollo Server 5 standalone', 'apollo.js'),
  peer('yoga', 'graphql-yoga 5 on node:http', 'yoga.js'),
];
