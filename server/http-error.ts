// The one error type of the HTTP edge: a request refused before it reaches the engine, and the edge's
// own error texts. Statuses are chosen in responses.ts (`refusals`).

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Dgraph-style `extensions.code`, e.g. `ErrorUnauthorized`. */
    readonly code?: string,
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const httpMessages = {
  unsupportedMediaType: 'Unrecognised Content-Type.  Please use application/json or application/graphql for GraphQL requests',
  badMethod: 'Unrecognised request method.  Please use GET or POST for GraphQL requests',
  notValidBody: (detail: string) => `Not a valid GraphQL request body: ${detail}`,
  badGzip: (detail: string) => `Unable to parse gzip: ${detail}`,
  couldNotRead: (detail: string) => `Could not read GraphQL request body: ${detail}`,
  tooLarge: (limit: number) => `Request body too large: the limit is ${limit} bytes`,
  tooLargeDecompressed: (limit: number) => `Request body too large: the limit is ${limit} bytes after gzip decompression`,
  invalidMethod: 'Invalid method',
  notFound: (path: string) => `Not found: ${path}`,
  unsupportedEncoding: (encoding: string) => `Unsupported Content-Encoding: ${encoding}`,
  conflictingLengths: (values: string) => `Conflicting Content-Length headers: ${values}`,
  missingKey: 'Invalid X-Auth-Token: the X-Auth-Token header is missing',
  wrongKey: 'Invalid X-Auth-Token',
  internal: (requestId: string) => `Internal error (request ${requestId}).`,
  noSchema: 'No GraphQL schema has been uploaded',
  notReady: 'the server is not ready yet',
} as const;
