// Claims as Dgraph's Go library checks them: boundaries of exp/nbf (no leeway), aud forms, variables.

import { describe, expect, it } from 'vitest';
import { checkClaims, claimVariables, parseUnverified, type CustomClaims } from '../../../engine/auth/parse-token.js';

const nowMs = 1_700_000_000_000;
const s = nowMs / 1000;
const registered = (c: Partial<CustomClaims>): CustomClaims => ({ exp: undefined, nbf: undefined, aud: [], variables: {}, ...c });

describe('checkClaims', () => {
  it('exp: expired from the second it names; absent never expires', () => {
    expect(checkClaims(registered({ exp: s }), [], nowMs)).toEqual({ ok: false, message: 'unable to parse jwt token:token has invalid claims: token is expired' });
    expect(checkClaims(registered({ exp: s + 1 }), [], nowMs)).toEqual({ ok: true, value: nowMs + 1000 });
    expect(checkClaims(registered({}), [], nowMs)).toEqual({ ok: true, value: Infinity });
  });

  it('nbf: valid from the second it names, no leeway; both problems are reported together, joined by ", " (golang-jwt v5.3.1)', () => {
    expect(checkClaims(registered({ nbf: s }), [], nowMs).ok).toBe(true);
    expect(checkClaims(registered({ nbf: s + 1 }), [], nowMs)).toEqual({ ok: false, message: 'unable to parse jwt token:token has invalid claims: token is not valid yet' });
    expect(checkClaims(registered({ exp: s - 1, nbf: s + 1 }), [], nowMs)).toEqual({ ok: false, message: 'unable to parse jwt token:token has invalid claims: token is expired, token is not valid yet' });
  });

  it('aud: a string or a list; none passes; a token with aud needs a configured Audience', () => {
    expect(checkClaims(registered({ aud: ['a'] }), ['a'], nowMs).ok).toBe(true);
    expect(checkClaims(registered({ aud: ['x', 'b'] }), ['a', 'b'], nowMs).ok).toBe(true);
    expect(checkClaims(registered({}), ['a'], nowMs).ok).toBe(true);
    expect(checkClaims(registered({ aud: ['x'] }), ['a'], nowMs)).toEqual({ ok: false, message: "JWT `aud` value doesn't match with the audience" });
    expect(checkClaims(registered({ aud: ['x'] }), [], nowMs)).toEqual({ ok: false, message: 'audience value was expected but not provided' });
  });
});

describe('claimVariables', () => {
  it('every claim, the namespace keys winning; the namespace as an object or a JSON string', () => {
    expect(claimVariables({ USER: 'top', ROLE: 'r', ns: { USER: 'inner' } }, 'ns')).toEqual({ ok: true, value: { USER: 'inner', ROLE: 'r' } });
    expect(claimVariables({ USER: 'top', ns: '{"USER":"inner"}' }, 'ns')).toEqual({ ok: true, value: { USER: 'inner' } });
    expect(claimVariables({ USER: 'top' }, 'ns')).toEqual({ ok: true, value: { USER: 'top' } });
  });
});

describe('parseUnverified', () => {
  const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
  it('refuses what the Go library refuses before a key is looked up', () => {
    expect(parseUnverified('a.b')).toEqual({ ok: false, message: 'token is malformed: token contains an invalid number of segments' });
    expect(parseUnverified(`${b64({ typ: 'JWT' })}.${b64({})}.`)).toEqual({ ok: false, message: 'token is unverifiable: signing method (alg) is unspecified' });
    expect(parseUnverified(`${b64({ alg: 'XS1' })}.${b64({})}.`)).toEqual({ ok: false, message: 'token is unverifiable: signing method (alg) is unavailable' });
    expect(parseUnverified(`${b64({ alg: 'none', kid: 'k' })}.${b64({ a: 1 })}.`)).toEqual({ ok: true, value: { alg: 'none', kid: 'k', claims: { a: 1 } } });
  });

  const token = (header: string, claims: string, signature = ''): string => `${Buffer.from(header).toString('base64url')}.${Buffer.from(claims).toString('base64url')}.${signature}`;
  const hs = JSON.stringify({ alg: 'HS256' });

  it('base64 failures name the first bad byte (Go RawURLEncoding)', () => {
    expect(parseUnverified('abc')).toEqual({ ok: false, message: 'token is malformed: token contains an invalid number of segments' });
    expect(parseUnverified('a.b.c.d')).toEqual({ ok: false, message: 'token is malformed: token contains an invalid number of segments' });
    expect(parseUnverified('a.b.c')).toEqual({ ok: false, message: 'token is malformed: could not base64 decode header: illegal base64 data at input byte 0' });
    expect(parseUnverified('eyJhbGc+.b.c')).toEqual({ ok: false, message: 'token is malformed: could not base64 decode header: illegal base64 data at input byte 7' });
    expect(parseUnverified('eyJhbGciOiJIUzI1NiJ9=.e30.')).toEqual({ ok: false, message: 'token is malformed: could not base64 decode header: illegal base64 data at input byte 20' });
    expect(parseUnverified(`${b64({ alg: 'HS256' })}.abcde.`)).toEqual({ ok: false, message: 'token is malformed: could not base64 decode claim: illegal base64 data at input byte 4' });
    expect(parseUnverified(`${b64({ alg: 'HS256' })}.${b64({})}.a$b`)).toEqual({ ok: false, message: 'token is malformed: could not base64 decode signature: illegal base64 data at input byte 1' });
  });

  it('JSON failures in Go\'s words: syntax, then the kind against the Go type', () => {
    expect(parseUnverified(token('not json', '{}'))).toEqual({ ok: false, message: "token is malformed: could not JSON decode header: invalid character 'o' in literal null (expecting 'u')" });
    expect(parseUnverified(token('[1]', '{}'))).toEqual({ ok: false, message: 'token is malformed: could not JSON decode header: json: cannot unmarshal array into Go value of type map[string]interface {}' });
    expect(parseUnverified(token('null', '{}'))).toEqual({ ok: false, message: 'token is unverifiable: signing method (alg) is unspecified' });
    expect(parseUnverified(token(hs, '{"a":'))).toEqual({ ok: false, message: 'token is malformed: could not JSON decode claim: unexpected end of JSON input' });
    // ACL tokens are jwt.MapClaims; @auth tokens Dgraph's CustomClaims, decoded first as jwt.RegisteredClaims.
    expect(parseUnverified(token(hs, '"x"'))).toEqual({ ok: false, message: 'token is malformed: could not JSON decode claim: json: cannot unmarshal string into Go value of type jwt.MapClaims' });
    expect(parseUnverified(token(hs, '[1]'), 'ns')).toEqual({ ok: false, message: 'token is malformed: could not JSON decode claim: json: cannot unmarshal array into Go value of type jwt.RegisteredClaims' });
  });

  it('@auth claims: registered claims as jwt.RegisteredClaims decodes them, the namespace string as a map', () => {
    const claimsOf = (claims: string): unknown => parseUnverified(token(hs, claims), 'ns');
    const malformed = (detail: string): unknown => ({ ok: false, message: `token is malformed: could not JSON decode claim: ${detail}` });
    expect(claimsOf('{"exp":"soon"}')).toEqual(malformed('could not parse NumericData: json: invalid number literal, trying to unmarshal "\\"soon\\"" into Number'));
    expect(claimsOf('{"nbf":true}')).toEqual(malformed('could not parse NumericData: json: cannot unmarshal bool into Go value of type json.Number'));
    expect(claimsOf('{"aud":5}')).toEqual(malformed('invalid type for claim'));
    expect(claimsOf('{"aud":["a",1]}')).toEqual(malformed('invalid type for claim'));
    expect(claimsOf('{"iss":5,"sub":true}')).toEqual(malformed('json: cannot unmarshal number into Go struct field RegisteredClaims.iss of type string'));
    expect(claimsOf('{"ns":"{not json"}')).toEqual(malformed("invalid character 'n' looking for beginning of object key string"));
    expect(claimsOf('{"ns":"[1]"}')).toEqual(malformed('json: cannot unmarshal array into Go value of type map[string]interface {}'));
    // A numeric string is a json.Number; keys match the fields case-insensitively; null is no date.
    const ok = parseUnverified(token(hs, '{"EXP":"1700000000.9","nbf":null,"aud":"a","ns":"{\\"USER\\":\\"u\\"}"}'), 'ns');
    expect(ok.ok && ok.value.custom).toEqual({ exp: 1_700_000_000, nbf: undefined, aud: ['a'], variables: { EXP: '1700000000.9', nbf: null, aud: 'a', USER: 'u' } });

  });
});
