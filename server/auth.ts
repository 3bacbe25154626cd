// X-Auth-Token checks: the admin key opens everything, the client key opens /graphql only.
// Keys are compared as SHA-256 digests with timingSafeEqual, so neither content nor length leaks.

import { createHash, timingSafeEqual } from 'node:crypto';
import { refusals } from './responses.js';

export const authHeader = 'x-auth-token';

export interface AuthOptions {
  readonly adminKey: string | undefined;
  readonly clientKey: string | undefined;
  readonly anonymous: boolean;
}

export type Scope = 'admin' | 'graphql';

export class KeyChecker {
  readonly #admin: Buffer | undefined;
  readonly #client: Buffer | undefined;

  constructor(private readonly options: AuthOptions) {
    this.#admin = digestOf(options.adminKey);
    this.#client = digestOf(options.clientKey);
  }

  /** Throws a 401 HttpError unless `token` opens `scope`. */
  check(scope: Scope, token: string | undefined): void {
    const accepted = scope === 'admin' ? [this.#admin] : [this.#admin, this.#client];
    const keys = accepted.filter((key): key is Buffer => key !== undefined);
    if (keys.length === 0) return;
    if (scope === 'graphql' && this.options.anonymous) return;
    if (token === undefined || token === '') {
      throw refusals.missingKey();
    }
    const presented = digest(token);
    // Compare against every key (no early exit) so timing does not tell which one matched.
    let match = false;
    for (const key of keys) match = timingSafeEqual(presented, key) || match;
    if (!match) throw refusals.wrongKey();
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function digestOf(key: string | undefined): Buffer | undefined {
  return key === undefined ? undefined : digest(key);
}
