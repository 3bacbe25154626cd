// The schema's `# Service.Authorization` as the verifier needs it. The JSON was checked at compile
// (schema/parse-authorization.ts); here it only takes its typed shape.

export interface AuthConfig {
  /** Request header carrying the token, lower-cased (request headers arrive lower-cased). */
  readonly header: string;
  /** The claim whose object (or JSON string) holds the rule variables. */
  readonly namespace: string;
  /** Pinned algorithm with a VerificationKey; '' with JWKS (the key's type decides). */
  readonly algo: string;
  readonly verificationKey: string;
  readonly audience: readonly string[];
  readonly jwkUrls: readonly string[];
  readonly closedByDefault: boolean;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function authConfigOf(meta: Readonly<Record<string, unknown>> | undefined): AuthConfig | undefined {
  if (meta === undefined) return undefined;
  const jwkUrl = str(meta['JWKUrl']);
  const jwkUrls = Array.isArray(meta['JWKUrls']) ? meta['JWKUrls'].filter((u): u is string => typeof u === 'string') : [];
  return {
    header: str(meta['Header']).toLowerCase(),
    namespace: str(meta['Namespace']),
    algo: str(meta['Algo']),
    verificationKey: str(meta['VerificationKey']),
    audience: Array.isArray(meta['Audience']) ? meta['Audience'].filter((a): a is string => typeof a === 'string') : [],
    jwkUrls: jwkUrl !== '' ? [jwkUrl] : jwkUrls,
    closedByDefault: meta['ClosedByDefault'] === true,
  };
}
