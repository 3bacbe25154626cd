// The one error shape that leaves the engine (GraphQL response `errors` entries).

export interface WireLocation {
  readonly line: number;
  readonly column: number;
}

export interface WireError {
  readonly message: string;
  readonly locations?: readonly WireLocation[];
  readonly path?: readonly (string | number)[];
  readonly extensions?: Readonly<Record<string, unknown>>;
}

export function wireError(
  message: string,
  locations?: readonly WireLocation[],
  path?: readonly (string | number)[],
): WireError {
  const error: { message: string; locations?: readonly WireLocation[]; path?: readonly (string | number)[] } = { message };
  if (locations !== undefined && locations.length > 0) error.locations = locations;
  if (path !== undefined && path.length > 0) error.path = path;
  return error;
}

/**
 * Whether Dgraph shows an error only in debug mode (`--graphql debug=true`; here `--debug`): its
 * response writer drops every error whose text says "authorization failed" or "GraphQL debug:".
 */
export function shownOnlyInDebug(error: WireError): boolean {
  return error.message.includes('authorization failed') || error.message.includes('GraphQL debug:');
}
