// Reading a compact JWS before and after its signature is checked, with the error texts of the Go
// library Dgraph uses (golang-jwt v5): `token is malformed: …`, `token has invalid claims: …`. The
// signature itself is checked by jose (token-verifier.ts); this module does what happens around it.

import { timingSafeEqual } from 'node:crypto';

/** Algorithms the Go library knows; any other `alg` is refused before a key is looked up. */
const knownAlgorithms = new Set(['HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'EdDSA', 'none']);

export interface UnverifiedToken {
  readonly alg: string;
  readonly kid: string | undefined;
  readonly claims: Readonly<Record<string, unknown>>;
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

function decodeJson(segment: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) throw new SyntaxError('illegal base64 data');
  return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
}

/** A segment holding a JSON object (`what` names it in the error, as Go's library does). */
function decodeObject(segment: string, what: 'header' | 'claim'): Parsed<Record<string, unknown>> {
  let value: unknown;
  try {
    value = decodeJson(segment);
  } catch (e) {
    return fail(`token is malformed: could not JSON decode ${what}: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail(`token is malformed: could not JSON decode ${what}`);
  return { ok: true, value: value as Record<string, unknown> };
}

export function parseUnverified(token: string): Parsed<UnverifiedToken> {
  const parts = token.split('.');
  if (parts.length !== 3) return fail('token is malformed: token contains an invalid number of segments');
  const header = decodeObject(parts[0]!, 'header');
  if (!header.ok) return header;
  const claims = decodeObject(parts[1]!, 'claim');
  if (!claims.ok) return claims;
  const { alg, kid } = header.value;
  if (typeof alg !== 'string') return fail('token is unverifiable: signing method (alg) is unspecified');
  if (!knownAlgorithms.has(alg)) return fail('token is unverifiable: signing method (alg) is unavailable');
  if (!/^[A-Za-z0-9_-]*$/.test(parts[2]!)) return fail('token is malformed: could not base64 decode signature');
  return { ok: true, value: { alg, kid: typeof kid === 'string' ? kid : undefined, claims: claims.value } };
}

/** Seconds since the epoch, or undefined when absent; NaN when present but not a number (malformed). */
function numericDate(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'number' ? v : NaN;
}

/**
 * After the signature: `exp` (absent: never expires) and `nbf` with no leeway, `iat` unchecked, then the
 * audience as Dgraph checks it (a token without `aud` passes even when the schema sets Audience).
 * Returns the expiry in ms (Infinity without `exp`) or the error text.
 */
export function checkClaims(claims: Readonly<Record<string, unknown>>, audience: readonly string[], nowMs: number): Parsed<number> {
  const exp = numericDate(claims['exp']);
  const nbf = numericDate(claims['nbf']);
  const aud = claims['aud'];
  if (Number.isNaN(exp) || Number.isNaN(nbf) || (aud !== undefined && typeof aud !== 'string' && !(Array.isArray(aud) && aud.every((a) => typeof a === 'string')))) {
    return fail('unable to parse jwt token:token is malformed: could not JSON decode claim');
  }
  const problems: string[] = [];
  if (exp !== undefined && nowMs >= exp * 1000) problems.push('token is expired');
  if (nbf !== undefined && nowMs < nbf * 1000) problems.push('token is not valid yet');
  if (problems.length > 0) return fail(`unable to parse jwt token:token has invalid claims: ${problems.join('\n')}`);
  const auds = aud === undefined ? [] : typeof aud === 'string' ? (aud === '' ? [] : [aud]) : (aud as string[]);
  if (auds.length > 0) {
    if (audience.length === 0) return fail('audience value was expected but not provided');
    if (!auds.some((a) => audience.some((want) => constantTimeEqual(a, want)))) return fail('JWT `aud` value doesn\'t match with the audience');
  }
  return { ok: true, value: exp === undefined ? Infinity : exp * 1000 };
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The rule variables: every claim, with the namespace claim (an object, or an object encoded as a JSON
 * string) replaced by its keys, which win over top-level claims of the same name.
 */
export function claimVariables(claims: Readonly<Record<string, unknown>>, namespace: string): Parsed<Readonly<Record<string, unknown>>> {
  const variables: Record<string, unknown> = { ...claims };
  const inner = claims[namespace];
  delete variables[namespace];
  let own: unknown = inner;
  if (typeof inner === 'string') {
    try {
      own = JSON.parse(inner);
    } catch (e) {
      return fail(`unable to parse jwt token:token is malformed: could not JSON decode claim: ${(e as Error).message}`);
    }
  }
  if (own !== null && typeof own === 'object' && !Array.isArray(own)) Object.assign(variables, own);
  return { ok: true, value: variables };
}
