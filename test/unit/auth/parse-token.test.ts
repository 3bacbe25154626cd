// Claims as Dgraph's Go library checks them: boundaries of exp/nbf (no leeway), aud forms, variables.

import { describe, expect, it } from 'vitest';
import { checkClaims, claimVariables, parseUnverified } from '../../../engine/auth/parse-token.js';

const nowMs = 1_700_000_000_000;
const s = nowMs / 1000;

describe('checkClaims', () => {
  it('exp: expired from the second it names; absent never expires', () => {
    expect(checkClaims({ exp: s }, [], nowMs)).toEqual({ ok: false, message: 'unable to parse jwt token:token has invalid claims: token is expired' });
    expect(checkClaims({ exp: s + 1 }, [], nowMs)).toEqual({ ok: true, value: nowMs + 1000 });
    expect(checkClaims({}, [], nowMs)).toEqual({ ok: true, value: Infinity });
  });

  it('nbf: valid from the second it names, no leeway; both problems are reported together', () => {
    expect(checkClaims({ nbf: s }, [], nowMs).ok).toBe(true);
    expect(checkClaims({ nbf: s + 1 }, [], nowMs)).toEqual({ ok: false, message: 'unable to parse jwt token:token has invalid claims: token is not valid yet' });
    expect(checkClaims({ exp: s - 1, nbf: s + 1 }, [], nowMs)).toEqual({ ok: false, message: 'unable to parse jwt token:token has invalid claims: token is expired\ntoken is not valid yet' });
  });

  it('aud: a string or a list; none passes; a token with aud needs a configured Audience', () => {
    expect(checkClaims({ aud: 'a' }, ['a'], nowMs).ok).toBe(true);
    expect(checkClaims({ aud: ['x', 'b'] }, ['a', 'b'], nowMs).ok).toBe(true);
    expect(checkClaims({}, ['a'], nowMs).ok).toBe(true);
    expect(checkClaims({ aud: 'x' }, ['a'], nowMs)).toEqual({ ok: false, message: "JWT `aud` value doesn't match with the audience" });
    expect(checkClaims({ aud: 'x' }, [], nowMs)).toEqual({ ok: false, message: 'audience value was expected but not provided' });
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
});
