// With ACL on, every /graphql query and mutation needs a valid access token (X-Dgraph-AccessToken,
// or this service's X-Service-AccessToken). Dgraph checks it where the GraphQL layer calls the store
// (edgraph's authorizeQuery / authorizeMutation), so its refusal reads as a failed execution;
// introspection still answers. Which predicates the caller may use is not checked yet.

import type { GraphQLSchema } from 'graphql';
import { messages } from '../errors/messages.js';
import { wireError } from '../errors/wire-error.js';
import { answerRootFields, locationOf, type RefusedResult } from '../request/no-schema.js';
import type { PreparedOperation } from '../request/prepare-request.js';
import { noAccessJwt, type Acl } from './acl.js';
import type { AclCaller, TokenCheck } from './acl-tokens.js';
import { GUARDIANS } from './acl-state.js';

/** The access token of a request (lower-cased header names). */
export function accessToken(headers: Readonly<Record<string, string>>): string | undefined {
  return headers['x-service-accesstoken'] ?? headers['x-dgraph-accesstoken'];
}

/** A gRPC status error's text, as Dgraph's GraphQL layer shows it. */
export const rpcError = (code: 'Unauthenticated' | 'PermissionDenied', message: string): string => `rpc error: code = ${code} desc = ${message}`;

/** Undefined when the request may run; else Dgraph's answer. */
export function gateGraphql(acl: Acl, prepared: PreparedOperation, schema: GraphQLSchema, headers: Readonly<Record<string, string>>): RefusedResult | undefined | Promise<RefusedResult | undefined> {
  const check = acl.check(accessToken(headers));
  const decide = (result: TokenCheck): RefusedResult | undefined => (result.ok ? undefined : refuse(prepared, schema, rpcError('Unauthenticated', result.message)));
  return check instanceof Promise ? check.then(decide) : decide(check);
}

/** As draining mode's answer (request/draining.ts): queries fail each; mutations stop at the first. */
function refuse(prepared: PreparedOperation, schema: GraphQLSchema, reason: string): RefusedResult {
  if (prepared.operation.operation !== 'mutation') {
    return answerRootFields(prepared, schema, (_field, name) => wireError(`Dgraph query failed because Dgraph execution failed because ${reason}`, undefined, [name]));
  }
  return answerRootFields(prepared, schema, (field, name, index) =>
    wireError(index === 0 ? `mutation ${field.name.value} failed because Dgraph execution failed because ${reason}` : messages.mutationNotExecuted(name), locationOf(field), [name]),
  );
}

export const isGuardian = (caller: AclCaller): boolean => caller.groups.includes(GUARDIANS);

/** edgraph.AuthorizeGuardians. */
export function guardianRefusal(result: TokenCheck): string | undefined {
  if (!result.ok) return rpcError(result.message === noAccessJwt ? 'PermissionDenied' : 'Unauthenticated', result.message);
  return isGuardian(result.caller) ? undefined : rpcError('PermissionDenied', notGuardian(result.caller));
}

/** edgraph.AuthSuperAdmin: the namespace is read from the token first, then the guardians check. */
export function superAdminRefusal(result: TokenCheck): string | undefined {
  const extracting = 'Authorize guardian of the galaxy, extracting jwt token, error:: extracting namespace from JWT';
  if (!result.ok && result.message === noAccessJwt) return `${extracting} ${noAccessJwt}`;
  if (!result.ok && result.message.startsWith('unable to parse jwt token')) return `${extracting}: ${result.message}`;
  if (!result.ok) return rpcError('Unauthenticated', `AuthSuperAdmin: failed to authorize guardians. ${result.message}`);
  if (result.caller.namespace !== 0) return rpcError('PermissionDenied', 'Only superadmin is allowed to do this operation');
  return isGuardian(result.caller) ? undefined : rpcError('PermissionDenied', `AuthSuperAdmin: failed to authorize guardians. ${notGuardian(result.caller)}`);
}

const notGuardian = (caller: AclCaller): string => `Only guardians are allowed access. User '${caller.userId}' is not a member of guardians group.`;
