// The ACL flags (server/config.ts): --acl-secret-file turns ACL on; the token lifetimes are Go
// durations with days, as Dgraph's `--acl` superflag reads them (defaults 6h and 30d).

import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.js';

function acl(argv: string[], env: Record<string, string> = {}): unknown {
  const loaded = loadConfig(argv, env, '/srv');
  return loaded.kind === 'config' ? loaded.config.acl : loaded;
}

describe('ACL flags', () => {
  it('off without a secret file; Dgraph\'s lifetimes by default', () => {
    expect(acl([])).toBeUndefined();
    expect(acl(['--acl-secret-file', 'hmac'])).toEqual({ secretFile: '/srv/hmac', accessTtlMs: 6 * 3_600_000, refreshTtlMs: 30 * 86_400_000 });
  });

  it('lifetimes from flags or environment, in Go duration syntax with days', () => {
    expect(acl(['--acl-secret-file', '/k', '--acl-access-ttl', '1h30m', '--acl-refresh-ttl', '2d12h'])).toEqual({ secretFile: '/k', accessTtlMs: 5_400_000, refreshTtlMs: 216_000_000 });
    expect(acl([], { SERVICE_ACL_SECRET_FILE: '/k', SERVICE_ACL_ACCESS_TTL: '90s' })).toEqual({ secretFile: '/k', accessTtlMs: 90_000, refreshTtlMs: 30 * 86_400_000 });
  });

  it('refuses what is not a duration of at least a second', () => {
    expect(acl(['--acl-secret-file', '/k', '--acl-refresh-ttl', '500ms'])).toEqual({ kind: 'error', message: '--acl-refresh-ttl must be a duration of at least 1s such as 30m, 6h or 30d, got "500ms"' });
    expect(acl(['--acl-access-ttl', '6 hours'])).toEqual({ kind: 'error', message: '--acl-access-ttl must be a duration of at least 1s such as 30m, 6h or 30d, got "6 hours"' });
  });
});
