import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.js';
import { createLogger, defaultLogFormat } from '../../../server/log.js';

function capture(format: 'json' | 'pretty', level: 'info' | 'debug' = 'info'): { log: ReturnType<typeof createLogger>; lines: string[] } {
  const lines: string[] = [];
    const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { log: createLogger(level, { format, stream }), lines };
}

describe('log: pino underneath', () => {
  it('json: one object per line with the level by name, time, pid, the fields and msg', () => {
    const { log, lines } = capture('json');
    log.info('listening on http://127.0.0.1:1', { 'data-dir': '/d', n: 3, on: true, absent: undefined });
    log.debug('not at info');
    expect(lines).toHaveLength(1);
    const { time, ...rest } = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(typeof time).toBe('number');
    expect(rest).toEqual({ level: 'info', pid: process.pid, 'data-dir': '/d', n: 3, on: true, msg: 'listening on http://127.0.0.1:1' });
  });

  it('the level changes at run time and enabled() follows it', () => {
    const { log, lines } = capture('json');
    expect([log.level, log.enabled('debug')]).toEqual(['info', false]);
    log.setLevel('debug');
    expect([log.level, log.enabled('debug')]).toEqual(['debug', true]);
    log.debug('now shown');
    log.setLevel('error');
    log.warn('hidden');
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['now shown']);
  });

  it('fields named like secrets are redacted', () => {
    const { log, lines } = capture('json');
    log.info('event', { password: 'p4ss', secret: 's3cret', token: 't0ken', 'x-auth-token': 'k3y', authorization: 'Bearer x' });
    const record = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect([record['password'], record['secret'], record['token'], record['x-auth-token'], record['authorization']]).toEqual(Array(5).fill('[redacted]'));
    for (const value of ['p4ss', 's3cret', 't0ken', 'k3y', 'Bearer x']) expect(lines[0]).not.toContain(value);
  });

  it('pretty: one readable line per event (time, LEVEL, message, fields), no JSON object', async () => {
    const { log, lines } = capture('pretty');
    log.warn('slow thing', { ms: 12 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const text = lines.join('');
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: slow thing \{"ms":12\}\n$/);
  });

  it('the default format: pretty on a terminal, json otherwise', () => {
    expect([defaultLogFormat(true), defaultLogFormat(false)]).toEqual(['pretty', 'json']);
  });

  it('--log-requests: one in 100 by default, all = 1, none = 0, N', () => {
    const sampling = (args: string[]): unknown => {
      const loaded = loadConfig(args, {});
      return loaded.kind === 'config' ? [loaded.config.logRequests, loaded.config.slowMs] : loaded;
    };
    expect([sampling([]), sampling(['--log-requests', 'all']), sampling(['--log-requests', 'none', '--slow-ms', '0']), sampling(['--log-requests', '7'])]).toEqual([
      [100, 1000],
      [1, 1000],
      [0, 0],
      [7, 1000],
    ]);
  });
});
