// What /admin asks of the process (engine AdminHost): the log level, export files in the data
// directory, and a graceful shutdown.

import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdminHost, Engine } from '../engine/index.js';
import { exportData } from './export/export-data.js';
import { isLogLevel, logLevels, type Logger } from './log.js';

export interface AdminHostOptions {
  readonly engine: Engine;
  readonly dataDir: string;
  readonly log: Logger;
  readonly address: () => string;
  /** Stops the process gracefully (drain, snapshot, exit 0). */
  readonly shutdown: () => void;
}

export function createAdminHost(options: AdminHostOptions): AdminHost {
  const { engine, log } = options;
  return {
    get address() {
      return options.address();
    },
    logLevel: () => log.level,
    setLogLevel(level) {
      if (!isLogLevel(level)) return `invalid log level ${JSON.stringify(level)}: use ${logLevels.slice(0, -1).join(', ')} or ${logLevels.at(-1) ?? ''}`;
      log.info('log level changed through /admin', { from: log.level, to: level });
      log.setLevel(level);
      return undefined;
    },
    exportData: (taskId) => writeExport(engine, options.dataDir, taskId, log),
    shutdown() {
      // After this turn, so the admin response is written before the listen socket closes.
      setImmediate(options.shutdown);
    },
  };
}

/**
 * Collects every line before writing any: the engine answers the export's reads without yielding
 * to other requests, so the file is one consistent state. Written to `.tmp` files, then renamed.
 */
async function writeExport(engine: Engine, dataDir: string, taskId: string, log: Logger): Promise<string> {
  const started = performance.now();
  const lines: string[] = [];
  const { nodes, types } = await exportData({ execute: (request) => engine.execute(request, true) }, (line) => lines.push(line));
  const schema = engine.currentSchema()?.schema;
  const dir = join(dataDir, 'export');
  await mkdir(dir, { recursive: true });
  const base = join(dir, `export-${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}-${taskId}`);
  const files: [string, string][] = [[`${base}.ndjson`, lines.join('')]];
  if (schema !== undefined) files.push([`${base}.schema.graphql`, schema]);
  for (const [file, text] of files) {
    await writeFile(`${file}.tmp`, text);
    await rename(`${file}.tmp`, file);
  }
  log.info('export written', { file: `${base}.ndjson`, nodes, types, ms: Math.round(performance.now() - started) });
  return `${base}.ndjson`;
}
