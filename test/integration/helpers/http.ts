// Small HTTP helpers over undici for the integration tests.

import { request } from 'undici';
import { expect } from 'vitest';

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
  readonly text: string;
  json(): unknown;
}

export interface Send {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS' | 'PATCH';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

/** One request; never decompresses, so gzip responses can be checked byte for byte. */
export async function send(url: string, options: Send = {}): Promise<Answer> {
  const response = await request(url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  const body = Buffer.from(await response.body.arrayBuffer());
  const text = body.toString('utf8');
  return { status: response.statusCode, headers: response.headers, body, text, json: () => JSON.parse(text) as unknown };
}

export const jsonHeaders = { 'content-type': 'application/json' } as const;
export const modernAccept = { accept: 'application/graphql-response+json' } as const;

/** POST a GraphQL request as application/json. */
export function postGraphql(baseUrl: string, payload: unknown, headers: Readonly<Record<string, string>> = {}, path = '/graphql'): Promise<Answer> {
  return send(`${baseUrl}${path}`, { method: 'POST', headers: { ...jsonHeaders, ...headers }, body: JSON.stringify(payload) });
}

export function header(answer: Answer, name: string): string | undefined {
  const value = answer.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Deploys a schema through `POST /admin/schema` (the raw file as the body) and returns the JSON answer. */
export async function uploadSchema(baseUrl: string, schema: string, headers: Readonly<Record<string, string>> = {}): Promise<unknown> {
  const answer = await send(`${baseUrl}/admin/schema`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', ...headers },
    body: schema,
  });
  return answer.json();
}

export const uploadSucceeded = { data: { code: 'Success', message: 'Done' } } as const;

/** POSTs a GraphQL request, expects HTTP 200 and returns the parsed body (data, errors, extensions). */
export async function askGraphql(baseUrl: string, query: string, variables?: Record<string, unknown>, extensions?: unknown): Promise<Record<string, unknown>> {
  const answer = await postGraphql(baseUrl, { query, variables, extensions });
  expect(answer.status).toBe(200);
  return answer.json() as Record<string, unknown>;
}

/**
 * askGraphql's body without `extensions`: a mutation's carries a fresh request id, so answers are
 * compared apart from it.
 */
export async function askWithoutExtensions<T = { data?: any; errors?: unknown[] }>(baseUrl: string, query: string, variables?: Record<string, unknown>): Promise<T> {
  const { extensions: _requestId, ...rest } = await askGraphql(baseUrl, query, variables);
  return rest as T;
}
