// Test-only entry point: `node dist/server/testing/main-with-faults.js [options]` is the service with the
// file I/O faults of SERVICE_IO_FAULTS (a JSON array of FaultRule, engine/persist/faulty-file-io.ts)
// injected under persistence, so crash tests can fail or hang a chosen write, fsync or rename.
// Production (main.ts) never loads this file or reads that variable.

import { nodeFileIo } from '../../engine/index.js';
import { faultyFileIo, type FaultRule } from '../../engine/testing.js';
import { runAsProcess, serve } from '../serve.js';

const faults = process.env['SERVICE_IO_FAULTS'];
const rules = faults === undefined || faults === '' ? [] : (JSON.parse(faults) as FaultRule[]);
runAsProcess(serve({ fileIo: faultyFileIo(nodeFileIo, rules) }));
