import { afterEach, describe, expect, it, vi } from 'vitest';
import { Engine, type GraphQLRequest } from '../../../engine/index.js';

describe('engine logging goes through the injected logger', () => {
  afterEach(() => vi.restoreAllMocks());

  it('an internal failure of a request: Internal error with an id for the client, details under that id in the log, nothing on the console', async () => {
    const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
    const at = (level: string) => (message: string, fields?: Record<string, unknown>) => lines.push({ level, message, fields: fields ?? {} });
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const engine = await Engine.open({ dataDir: '', maxQueryTokens: 1000, maxQueryDepth: 50, debug: false, log: { error: at('error'), warn: at('warn'), info: at('info') } });
    // A request whose variables throw when read: a failure no validation anticipates.
    const request = {
      method: 'POST',
      query: '{ __typename }',
      headers: {},
      get variables(): never {
        throw new Error('boom');
      },
    } as unknown as GraphQLRequest;
    const response = await engine.execute(request);
    await engine.close();
    const body = JSON.parse(response.body);
    const id = /^Internal error \(request ([0-9a-f-]{36})\)\.$/.exec(body.errors[0].message)?.[1];
    expect(id).toBeDefined();
    expect(body.data).toBeNull();
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe('error');
    expect(lines[0]?.message).toBe('request failed');
    expect(lines[0]?.fields['requestId']).toBe(id);
    expect(String(lines[0]?.fields['error'])).toMatch(/^Error: boom\n/);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("an internal failure quotes the HTTP request's id when the edge gives one (X-Request-Id)", async () => {
    const lines: { message: string; fields: Record<string, unknown> }[] = [];
    const at = (message: string, fields?: Record<string, unknown>) => lines.push({ message, fields: fields ?? {} });
    const engine = await Engine.open({ dataDir: '', maxQueryTokens: 1000, maxQueryDepth: 50, debug: false, log: { error: at, warn: at, info: at } });
    const request = {
      method: 'POST',
      query: '{ __typename }',
      headers: {},
      requestId: 'edge-42',
      get variables(): never {
        throw new Error('boom');
      },
    } as unknown as GraphQLRequest;
    const response = await engine.execute(request);
    await engine.close();
    expect(response.body).toBe('{"errors":[{"message":"Internal error (request edge-42)."}],"data":null}');
    expect(lines.map((line) => [line.message, line.fields['requestId']])).toEqual([['request failed', 'edge-42']]);
  });
});
