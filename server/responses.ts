// The one module that decides HTTP status codes and the shape of error bodies, and the one catch-all
// for unexpected failures (logged here, answered as a 500 with a request id).
//
// Two audiences: clients that accept only `application/json` (or send no Accept: Dgraph's clients) get 200
// for every GraphQL error; clients that accept `application/graphql-response+json` get the status codes of
// the GraphQL-over-HTTP spec. Transport failures (bad body, 401, 405, 413, 415) are 4xx for both.

import type { EngineResponse, HealthInfo, Probe, ResponseKind, SnapshotResult } from '../engine/index.js';
import { HttpError, httpMessages } from './http-error.js';
import type { Reply } from './http-types.js';
import type { Logger } from './log.js';
import { contentTypeFor, type ResponseMode } from './negotiate.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const json = 'application/json';
const plainText = 'text/plain; charset=utf-8';

/** `{"errors":[{"message":...,"extensions":{"code":...}}]}` */
function errorBody(message: string, code?: string): string {
  return JSON.stringify({ errors: [code === undefined ? { message } : { message, extensions: { code } }] });
}

/** Refusals thrown before (or instead of) the engine: each with its status. */
export const refusals = {
  notValidBody: (detail: string) => new HttpError(400, httpMessages.notValidBody(detail)),
  couldNotRead: (detail: string) => new HttpError(400, httpMessages.couldNotRead(detail)),
  badGzip: (detail: string) => new HttpError(400, httpMessages.badGzip(detail)),
  conflictingLengths: (values: string) => new HttpError(400, httpMessages.conflictingLengths(values)),
  invalidMethod: () => new HttpError(400, httpMessages.invalidMethod, 'ErrorInvalidMethod'),
  missingKey: () => new HttpError(401, httpMessages.missingKey, 'ErrorUnauthorized'),
  wrongKey: () => new HttpError(401, httpMessages.wrongKey, 'ErrorUnauthorized'),
  /** With ACL on, a route only a guardian may use (Engine.guardianRefusal's text). */
  notGuardian: (reason: string) => new HttpError(403, reason, 'ErrorUnauthorized'),
  notFound: (path: string) => new HttpError(404, httpMessages.notFound(path)),
  noSnapshot: () => new HttpError(404, 'this node has no snapshot yet: POST /admin/snapshot writes one'),
  badMethod: () => new HttpError(405, httpMessages.badMethod, undefined, { Allow: 'GET, POST, OPTIONS' }),
  tooLarge: (limit: number) => new HttpError(413, httpMessages.tooLarge(limit)),
  tooLargeDecompressed: (limit: number) => new HttpError(413, httpMessages.tooLargeDecompressed(limit)),
  unsupportedMediaType: () => new HttpError(415, httpMessages.unsupportedMediaType),
  unsupportedEncoding: (encoding: string) => new HttpError(415, httpMessages.unsupportedEncoding(encoding)),
} as const;

/** HTTP status for an engine answer; `malformedVariables` (variables not an object) is 400 for everyone. */
export function statusFor(kind: ResponseKind, mode: ResponseMode, malformedVariables = false): number {
  switch (kind) {
    case 'ok':
      return 200;
    case 'method-not-allowed':
      return 405;
    case 'request-error':
      return malformedVariables || mode === 'graphql-response' ? 400 : 200;
  }
}

/** /graphql and /admin: the engine's answer. Built in place (no spreads): this runs for every request. */
export function engineReply(response: EngineResponse, mode: ResponseMode, malformedVariables: boolean, countTouched: boolean): Reply {
  const status = statusFor(response.kind, mode, malformedVariables);
  const reply: Mutable<Reply> = { status, contentType: contentTypeFor(mode), body: response.bytes ?? response.body };
  if (response.cacheMaxAge !== undefined) reply.cacheMaxAge = response.cacheMaxAge;
  if (countTouched) reply.touchedUids = response.touchedUids ?? 0;
  if (status === 405) reply.headers = { Allow: 'POST, OPTIONS' };
  return reply;
}

/** A refusal (HttpError) as the client's media type. */
export function refusalReply(error: HttpError, mode: ResponseMode): Reply {
  const reply: Reply = { status: error.status, contentType: contentTypeFor(mode), body: errorBody(error.message, error.code) };
  return error.headers === undefined ? reply : { ...reply, headers: error.headers };
}

/**
 * The catch-all: a refusal is answered as such; anything else is an internal failure, logged with the
 * request's id (request-id.ts), which the client gets to quote (never the details).
 */
export function failureReply(error: unknown, mode: ResponseMode, log: Logger, id: string): Reply {
  if (error instanceof HttpError) return refusalReply(error, mode);
  log.error('internal error', { requestId: id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return refusalReply(new HttpError(500, httpMessages.internal(id)), mode);
}

export const optionsReply: Reply = { status: 200, body: '' };

/** /admin/schema upload: Dgraph answers a refused schema with 200 (400 for graphql-response+json clients). */
export function schemaUpdateReply(failure: string | undefined, mode: ResponseMode): Reply {
  if (failure === undefined) return { status: 200, contentType: contentTypeFor(mode), body: JSON.stringify({ data: { code: 'Success', message: 'Done' } }) };
  return { status: mode === 'graphql-response' ? 400 : 200, contentType: contentTypeFor(mode), body: errorBody(failure, 'Error') };
}

/** /admin/schema/validate: 200 `Schema is valid` (inside `errors`, as Dgraph) or 400 with one error per problem. */
export function schemaValidationReply(problems: readonly string[], mode: ResponseMode): Reply {
  if (problems.length === 0) return { status: 200, contentType: contentTypeFor(mode), body: errorBody('Schema is valid', 'success') };
  const body = JSON.stringify({ errors: problems.map((message) => ({ message, extensions: { code: 'ErrorInvalidRequest' } })) });
  return { status: 400, contentType: contentTypeFor(mode), body };
}

/** GET /admin/schema: the uploaded text as text/plain, or 404 when there is none. */
export function currentSchemaReply(schema: string | undefined, mode: ResponseMode): Reply {
  if (schema === undefined) return { status: 404, contentType: contentTypeFor(mode), body: errorBody(httpMessages.noSchema, 'ErrorNotFound') };
  return { status: 200, contentType: plainText, body: schema };
}

/** POST /admin/snapshot: 200 with what was written, 500 when it failed. */
export function snapshotReply(result: SnapshotResult, mode: ResponseMode): Reply {
  if (!result.ok) return { status: 500, contentType: contentTypeFor(mode), body: errorBody(result.message, 'Error') };
  const { lsn, file, bytes, ms } = result;
  return { status: 200, contentType: contentTypeFor(mode), body: JSON.stringify({ data: { code: 'Success', message: 'Snapshot written', lsn, file, bytes, ms } }) };
}

/** /health: the health array, or (undefined: still initialising and no `?live`) 503 text. */
export function healthReply(health: HealthInfo | undefined): Reply {
  if (health === undefined) return { status: 503, contentType: plainText, body: httpMessages.notReady };
  return { status: 200, contentType: json, body: JSON.stringify([health]) };
}

/** /probe/graphql: 503 while initialising. */
export function probeReply(probe: Probe): Reply {
  return { status: probe.status === 'init' ? 503 : 200, contentType: json, body: JSON.stringify(probe) };
}
