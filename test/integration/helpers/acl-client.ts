// ACL test helpers: a GraphQL POST whose body is compared whole (status 200 checked, `extensions`
// dropped), and an `/admin` login returning the access JWT.

import { expect } from 'vitest';
import { postGraphql } from './http.js';

export type Body = { data?: Record<string, unknown> | null; errors?: unknown[]; extensions?: unknown };

export async function aclPost(url: string, path: string, query: string, headers: Record<string, string> = {}): Promise<Body> {
  const answer = await postGraphql(url, { query }, headers, path);
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as Body;
  delete body.extensions;
  return body;
}

export async function aclLogin(url: string, userId: string, password: string): Promise<string> {
  const body = await aclPost(url, '/admin', `mutation { login(userId: "${userId}", password: "${password}") { response { accessJWT } } }`);
  return (body.data as { login: { response: { accessJWT: string } } }).login.response.accessJWT;
}
