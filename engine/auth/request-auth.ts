// Per request: the token from the schema's header (`Bearer ` prefix accepted), verified once
// (token-verifier.ts, cached), and what Dgraph answers when it cannot be used. Rules read the claims
// from the outcome (auth/rule-eval.ts).

import { getNullableType, isListType, type GraphQLSchema } from 'graphql';
import { messages } from '../errors/messages.js';
import { shownOnlyInDebug, wireError, type WireError } from '../errors/wire-error.js';
import { answerRootFields, locationOf, type RefusedResult } from '../request/no-schema.js';
import type { PreparedOperation } from '../request/prepare-request.js';
import type { AuthClaims, TokenVerifier } from './token-verifier.js';

export type AuthOutcome =
  /** No token (and not ClosedByDefault): the anonymous view. */
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'claims'; readonly claims: AuthClaims }
  /** Every query and mutation field fails with this text (invalid token, or ClosedByDefault without one). */
  | { readonly kind: 'refused'; readonly message: string }
  /** The whole request fails, with no `data` (a malformed `Bearer` value). */
  | { readonly kind: 'request-error'; readonly error: WireError };

const anonymous: AuthOutcome = { kind: 'anonymous' };
const missingToken: AuthOutcome = { kind: 'refused', message: 'a valid JWT is required but was not provided' };

export function authenticate(verifier: TokenVerifier, headers: Readonly<Record<string, string>>): AuthOutcome | Promise<AuthOutcome> {
  const value = headers[verifier.config.header];
  if (value === undefined || value === '') return verifier.config.closedByDefault ? missingToken : anonymous;
  let token = value;
  if (value.charCodeAt(6) === 32 && /^bearer /i.test(value)) {
    if (value.indexOf(' ', 7) >= 0) return { kind: 'request-error', error: wireError(`invalid Bearer-formatted header value for JWT (${value})`) };
    token = value.slice(7); // `Bearer ` alone leaves '' to verify: malformed, as in Dgraph
  }
  const verified = verifier.verify(token, value);
  return verified instanceof Promise ? verified.then(outcomeOf) : outcomeOf(verified);
}

function outcomeOf(verified: Awaited<ReturnType<TokenVerifier['verify']>>): AuthOutcome {
  return verified.ok ? { kind: 'claims', claims: verified.claims } : { kind: 'refused', message: verified.message };
}

/**
 * Dgraph's answer when claims cannot be read: each query field fails its rewrite (`[]` for lists, else
 * null); mutations run one after another, so the first fails and the rest are not executed. An update
 * or delete fails its rewrite; an add reads the claims only to check its new nodes, after its writes
 * (rolled back), so it fails as an add refused by its rules, said in debug mode only (`isAdd`: whether a
 * mutation field is an add<T>). Introspection still answers.
 */
export function refuseForAuth(prepared: PreparedOperation, schema: GraphQLSchema, message: string, isAdd: (fieldName: string) => boolean, debug: boolean): RefusedResult {
  const mutation = prepared.operation.operation === 'mutation';
  const answered = answerRootFields(prepared, schema, (field, name, index) => {
    if (!mutation) return wireError(`couldn't rewrite query ${name} because ${message}`, undefined, [name]);
    if (index > 0) return wireError(messages.mutationNotExecuted(name), locationOf(field), [name]);
    if (!isAdd(field.name.value)) return wireError(`couldn't rewrite mutation ${field.name.value} because ${message}`, undefined, [name]);
    return wireError(`mutation failed because authorization failed because ${message}`, undefined, [name]);
  });
  const errors = answered.errors?.filter((e) => debug || !shownOnlyInDebug(e)) ?? [];
  const result: RefusedResult = errors.length > 0 ? { errors, data: answered.data } : { data: answered.data };
  const root = mutation ? schema.getMutationType() : schema.getQueryType();
  for (const selection of prepared.operation.selectionSet.selections) {
    if (selection.kind !== 'Field' || result.data[selection.alias?.value ?? selection.name.value] !== null) continue;
    const type = root?.getFields()[selection.name.value]?.type;
    if (type !== undefined && isListType(getNullableType(type))) result.data[selection.alias?.value ?? selection.name.value] = [];
  }
  return result;
}
