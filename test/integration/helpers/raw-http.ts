// Raw bytes over a fresh TCP connection, so nothing between the test and the server normalises them
// (undici and fetch refuse CR/LF in headers and merge repeated ones).

import { connect } from 'node:net';

export interface RawAnswer {
  /** Everything the server sent before closing or before `waitMs`. */
  readonly text: string;
  readonly closed: boolean;
  readonly ms: number;
}

/** Writes `bytes` (latin1) to the server of `baseUrl`; resolves when the server closes the connection or after `waitMs`. */
export function rawExchange(baseUrl: string, bytes: string, waitMs = 3_000): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const started = performance.now();
    let text = '';
    const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes, 'latin1'));
    const finish = (closed: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
  });
}
