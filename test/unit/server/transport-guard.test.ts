import { afterAll, describe, expect, it } from 'vitest';
import { loadTransport, type Listening } from '../../../server/uws-transport.js';

// A throw out of a uWS callback would take the process down from inside the native module: the
// transport hands it to the server's failure handler instead (server/router.ts `fail`).
describe('uws-transport: a handler that throws before the router has the request', () => {
  let listening: Listening | undefined;
  afterAll(() => listening?.close());

  it('is answered by the failure handler, and the listener keeps serving', async () => {
    const transport = loadTransport();
    expect(transport.name).toBe('uWebSockets.js-native');
    const failures: unknown[] = [];
    let calls = 0;
    listening = await transport.listen(
      '127.0.0.1',
      0,
      (request, sink) => {
        calls++;
        if (request.path === '/throw') throw new Error('copy failed');
        sink.cork(() => sink.end('ok'));
      },
      (error, sink) => {
        failures.push(error);
        sink.cork(() => {
          sink.writeStatus('500 Internal Server Error');
          sink.end('failed', true);
        });
      },
      () => false,
    );
    const base = `http://127.0.0.1:${listening.port}`;
    const failed = await fetch(`${base}/throw`);
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe('failed');
    expect(failures.map((e) => (e as Error).message)).toEqual(['copy failed']);
    const ok = await fetch(`${base}/ok`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('ok');
    expect(calls).toBe(2);
  });
});
