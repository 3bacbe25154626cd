// `npm run export -- <file> [--data-dir <dir>]`: writes every node of an offline data directory as one
// NDJSON line (see ../export/export-data.ts for the format). Offline: it opens the data directory itself
// (stop the server first).

import { createWriteStream } from 'node:fs';
import { DATA_FILE_MODE } from '../../engine/index.js';
import { exportData } from '../export/export-data.js';
import { cliArgs } from './cli-args.js';
import { progress, type Progress } from './progress.js';
import { openOffline } from './open-offline.js';

const exportUsage = 'usage: npm run export -- <file.ndjson> [--data-dir <dir>] [--recover]';
const exportHelp = `Writes every node of an offline data directory as one NDJSON line (its add input plus "__typename").
Stop the server first: the tool opens the directory itself.

  --data-dir <dir>  the data directory (default: snapshots)
  --recover         on damaged files, recover as the server's --recover does
  -h, --help        this help`;

async function main(): Promise<void> {
  const args = cliArgs(process.argv.slice(2), { 'data-dir': { type: 'string' }, recover: { type: 'boolean' } }, exportUsage, exportHelp);
  if (args === undefined) return;
  const { values, file } = args;
  const started = performance.now();
  const engine = await openOffline(values['data-dir'] ?? 'snapshots', values.recover ?? false);
  const stream = createWriteStream(file, { mode: DATA_FILE_MODE }); // it holds every value
  let buffered: string[] = [];
  const flush = async (): Promise<void> => {
    if (buffered.length === 0) return;
    const chunk = buffered.join('');
    buffered = [];
    if (!stream.write(chunk)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
  };
  let pending = Promise.resolve();
  let report: Progress | undefined;
  const result = await exportData(
    engine,
    (line) => {
      buffered.push(line);
      if (buffered.length >= 5000) pending = pending.then(flush);
    },
    (done, total) => (report ??= progress('export', 'nodes', total))(done),
  );
  report?.finish();
  await pending;
  await flush();
  await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  await engine.close();
  process.stderr.write(`exported ${result.nodes} nodes of ${result.types} types to ${file} in ${Math.round(performance.now() - started)} ms\n`);
}

if (process.argv[1]?.endsWith('export.js') === true) {
  main().catch((error: unknown) => {
    process.stderr.write(`export failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
