// With ACL on, every /graphql query and mutation needs a valid access token (X-Dgraph-AccessToken,
// or this service's X-Service-AccessToken). Dgraph checks it where the GraphQL layer calls the store
// (edgraph's authorizeQuery / authorizeMutation), so its refusal reads as a failed execution;
// introspection still answers. A non-guardian's mutation needs WRITE on every predicate it writes
// (acl-writes.ts, checked by the executor per root field); what it may read is recorded for the
// executor (acl-read.ts).

import type { GraphQLSchema } from 'graphql';
import type { SchemaModel } from '../schema/model.js';
import { messages } from '../errors/messages.js';
import { rootKinds } from '../custom/remote-roots.js';
import { refuseExecution } from '../request/draining.js';
import type { RefusedResult } from '../request/no-schema.js';
import type { PreparedOperation } from '../request/prepare-request.js';
import { blockedWrites, noAccessJwt, unauthorizedToMutate, type Acl } from './acl.js';
import { setRequestWriteCheck, writtenPredicates, type WriteCheck } from './acl-writes.js';
import type { AclCaller, TokenCheck } from './acl-tokens.js';
import { GUARDIANS } from './acl-state.js';
import { aclReads, setRequestReads, type AclReads } from './acl-read.js';
import type { GraphQLRequest } from '../api.js';

/** The access token of a request (lower-cased header names). */
export function accessToken(headers: Readonly<Record<string, string>>): string | undefined {
  return headers['x-service-accesstoken'] ?? headers['x-dgraph-accesstoken'];
}

/** A gRPC status error's text, as Dgraph's GraphQL layer shows it. */
export const rpcError = (code: 'Unauthenticated' | 'PermissionDenied', message: string): string => `rpc error: code = ${code} desc = ${message}`;

/** Undefined when the request may run; else Dgraph's answer. A non-guardian's mutation gets its WRITE check, run per root field as it runs. */
export function gateGraphql(
  acl: Acl,
  prepared: PreparedOperation,
  schema: GraphQLSchema,
  model: SchemaModel | undefined,
  request: GraphQLRequest,
): RefusedResult | undefined | Promise<RefusedResult | undefined> {
  const check = acl.check(accessToken(request.headers));
  const decide = (result: TokenCheck): RefusedResult | undefined => {
    // Remote fields never reach the store, where Dgraph checks the token: alone they run; mixed with stored ones they
    // still answer and the stored ones fail (the executor asks `storedRootsRefusal`).
    if (!result.ok) {
      const roots = rootKinds(prepared.operation, model);
      if (roots === 'remote') return undefined;
      const reason = rpcError('Unauthenticated', result.message);
      if (roots === 'stored') return refuse(prepared, schema, reason);
      refusedStoredRoots.set(request, reason);
      return undefined;
    }
    if (isGuardian(result.caller)) return undefined;
    // Queries and mutation payloads read what the caller's groups may read (their rules as they are now).
    const reads = aclReads(acl.state, result.caller.groups);
    setRequestReads(request, reads);
    if (prepared.operation.operation === 'mutation') setRequestWriteCheck(request, writeCheck(acl, result.caller, reads));
    return undefined;
  };
  return check instanceof Promise ? check.then(decide) : decide(check);
}

const refusedStoredRoots = new WeakMap<GraphQLRequest, string>();

/** Why the stored root fields of a request mixing them with remote ones fail (a bad or missing token), or undefined. */
export function storedRootsRefusal(request: GraphQLRequest): string | undefined {
  return refusedStoredRoots.get(request);
}

/** edgraph.authorizeMutation of one root field: the predicates it writes (existence seen through `reads`) against the groups' WRITE rules as they are now. */
function writeCheck(acl: Acl, caller: AclCaller, reads: AclReads): WriteCheck {
  return (model, schema, field, variables, existing) => {
    const written = writtenPredicates(model, schema, field, variables, (type, input) => existing(type, input, reads));
    const blocked = written === undefined ? [] : blockedWrites(acl.state, caller.groups, written);
    return blocked.length > 0 ? rpcError('PermissionDenied', unauthorizedToMutate(blocked)) : undefined;
  };
}

/** A failed execution in Dgraph's words (as draining mode's answer). */
function refuse(prepared: PreparedOperation, schema: GraphQLSchema, reason: string): RefusedResult {
  return refuseExecution(prepared, schema, messages.failedQuery(reason), (field) => messages.failedMutation(field, reason));
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
