import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../server/http-error.js';
import { createLogger } from '../../../server/log.js';
import { engineReply, failureReply, refusals, statusFor } from '../../../server/responses.js';

function capturingLogger(): { log: ReturnType<typeof createLogger>; lines: string[] } {
  const lines: string[] = [];
  return { log: createLogger('info', { format: 'json', stream: { write: (line: string) => void lines.push(line) } }), lines };
}

describe('responses: the one owner of status codes and error bodies', () => {
  it('maps engine answers to statuses per client media type', () => {
    expect(statusFor('ok', 'json')).toBe(200);
    expect(statusFor('request-error', 'json')).toBe(200);
    expect(statusFor('request-error', 'graphql-response')).toBe(400);
    expect(statusFor('request-error', 'json', true)).toBe(400);
    expect(statusFor('method-not-allowed', 'json')).toBe(405);
  });

  it('adds Allow to a 405 and counts touched uids only when asked', () => {
    const reply = engineReply({ kind: 'method-not-allowed', body: '{}' }, 'json', false, true);
    expect(reply).toEqual({ status: 405, contentType: 'application/json', body: '{}', touchedUids: 0, headers: { Allow: 'POST, OPTIONS' } });
    expect(engineReply({ kind: 'ok', body: '{}' }, 'json', false, false)).toEqual({ status: 200, contentType: 'application/json', body: '{}' });
  });

  it('renders a refusal with its status, code and headers, and logs nothing', () => {
    const { log, lines } = capturingLogger();
    expect(failureReply(refusals.badMethod(), 'json', log, 'r-1')).toEqual({
      status: 405,
      contentType: 'application/json',
      body: '{"errors":[{"message":"Unrecognised request method.  Please use GET or POST for GraphQL requests"}]}',
      headers: { Allow: 'GET, POST, OPTIONS' },
    });
    expect(failureReply(new HttpError(401, 'Invalid X-Auth-Token', 'ErrorUnauthorized'), 'json', log, 'r-2').body).toBe(
      '{"errors":[{"message":"Invalid X-Auth-Token","extensions":{"code":"ErrorUnauthorized"}}]}',
    );
    expect(lines).toEqual([]);
  });

  it('answers an unexpected failure 500 with the request id and logs the details under the same id', () => {
    const { log, lines } = capturingLogger();
    const reply = failureReply(new Error('boom'), 'graphql-response', log, 'abc123-7f');
    expect(reply.status).toBe(500);
    expect(reply.contentType).toBe('application/graphql-response+json; charset=utf-8');
    const message = JSON.parse(String(reply.body)).errors[0].message as string;
    const id = /^Internal error \(request ([^)]+)\)\.$/.exec(message)?.[1];
    expect(id).toBe('abc123-7f');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 'error', msg: 'internal error', requestId: id });
    expect(JSON.parse(lines[0] ?? '').error).toMatch(/^Error: boom\n/);
    expect(message).not.toContain('boom');
  });
});
