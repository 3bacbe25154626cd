// What /admin asks of the process (engine AdminHost): the log level, export files in the data
// directory, and a graceful shutdown.

import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { progressThrottle, type AdminHost, type Engine } from '../engine/index.js';
import { exportData } from './export/export-data.js';
import { isLogLevel, logLevels, type Logger } from './log.js';

export interface AdminHostOptions {
  readonly engine: Engine;
  readonly dataDir: string;
  readonly log: Logger;
  readonly address: () => string;
  /** Stops the process gracefully (drain, snapshot, exit 0). */
  readonly shutdown: () => void;
  /** An admin key is set, so every /admin caller held it (the log's `by` when ACL names no user). */
  readonly adminKeySet?: boolean;
  /** The clock of the export's progress lines (tests). */
  readonly now?: () => number;
}

export function createAdminHost(options: AdminHostOptions): AdminHost {
  const { engine, log } = options;
  return {
    get address() {
      return options.address();
    },
    caller: options.adminKeySet === true ? 'admin key' : 'anonymous',
    logLevel: () => log.level,
    setLogLevel(level) {
      if (!isLogLevel(level)) return `invalid log level ${JSON.stringify(level)}: use ${logLevels.slice(0, -1).join(', ')} or ${logLevels.at(-1) ?? ''}`;
      log.setLevel(level);
      return undefined;
    },
    exportData: (taskId) => writeExport(engine, options.dataDir, taskId, log, options.now ?? (() => performance.now())),
    shutdown() {
      // After this turn, so the admin response is written before the listen socket closes.
      setImmediate(options.shutdown);
    },
  };
}

/**
 * Collects every line before writing any: the engine answers the export's reads without yielding
 * to other requests, so the file is one consistent state. Written to `.tmp` files, then renamed.
 * Logged as the offline tools show it: a start line, a progress line every 2 s (nodes, total,
 * percentage, rate), and the end line with the totals and the duration.
 */
async function writeExport(engine: Engine, dataDir: string, taskId: string, log: Logger, now: () => number): Promise<string> {
  const started = now();
  log.info('export started', { taskId });
  const throttle = progressThrottle(2000, 0, now);
  const progress = (done: number, total: number): void => {
    const figures = throttle.due(done, total);
    if (figures !== undefined) log.info('exporting', { taskId, nodes: done, of: total, percent: figures.percent, perSecond: figures.perSecond, ms: figures.ms });
  };
  const lines: string[] = [];
  const { nodes, types } = await exportData({ execute: (request) => engine.execute(request, true) }, (line) => lines.push(line), progress);
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
  log.info('export written', { taskId, file: `${base}.ndjson`, nodes, types, ms: Math.round(now() - started) });
  return `${base}.ndjson`;
}
