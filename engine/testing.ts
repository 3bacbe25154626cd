// Test hooks of the engine, apart from the facade so production never loads them: only test code and
// the test-only server entry (server/testing/) import this.

export { faultyFileIo, type FaultRule, type FaultyFileIo } from './persist/faulty-file-io.js';
export { snapshotEncoderTesting } from './persist/snapshot-encoder.js';
