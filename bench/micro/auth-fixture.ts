// The schema and tokens the @auth micro-benchmarks share: a type `Ruled` with one graph-traversal rule
// (`owner eq $USER`) for an operation, and `Free`, the same fields without it; HS256 tokens carrying $USER.

import { SignJWT } from 'jose';
import { Engine } from '../../engine/index.js';

const secret = 'a-bench-secret-of-at-least-32-bytes!!';
const ns = 'https://example.com/claims';
const authorization = JSON.stringify({ VerificationKey: secret, Header: 'X-Auth', Namespace: ns, Algo: 'HS256' });

/** An in-memory engine holding `Ruled` (`fields` and the rule under `operation`) and `Free` (`fields` only). */
export async function ruledEngine(operation: 'query' | 'add', fields: string): Promise<Engine> {
  const engine = await Engine.open({ dataDir: '', maxQueryTokens: 50000, maxQueryDepth: 200, debug: false });
  const sdl = `type Ruled @auth(${operation}: { rule: """query($USER: String!) { queryRuled(filter: { owner: { eq: $USER } }) { __typename } }""" }) { ${fields} }
type Free { ${fields} }
# Dgraph.Authorization ${authorization}
`;
  const deployed = await engine.updateSchema(sdl);
  if (!deployed.ok) throw new Error(JSON.stringify(deployed.errors));
  return engine;
}

/** A token whose $USER is `user` (`nonce` makes each one a new token string). */
export function userToken(user: string, nonce = 0): Promise<string> {
  return new SignJWT({ [ns]: nonce === 0 ? { USER: user } : { USER: user, nonce } }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));
}
