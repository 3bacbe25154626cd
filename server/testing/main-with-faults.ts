// Test-only entry point: `node dist/server/testing/main-with-faults.js [options]` is the service with the
// file I/O faults of SERVICE_IO_FAULTS (a JSON array of FaultRule, engine/persist/faulty-file-io.ts)
// injected under persistence, so crash tests can fail or hang a chosen write, fsync or rename; and with
// SERVICE_TEST_CRASH_BEFORE_PROPOSE=N (cluster mode) the Nth proposal to the cluster log kills the
// process with SIGKILL instead: its records are then in the node's own log only.
// Production (main.ts) never loads this file or reads those variables.

import { nodeFileIo } from '../../engine/index.js';
import { faultyFileIo, type FaultRule } from '../../engine/testing.js';
import { runAsProcess, serve } from '../serve.js';

const faults = process.env['SERVICE_IO_FAULTS'];
const rules = faults === undefined || faults === '' ? [] : (JSON.parse(faults) as FaultRule[]);
const crashAt = Number(process.env['SERVICE_TEST_CRASH_BEFORE_PROPOSE'] ?? 0);
let proposals = 0;
const beforePropose = (): void => {
  if (++proposals === crashAt) process.kill(process.pid, 'SIGKILL');
};
runAsProcess(serve({ fileIo: faultyFileIo(nodeFileIo, rules), ...(crashAt > 0 ? { beforePropose } : {}) }));
