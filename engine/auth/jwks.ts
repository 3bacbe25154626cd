// One JWKS URL: fetched at schema upload (bounded: a slow or unreachable URL fails the upload), then
// refreshed in the background. Dgraph refetches on the request path (3 tries, 10 s apart) once the
// response's max-age has passed and never on an unknown `kid`; here a request never waits for a refresh
// it did not need: known keys answer synchronously while a refresh runs; an expired max-age starts one
// in the background (the old keys keep serving); an unknown `kid` starts one at most once per
// `minRefreshMs`, and only the request carrying that `kid` waits for it (bounded by the fetch timeout).

import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';

export interface JwksOptions {
  readonly timeoutMs: number;
  readonly minRefreshMs: number;
  readonly maxBytes: number;
}

export const defaultJwksOptions: JwksOptions = { timeoutMs: 10_000, minRefreshMs: 30_000, maxBytes: 1 << 20 };

export interface JwkKey {
  readonly key: KeyObject;
  /** The algorithms a token signed with this key may name (from the JWK's `alg`, else its key type). */
  readonly algorithms: readonly string[];
}

function algorithmsOf(jwk: Record<string, unknown>, key: KeyObject): string[] {
  if (typeof jwk['alg'] === 'string') return [jwk['alg']];
  if (key.asymmetricKeyType === 'rsa') return ['RS256', 'RS384', 'RS512'];
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return curve === 'prime256v1' ? ['ES256'] : curve === 'secp384r1' ? ['ES384'] : curve === 'secp521r1' ? ['ES512'] : [];
  }
  return [];
}

/** Parses a JWKS body; keys it cannot use (private, symmetric, malformed) are skipped, as are repeated kids. */
export function parseJwks(text: string): Map<string, JwkKey> {
  const body = JSON.parse(text) as unknown;
  const keys = body !== null && typeof body === 'object' ? (body as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(keys)) throw new Error('JWKS has no keys array');
  const byKid = new Map<string, JwkKey>();
  for (const jwk of keys as unknown[]) {
    if (jwk === null || typeof jwk !== 'object') continue;
    const record = jwk as Record<string, unknown>;
    const kid = record['kid'];
    if (typeof kid !== 'string' || byKid.has(kid) || record['d'] !== undefined) continue;
    try {
      const key = createPublicKey({ key: record as JsonWebKey, format: 'jwk' });
      byKid.set(kid, { key, algorithms: algorithmsOf(record, key) });
    } catch {
      // not a public key node can read: unusable, like a key of an unknown type
    }
  }
  return byKid;
}

/** `max-age` of a Cache-Control value in ms, or undefined. */
function maxAgeMs(cacheControl: string | null): number | undefined {
  const m = cacheControl === null ? null : /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(cacheControl);
  return m === null ? undefined : Number(m[1]) * 1000;
}

export class JwksSource {
  #keys = new Map<string, JwkKey>();
  #expiresAt = Infinity;
  #lastFetch = 0;
  #pending: Promise<void> | undefined;

  constructor(
    readonly url: string,
    private readonly options: JwksOptions,
  ) {}

  /** Fetches once; rejects on a network failure, a timeout, a non-2xx answer or a body that is no JWKS. */
  async load(): Promise<void> {
    this.#lastFetch = Date.now();
    const response = await fetch(this.url, { signal: AbortSignal.timeout(this.options.timeoutMs), redirect: 'follow' });
    if (!response.ok) throw new Error(`unexpected status ${response.status} from ${this.url}`);
    const text = await response.text();
    if (text.length > this.options.maxBytes) throw new Error(`JWKS from ${this.url} is larger than ${this.options.maxBytes} bytes`);
    this.#keys = parseJwks(text);
    const maxAge = maxAgeMs(response.headers.get('cache-control'));
    this.#expiresAt = maxAge === undefined || maxAge === 0 ? Infinity : Date.now() + maxAge;
  }

  /** The key for `kid` now, refreshing in the background when max-age has passed. */
  key(kid: string): JwkKey | undefined {
    if (Date.now() >= this.#expiresAt) void this.refresh();
    return this.#keys.get(kid);
  }

  /** For an unknown `kid`: one refresh per minRefreshMs, shared by every caller that asks meanwhile. */
  refreshForUnknownKid(): Promise<void> | undefined {
    if (this.#pending !== undefined) return this.#pending;
    if (Date.now() - this.#lastFetch < this.options.minRefreshMs) return undefined;
    return this.refresh();
  }

  refresh(): Promise<void> {
    this.#pending ??= this.load()
      .catch(() => {
        // a failed refresh keeps the keys it had; after an expired max-age, try again only later
        if (this.#expiresAt !== Infinity) this.#expiresAt = Date.now() + this.options.minRefreshMs;
      })
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }
}
