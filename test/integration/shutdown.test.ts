// Graceful shutdown: SIGTERM stops accepting, lets in-flight requests finish, then exits 0.

import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { send } from './helpers/http.js';
import { nativeTransport, startServer } from './helpers/server-process.js';
import { findLog } from './helpers/log-records.js';

/** Opens a raw connection and sends the headers plus the first half of a POST body. */
function startSlowRequest(url: URL, body: string): Promise<{ socket: Socket; finish(): void; response: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      const half = Math.floor(body.length / 2);
      socket.write(
        `POST /graphql HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
      );
      let received = '';
      const response = new Promise<string>((done) => {
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          received += chunk;
          if (/\r\n\r\n[\s\S]*\}$/.test(received)) done(received);
        });
        socket.on('close', () => done(received));
      });
      resolve({ socket, finish: () => socket.write(body.slice(half)), response });
    });
    socket.on('error', reject);
  });
}

describe('graceful shutdown', () => {
  it('SIGTERM with a request in flight: the request completes, then exit 0', async () => {
    const server = await startServer();
    expect(server.transport).toBe(nativeTransport);
    const url = new URL(server.url);
    const slow = await startSlowRequest(url, JSON.stringify({ query: '{ __typename }' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.child.exitCode).toBeNull(); // still waiting for the in-flight request
    // New connections are refused once the listen socket is closed.
    await expect(send(`${server.url}/health`)).rejects.toThrow(`connect ECONNREFUSED ${url.hostname}:${url.port}`);
    slow.finish();
    const raw = await slow.response;
    expect(raw).toMatch(/^HTTP\/1\.1 200/);
    expect(raw).toContain('{"data":{"__typename":"Query"}}');
    slow.socket.destroy();
    const exit = await server.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(findLog(server.output(), 'shutting down')).toBeDefined();
    await server.stop();
  });

  it('SIGINT on an idle server exits 0', async () => {
    const server = await startServer();
    expect(server.transport).toBe(nativeTransport);
    server.child.kill('SIGINT');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await server.stop();
  });
});
