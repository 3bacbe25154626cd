// The state digest (/admin `state { digest }`): a 64-bit hash of the whole logical state, the state a
// snapshot holds: the schema, the store (store/store-digest.ts), the ACL's users and groups and the
// persisted queries. Facts are summed (util/fact-digest.ts), so neither the order they are visited in
// nor the path that built the state (live writes, log replay, snapshot + log) changes it. Computed on
// demand: a walk of the store (bench/README.md "State digest" has the cost at 100k and 1M nodes).

import type { CaptureState } from '../persist/persistence.js';
import { canonicalJson, digestStore } from '../store/store-digest.js';
import { FactDigest } from '../util/fact-digest.js';

// Tags of the facts kept here; store-digest.ts uses 1-5.
const T_SCHEMA = 101;
const T_ACL = 102;
const T_PERSISTED_QUERY = 103;

export function stateDigest(state: ReturnType<CaptureState>): string {
  const digest = new FactDigest();
  if (state.schema !== null) digest.begin(T_SCHEMA).str(state.schema).end();
  if (state.acl !== null) digest.begin(T_ACL).str(canonicalJson(state.acl)).end();
  for (const [sha256, query] of state.persistedQueries) digest.begin(T_PERSISTED_QUERY).str(sha256).str(query).end();
  digestStore(state.store, digest);
  return digest.hex();
}
