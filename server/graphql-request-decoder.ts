// Turns an HTTP request into the engine's GraphQLRequest: GET query parameters, or a POST body in
// application/json or application/graphql. Malformed transport input becomes an HttpError (400/415).

import { parseRequestJson, type GraphQLRequest } from '../engine/index.js';
import { readBody } from './body-reader.js';
import type { Exchange } from './exchange.js';
import { refusals } from './responses.js';
import { mediaType } from './negotiate.js';
import { authHeader } from './auth.js';

export interface DecodedRequest {
  readonly request: GraphQLRequest;
  /** `variables` was sent but is not an object: the engine words the error, the status is 400 for everyone. */
  readonly malformedVariables: boolean;
}

/** Gets the decoded request as a function that returns it or throws the refusal (for the router's catch-all). */
export type Decoded = (decode: () => DecodedRequest) => void;

/**
 * Decodes the request: GET parameters at once, a POST body when it has arrived (from inside uWS's data
 * callback, no promise). Refusals known before the body (405, 415, 413 by Content-Length) are thrown.
 */
export function decodeGraphqlRequest(exchange: Exchange, maxBodyBytes: number, then: Decoded): void {
  const method = exchange.request.method;
  if (method === 'GET') {
    then(() => fromParameters(exchange));
    return;
  }
  if (method !== 'POST') throw refusals.badMethod();
  const type = requestMediaType(exchange.header('content-type'));
  readBody(exchange, maxBodyBytes, (error, text) =>
    then(() => {
      if (error !== undefined) throw error;
      return decoded(exchange, type === 'application/graphql' ? { query: text } : parseJsonBody(text));
    }),
  );
}

/** The POST body's media type, or a 415 before the body is read. */
function requestMediaType(header: string | undefined): 'application/json' | 'application/graphql' {
  if (header === 'application/json') return header; // most requests: no lookup in the parsed-types memo
  const media = mediaType(header);
  const charset = media?.params['charset'];
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw refusals.unsupportedMediaType();
  if (media?.type === 'application/json' || media?.type === 'application/graphql') return media.type;
  throw refusals.unsupportedMediaType();
}

interface RawParameters {
  readonly query?: unknown;
  readonly operationName?: unknown;
  readonly variables?: unknown;
  readonly extensions?: unknown;
}

function parseJsonBody(text: string): RawParameters {
  let parsed: unknown;
  try {
    parsed = parseRequestJson(text);
  } catch (error) {
    throw refusals.notValidBody(error instanceof Error ? error.message : String(error));
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw refusals.notValidBody('expected a JSON object');
  }
  return parsed;
}

function fromParameters(exchange: Exchange): DecodedRequest {
  const params = new URLSearchParams(exchange.request.query);
  return decoded(exchange, {
    query: params.get('query') ?? undefined,
    operationName: params.get('operationName') ?? undefined,
    variables: jsonParameter(params, 'variables'),
    extensions: jsonParameter(params, 'extensions'),
  });
}

function jsonParameter(params: URLSearchParams, name: string): unknown {
  const text = params.get(name);
  if (text === null || text === '') return undefined;
  try {
    return parseRequestJson(text);
  } catch (error) {
    throw refusals.notValidBody(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function decoded(exchange: Exchange, raw: RawParameters): DecodedRequest {
  const query = optionalString(raw.query, 'query');
  const operationName = optionalString(raw.operationName, 'operationName');
  if (raw.extensions !== undefined && raw.extensions !== null && !isObject(raw.extensions)) {
    throw refusals.notValidBody('"extensions" must be an object');
  }
  const request: GraphQLRequest = {
    method: exchange.request.method === 'GET' ? 'GET' : 'POST',
    query,
    operationName,
    variables: raw.variables,
    extensions: raw.extensions,
    headers: forwardableHeaders(exchange.request.headers),
    requestId: exchange.requestId,
  };
  const malformedVariables = raw.variables !== undefined && raw.variables !== null && !isObject(raw.variables);
  return { request, malformedVariables };
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw refusals.notValidBody(`"${name}" must be a string`);
  return value;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Request headers minus the service key, which must never reach custom resolvers or logs. */
function forwardableHeaders(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  if (!(authHeader in headers)) return headers;
  const { [authHeader]: _secret, ...rest } = headers;
  return rest;
}
