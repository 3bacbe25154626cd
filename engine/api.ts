// The shapes that cross the facade (engine/index.ts): plain data only, so server/ needs nothing else.

export interface EngineOptions {
  /** Directory for snapshots and the mutation log. */
  readonly dataDir: string;
  /** Base URL for `@lambda` / `@lambdaOnMutate` (`--lambda-url`). */
  readonly lambdaUrl?: string;
  /** Parser token limit for one document (graphql-js `maxTokens`). */
  readonly maxQueryTokens: number;
  /** Maximum selection depth of one operation. */
  readonly maxQueryDepth: number;
  /** Add an EXPLAIN of the plan to `extensions` when the request asks for it. */
  readonly debug: boolean;
}

export type HttpMethod = 'GET' | 'POST';

/** One GraphQL request as the HTTP edge decoded it. `query` absent means the client sent none. */
export interface GraphQLRequest {
  readonly method: HttpMethod;
  readonly query?: string | undefined;
  readonly operationName?: string | null | undefined;
  /** Anything the client sent; the engine checks it is an object. */
  readonly variables?: unknown;
  readonly extensions?: unknown;
  /** Lower-cased request header names → values (for forwardHeaders and auth). */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * How a response came about, so the HTTP edge can pick a status code without parsing the body:
 * - `ok`: executed (there may still be field errors, `data` is present);
 * - `request-error`: rejected before execution (parse, validation, variables, operation selection): no `data`;
 * - `method-not-allowed`: a mutation sent over GET.
 */
export type ResponseKind = 'ok' | 'request-error' | 'method-not-allowed';

export interface EngineResponse {
  readonly kind: ResponseKind;
  /** The full JSON response text: `{"errors":[...],"data":...,"extensions":...}`. */
  readonly body: string;
}

export interface SchemaErrorLocation {
  readonly line: number;
  readonly column: number;
}

export interface SchemaError {
  readonly message: string;
  readonly locations?: readonly SchemaErrorLocation[];
}

export type SchemaUpdateResult =
  | { readonly ok: true; readonly schema: string; readonly generatedSchema: string }
  | { readonly ok: false; readonly errors: readonly SchemaError[] };

export type ProbeStatus = 'init' | 'up' | 'updating schema';

export interface Probe {
  readonly status: ProbeStatus;
  readonly schemaUpdateCounter: number;
}

export interface HealthInfo {
  readonly instance: 'alpha';
  readonly address: string;
  readonly status: 'healthy';
  readonly group: '1';
  readonly version: string;
  readonly uptime: number;
  readonly lastEcho: number;
  readonly ongoing: readonly string[];
  readonly indexing: readonly string[];
  readonly ee_features: readonly string[];
}
