// Reading a compact JWS before and after its signature is checked, with the error texts of the Go
// library Dgraph uses (golang-jwt v5): `token is malformed: …`, `token has invalid claims: …`. The
// signature itself is checked by jose (token-verifier.ts); this module does what happens around it.

import { timingSafeEqual } from 'node:crypto';
import { goJsonKind, goJsonSyntaxError } from '../util/go-json-syntax.js';

/** Algorithms the Go library knows; any other `alg` is refused before a key is looked up. */
const knownAlgorithms = new Set(['HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'EdDSA', 'none']);

export interface UnverifiedToken {
  readonly alg: string;
  readonly kid: string | undefined;
  readonly claims: Readonly<Record<string, unknown>>;
  /** With a namespace (Dgraph's CustomClaims): the registered claims and the rule variables, decoded as Go decodes them. */
  readonly custom?: CustomClaims;
}

/** What Dgraph's CustomClaims.UnmarshalJSON makes of the claims: jwt.RegisteredClaims and the variables. */
export interface CustomClaims {
  /** In seconds since the epoch, truncated to the second as the library's NumericDate. */
  readonly exp: number | undefined;
  readonly nbf: number | undefined;
  readonly aud: readonly string[];
  readonly variables: Readonly<Record<string, unknown>>;
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

const base64Alphabet = /^[A-Za-z0-9_-]$/;

/** Go's base64.RawURLEncoding (not strict): CR and LF skipped, the first bad byte's offset in the error. */
function decodeSegment(segment: string): Parsed<Buffer> {
  let count = 0;
  let clean = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '\r' || c === '\n') continue;
    if (!base64Alphabet.test(c)) return fail(`illegal base64 data at input byte ${Buffer.byteLength(segment.slice(0, i))}`);
    clean += c;
    count++;
  }
  // One character alone cannot end a quantum.
  if (count % 4 === 1) return fail(`illegal base64 data at input byte ${Buffer.byteLength(segment) - 1}`);
  return { ok: true, value: Buffer.from(clean, 'base64url') };
}

const cannotUnmarshal = (value: unknown, goType: string): string => `json: cannot unmarshal ${goJsonKind(value)} into Go value of type ${goType}`;

/** json.Unmarshal into a Go map: the syntax first, then the value's kind (`null` leaves the map empty). */
function decodeObject(bytes: Uint8Array, goType: string): Parsed<Record<string, unknown>> {
  const syntax = goJsonSyntaxError(bytes);
  if (syntax !== undefined) return fail(syntax);
  const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
  if (value === null) return { ok: true, value: {} };
  if (goJsonKind(value) !== 'object') return fail(cannotUnmarshal(value, goType));
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * The segments as golang-jwt's ParseUnverified reads them, with its error texts. Claims are a
 * jwt.MapClaims (Dgraph's ACL tokens), or with `namespace` Dgraph's CustomClaims (`@auth` tokens).
 */
export function parseUnverified(token: string, namespace?: string): Parsed<UnverifiedToken> {
  const parts = token.split('.');
  if (parts.length !== 3) return fail('token is malformed: token contains an invalid number of segments');
  const headerBytes = decodeSegment(parts[0]!);
  if (!headerBytes.ok) return fail(`token is malformed: could not base64 decode header: ${headerBytes.message}`);
  const header = decodeObject(headerBytes.value, 'map[string]interface {}');
  if (!header.ok) return fail(`token is malformed: could not JSON decode header: ${header.message}`);
  const claimBytes = decodeSegment(parts[1]!);
  if (!claimBytes.ok) return fail(`token is malformed: could not base64 decode claim: ${claimBytes.message}`);
  const claims = decodeObject(claimBytes.value, namespace === undefined ? 'jwt.MapClaims' : 'jwt.RegisteredClaims');
  if (!claims.ok) return fail(`token is malformed: could not JSON decode claim: ${claims.message}`);
  let custom: CustomClaims | undefined;
  if (namespace !== undefined) {
    const decoded = customClaims(claims.value, namespace);
    if (!decoded.ok) return fail(`token is malformed: could not JSON decode claim: ${decoded.message}`);
    custom = decoded.value;
  }
  const { alg, kid } = header.value;
  if (typeof alg !== 'string') return fail('token is unverifiable: signing method (alg) is unspecified');
  if (!knownAlgorithms.has(alg)) return fail('token is unverifiable: signing method (alg) is unavailable');
  const signature = decodeSegment(parts[2]!);
  if (!signature.ok) return fail(`token is malformed: could not base64 decode signature: ${signature.message}`);
  const value = { alg, kid: typeof kid === 'string' ? kid : undefined, claims: claims.value };
  return { ok: true, value: custom === undefined ? value : { ...value, custom } };
}

const registeredNames = ['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti'] as const;
const validNumber = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Go's decoding of jwt.RegisteredClaims: keys match its fields case-insensitively (the last wins), a
 * wrong kind for a string field is reported after the walk, a NumericDate's or the audience's own
 * failure at once. Then the variables (every claim, the namespace's keys merged over them).
 */
function customClaims(claims: Readonly<Record<string, unknown>>, namespace: string): Parsed<CustomClaims> {
  const dates: { exp?: number; nbf?: number; iat?: number } = {};
  let aud: string[] = [];
  let saved: string | undefined;
  for (const [key, value] of Object.entries(claims)) {
    const name = registeredNames.find((n) => n === key.toLowerCase());
    if (name === undefined || value === null) continue;
    if (name === 'iss' || name === 'sub' || name === 'jti') {
      if (typeof value !== 'string') saved ??= `json: cannot unmarshal ${goJsonKind(value)} into Go struct field RegisteredClaims.${name} of type string`;
    } else if (name === 'aud') {
      if (typeof value === 'string') aud = [value];
      else if (Array.isArray(value) && value.every((a) => typeof a === 'string')) aud = value as string[];
      else return fail('invalid type for claim');
    } else {
      const seconds = numericDate(value);
      if (!seconds.ok) return seconds;
      dates[name] = seconds.value;
    }
  }
  if (saved !== undefined) return fail(saved);
  const variables = claimVariables(claims, namespace);
  if (!variables.ok) return variables;
  return { ok: true, value: { exp: dates.exp, nbf: dates.nbf, aud, variables: variables.value } };
}

/** jwt.NumericDate's UnmarshalJSON: a JSON number, or a string holding one (json.Number); whole seconds. */
function numericDate(value: unknown): Parsed<number> {
  if (typeof value === 'string') {
    if (!validNumber.test(value)) return fail(`could not parse NumericData: json: invalid number literal, trying to unmarshal ${JSON.stringify(JSON.stringify(value))} into Number`);
    return { ok: true, value: Math.floor(Number(value)) };
  }
  if (typeof value !== 'number') return fail(`could not parse NumericData: ${cannotUnmarshal(value, 'json.Number')}`);
  return { ok: true, value: Math.floor(value) };
}

/**
 * After the signature: `exp` (absent: never expires) and `nbf` with no leeway, `iat` unchecked, the
 * failures joined as the library joins them, then the audience as Dgraph checks it (a token without
 * `aud` passes even when the schema sets Audience). Returns the expiry in ms (Infinity without `exp`).
 */
export function checkClaims(claims: CustomClaims, audience: readonly string[], nowMs: number): Parsed<number> {
  const { exp, nbf } = claims;
  const problems: string[] = [];
  if (exp !== undefined && nowMs >= exp * 1000) problems.push('token is expired');
  if (nbf !== undefined && nowMs < nbf * 1000) problems.push('token is not valid yet');
  if (problems.length > 0) return fail(`unable to parse jwt token:token has invalid claims: ${problems.join(', ')}`);
  const auds = claims.aud.filter((a) => a !== '');
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
    const decoded = decodeObject(Buffer.from(inner, 'utf8'), 'map[string]interface {}');
    if (!decoded.ok) return decoded;
    own = decoded.value;
  }
  if (own !== null && typeof own === 'object' && !Array.isArray(own)) Object.assign(variables, own);
  return { ok: true, value: variables };
}
