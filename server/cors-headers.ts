// CORS headers, as Dgraph sends them: every path gets `*` and the fixed list (x.AddCorsHeaders);
// /graphql answers follow the deployed schema (addDynamicHeaders): with `# Service.Allow-Origin`
// lines only a listed Origin is echoed back (else no Allow-Origin at all), and the headers the
// schema reads (forwarded @custom headers, the JWT header) are appended to Allow-Headers.

import type { CorsPolicy } from '../engine/index.js';

/** Dgraph's list (x.AccessControlAllowedHeaders), plus our name of the ACL token header. */
const allowedHeaders =
  'X-Dgraph-AccessToken, X-Dgraph-AuthToken, Content-Type, Content-Length, Accept-Encoding, Cache-Control, X-CSRF-Token, X-Auth-Token, X-Requested-With, X-Service-AccessToken';

export type HeaderSet = Readonly<Record<string, string>>;

function corsSet(origin: string | undefined, headers: string, varyOrigin: boolean): HeaderSet {
  return {
    ...(origin === undefined ? {} : { 'Access-Control-Allow-Origin': origin }),
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Allow-Headers': headers,
    'Access-Control-Allow-Credentials': 'true',
    // The answer depends on the Origin: caches must keep one copy per origin.
    ...(varyOrigin ? { Vary: 'Origin' } : {}),
  };
}

export const staticCorsHeaders: HeaderSet = corsSet('*', allowedHeaders, false);

interface PolicyHeaders {
  /** No Allow-Origin list: `*`. */
  readonly open: HeaderSet | undefined;
  /** One set per listed origin (a finite list, from the schema). */
  readonly granted: ReadonlyMap<string, HeaderSet>;
  /** An Origin not on the list, or none: no Allow-Origin header. */
  readonly refused: HeaderSet;
}

/** Origins are echoed as header values: one holding a line break or non-ASCII is never granted. */
const headerSafe = /^[\t\x20-\x7e]*$/;

const byPolicy = new WeakMap<CorsPolicy, PolicyHeaders>();

function policyHeaders(policy: CorsPolicy): PolicyHeaders {
  let cached = byPolicy.get(policy);
  if (cached !== undefined) return cached;
  const extra = policy.extraAllowedHeaders.filter((name) => headerSafe.test(name));
  // Dgraph joins the extras with a bare comma.
  const headers = [allowedHeaders, ...extra].join(',');
  const granted = new Map<string, HeaderSet>();
  for (const origin of policy.allowedOrigins) if (headerSafe.test(origin)) granted.set(origin, corsSet(origin, headers, true));
  cached = {
    open: policy.allowedOrigins.size === 0 ? corsSet('*', headers, false) : undefined,
    granted,
    refused: corsSet(undefined, headers, true),
  };
  byPolicy.set(policy, cached);
  return cached;
}

/** The CORS headers of a /graphql answer for a request from `origin` (the Origin header). */
export function graphqlCorsHeaders(policy: CorsPolicy, origin: string | undefined): HeaderSet {
  const sets = policyHeaders(policy);
  if (sets.open !== undefined) return sets.open;
  return (origin === undefined ? undefined : sets.granted.get(origin)) ?? sets.refused;
}
