// Opens a data directory for an offline tool (export, import): no snapshots of its own, no fsync,
// limits wide enough for any generated read, warnings and errors to stderr.

import { Engine } from '../../engine/index.js';

export async function openOffline(dataDir: string, recover = false): Promise<Engine> {
  return Engine.open({
    dataDir,
    maxQueryTokens: 1_000_000,
    maxQueryDepth: 1000,
    debug: false,
    fsync: 'no',
    recover,
    snapshotEveryMutations: 0,
    snapshotIntervalSeconds: 0,
    log: {
      error: (m, f) => process.stderr.write(`error: ${m} ${JSON.stringify(f ?? {})}\n`),
      warn: (m, f) => process.stderr.write(`warning: ${m} ${JSON.stringify(f ?? {})}\n`),
      info: () => undefined,
    },
  });
}
