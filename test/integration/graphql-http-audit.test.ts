// The graphql-http package's GraphQL-over-HTTP audits, one `it` per audit, against the real server.
// Every MUST and SHOULD audit passes; every MAY audit passes too, except those listed in `declined`,
// which must give exactly the recorded outcome.

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

/** MAY audits the service declines: Dgraph answers application/json clients 200 with the errors in the body (README, Endpoints). */
const declined: Readonly<Record<string, string>> = {
  '8764': 'notice: Response status is not between 400 and 599',
  '3E3A': 'notice: Response status code is not 400',
};

const audits = serverAudits({ url: () => `${server.url}/graphql`, fetchFn: fetch });

it('runs on the native uWebSockets.js transport', () => {
  expect(server.transport).toBe(nativeTransport);
});

describe('graphql-http server audits', () => {
  for (const audit of audits) {
    const required = audit.name.startsWith('MUST') || audit.name.startsWith('SHOULD');
    it(`${audit.id} ${audit.name}`, async () => {
      const result = await audit.fn();
      const outcome = result.status === 'ok' ? 'ok' : `${result.status}: ${'reason' in result ? result.reason : ''}`;
      expect(outcome).toBe(required ? 'ok' : (declined[audit.id] ?? 'ok'));
    });
  }
});
