// The graphql-http package's GraphQL-over-HTTP audits, one `it` per audit, against the real server.
// Every MUST and SHOULD audit must pass; MAY audits run too and are reported, not required.

import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeTransport, startServer, type ServerProcess } from './helpers/server-process.js';

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const audits = serverAudits({ url: () => `${server.url}/graphql`, fetchFn: fetch });

it('runs on the native uWebSockets.js transport', () => {
  expect(server.transport).toBe(nativeTransport);
});

describe('graphql-http server audits', () => {
  for (const audit of audits) {
    const required = audit.name.startsWith('MUST') || audit.name.startsWith('SHOULD');
    it(`${audit.id} ${audit.name}`, async () => {
      const result = await audit.fn();
      if (result.status === 'ok') return;
      const detail = 'reason' in result ? result.reason : '';
      if (required) expect.fail(`${result.status}: ${detail}`);
      else console.info(`[graphql-http] optional audit ${audit.id} (${audit.name}) -> ${result.status}: ${detail}`);
    });
  }
});
