// Dgraph's auth e2e schema (dgraph-testdata/e2e/auth/schema.graphql) with an HS256 Authorization line,
// the tokens its rules read, and the same schema without its `@auth` rules (to load test data that the
// rules' `add` checks would refuse, before the ruled schema is deployed over it).

import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { postGraphql } from './http.js';

export const ns = 'https://xyz.io/jwt/claims';
const secret = 'secretkey-of-at-least-32-bytes-for-hs256';
export const authHeader = 'x-test-auth';
const authLine = (extra: Record<string, unknown> = {}): string =>
  `# Dgraph.Authorization ${JSON.stringify({ VerificationKey: secret, Header: 'X-Test-Auth', Namespace: ns, Algo: 'HS256', ...extra })}`;

const e2eSdl = readFileSync('../shared/dgraph-testdata/e2e/auth/schema.graphql', 'utf8');

/** The e2e auth schema with the Authorization line. */
export const e2eAuthSchema = `${e2eSdl}\n${authLine()}\n`;

/** The same with `ClosedByDefault`: every request needs a token. */
export const e2eClosedSchema = `${e2eSdl}\n${authLine({ ClosedByDefault: true })}\n`;

/** The same types with every `@auth(...)` removed (rule texts have balanced parentheses). */
export const e2eSchemaWithoutRules = `${withoutAuthDirectives(e2eSdl)}\n${authLine()}\n`;

function withoutAuthDirectives(sdl: string): string {
  let out = '';
  let i = 0;
  for (let at = sdl.indexOf('@auth', i); at >= 0; at = sdl.indexOf('@auth', i)) {
    out += sdl.slice(i, at);
    let j = sdl.indexOf('(', at);
    let depth = 0;
    for (; j < sdl.length; j++) {
      if (sdl[j] === '(') depth++;
      else if (sdl[j] === ')' && --depth === 0) break;
    }
    i = j + 1;
  }
  return out + sdl.slice(i);
}

export function token(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT({ [ns]: claims }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));
}

/** The request headers carrying a token with these claims (none: no token). */
export async function tokenHeaders(claims?: Record<string, unknown>): Promise<Record<string, string>> {
  return claims === undefined ? {} : { [authHeader]: await token(claims) };
}

/** A GraphQL request under a token with these claims (none: no token): the body without `extensions`. */
export async function askAs(baseUrl: string, query: string, claims?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await postGraphql(baseUrl, { query }, await tokenHeaders(claims));
  if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
  const body = (await answer.json()) as Record<string, unknown>;
  delete body['extensions'];
  return body;
}
