// ACL tokens as Dgraph issues and checks them (edgraph/access.go, x/jwt_helper.go): HS256 over the
// secret file's bytes, signed and verified by jose. Access claims {exp, groups, namespace, userid}
// (the groups are fixed at login), refresh claims {exp, namespace, userid}. Error texts are those of
// Dgraph's golang-jwt wrapping; the malformed-token texts come from auth/parse-token.ts.

import { createSecretKey, type KeyObject } from 'node:crypto';
import { compactVerify, SignJWT } from 'jose';
import { parseUnverified } from '../auth/parse-token.js';
import { LruCache } from '../request/document-cache.js';
import { GUARDIANS } from './acl-state.js';

/** Who a verified token speaks for. */
export interface AclCaller {
  readonly userId: string;
  readonly groups: readonly string[];
  readonly namespace: number;
  /** The access token's `exp`, ms since the epoch (live subscriptions end then). */
  readonly expiresAt?: number;
}

export type TokenCheck = { readonly ok: true; readonly caller: AclCaller } | { readonly ok: false; readonly message: string };

export interface AclTokenOptions {
  /** The secret file's bytes (at least 32: HS256 needs a 256-bit key). */
  readonly secret: Uint8Array;
  readonly accessTtlMs: number;
  readonly refreshTtlMs: number;
}

const alg = 'HS256';
const prefix = 'unable to parse jwt token: ';
/** Verified tokens kept so that a repeated one is a map lookup (the expiry is still checked each time). */
const cacheSize = 10_000;

export class AclTokens {
  readonly #key: KeyObject;
  readonly #cache = new LruCache<{ caller: AclCaller; expMs: number }>(cacheSize);

  constructor(private readonly options: AclTokenOptions) {
    this.#key = createSecretKey(Uint8Array.from(options.secret));
  }

  /** Dgraph's claims are a Go map, so its JSON has them in key order. */
  access(caller: AclCaller, nowMs = Date.now()): Promise<string> {
    const exp = Math.floor((nowMs + this.options.accessTtlMs) / 1000);
    return this.#sign({ exp, groups: caller.groups, namespace: caller.namespace, userid: caller.userId });
  }

  refresh(caller: AclCaller, nowMs = Date.now()): Promise<string> {
    const exp = Math.floor((nowMs + this.options.refreshTtlMs) / 1000);
    return this.#sign({ exp, namespace: caller.namespace, userid: caller.userId });
  }

  #sign(claims: Record<string, unknown>): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(this.#key);
  }

  /** Dgraph's validateToken; synchronous for a token seen before. */
  verify(token: string, nowMs = Date.now()): TokenCheck | Promise<TokenCheck> {
    const cached = this.#cache.get(token);
    if (cached !== undefined) return nowMs >= cached.expMs ? expired : { ok: true, caller: cached.caller };
    return this.#verify(token, nowMs);
  }

  async #verify(token: string, nowMs: number): Promise<TokenCheck> {
    const parsed = parseUnverified(token);
    if (!parsed.ok) return { ok: false, message: prefix + parsed.message };
    const { claims } = parsed.value;
    // x.ParseJWT's keyfunc pins the configured algorithm.
    if (parsed.value.alg !== alg) return { ok: false, message: `${prefix}token is unverifiable: error while executing keyfunc: unexpected signing method in token: ${parsed.value.alg}` };
    try {
      await compactVerify(token, this.#key, { algorithms: [alg] });
    } catch {
      return { ok: false, message: `${prefix}token signature is invalid: signature is invalid` };
    }
    const { userid, namespace, groups } = claims;
    const exp = mapDate(claims, 'exp');
    const nbf = mapDate(claims, 'nbf');
    // The library's validator: each failure, joined; an expired token is reworded by x.ParseJWT alone.
    if (typeof exp === 'number' && nowMs >= exp * 1000) return { ok: false, message: `${prefix}token has invalid claims: Token is expired` };
    const problems: string[] = [];
    if (exp === invalid) problems.push('invalid type for claim: exp is invalid');
    if (nbf === invalid) problems.push('invalid type for claim: nbf is invalid');
    else if (nbf !== undefined && nowMs < nbf * 1000) problems.push('token is not valid yet');
    if (problems.length > 0) return { ok: false, message: `${prefix}token has invalid claims: ${problems.join(', ')}` };
    // validateToken: a token without exp never expires in the library, but Dgraph refuses it.
    if (exp === undefined || exp === invalid) return { ok: false, message: 'Token is expired' };
    if (typeof userid !== 'string') return { ok: false, message: 'userid in claims is not a string:' };
    if (typeof namespace !== 'number') return { ok: false, message: 'namespace in claims is not valid:0' };
    const names: string[] = [];
    if (Array.isArray(groups)) {
      for (const group of groups as unknown[]) {
        if (typeof group !== 'string') return { ok: false, message: `unable to convert group to string:${JSON.stringify(group)}` };
        names.push(group);
      }
    }
    const caller: AclCaller = { userId: userid, groups: names, namespace, expiresAt: exp * 1000 };
    this.#cache.set(token, { caller, expMs: exp * 1000 });
    return { ok: true, caller };
  }
}

/**
 * A guardian's access token for one cluster node to call another's guarded /admin route (`--cluster-seed`).
 * Sound because the nodes share the secret, which already mints any token; `userid` names the purpose
 * (the peer logs it), and it lives `ttlMs` only.
 */
export function clusterGuardianToken(secret: Uint8Array, purpose: string, ttlMs: number): Promise<string> {
  return new AclTokens({ secret, accessTtlMs: ttlMs, refreshTtlMs: ttlMs }).access({ userId: purpose, groups: [GUARDIANS], namespace: 0 });
}

const invalid = Symbol('invalid');

/** MapClaims.parseNumericDate: a JSON number in whole seconds; absent or 0 is no date, anything else invalid. */
function mapDate(claims: Readonly<Record<string, unknown>>, key: 'exp' | 'nbf'): number | undefined | typeof invalid {
  if (!(key in claims)) return undefined;
  const value = claims[key];
  if (typeof value !== 'number') return invalid;
  return value === 0 ? undefined : Math.floor(value);
}

const expired: TokenCheck = { ok: false, message: `${prefix}token has invalid claims: Token is expired` };
