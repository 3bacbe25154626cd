// Starts one contender as a child process pinned to the server core (or another), waits for its
// `listening on http://HOST:PORT` line, and stops it again.

import { spawn, type ChildProcess } from 'node:child_process';
import { pinnedCommand, serverCore, type PinResult } from './pin.js';

export interface RunningContender {
  readonly url: string;
  readonly pid: number;
  output(): string;
  stop(): Promise<void>;
}

/** The start line of a server (its URL), in a plain text or a JSON log line. */
export const startLine = /listening on (http:\/\/[^\s/"]+)/;

/** Extra node flags for every contender, e.g. `BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=prof"` to profile. */
const nodeFlags = (process.env['BENCH_NODE_FLAGS'] ?? '').split(' ').filter((flag) => flag !== '');

export async function spawnContender(pin: PinResult, script: string, args: readonly string[], timeoutMs = 30_000, core = serverCore): Promise<RunningContender> {
  const { command, args: argv } = pinnedCommand(pin, process.execPath, [...nodeFlags, script, ...args], core);
  const env = { ...process.env, NODE_ENV: 'production' };
  const child = spawn(command, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await waitForStart(child, () => text, timeoutMs);
  return {
    url,
    pid: child.pid ?? 0,
    output: () => text,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function waitForStart(child: ChildProcess, output: () => string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`no start-up line within ${timeoutMs} ms:\n${output()}`)), timeoutMs);
    const check = (): void => {
      const match = startLine.exec(output());
      if (match?.[1] !== undefined) finish(null, match[1]);
    };
    const onExit = (code: number | null): void => finish(new Error(`exited with ${code} before starting:\n${output()}`));
    const finish = (error: Error | null, url = ''): void => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      child.off('exit', onExit);
      if (error === null) resolve(url);
      else {
        child.kill('SIGKILL');
        reject(error);
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', onExit);
  });
}
