// `# Service.Authorization {json}` (Dgraph's `# Dgraph.Authorization` too): parsed and checked
// (REFERENCE §9.4). The legacy form `# Dgraph.Authorization <Header> <Namespace> <Algo> "<key>"`
// is still accepted. JWKs are fetched later, outside this synchronous step.
import { metaPrefix } from './parse-meta-lines.js';

export type AuthResult =
  | { readonly ok: true; readonly authorization?: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly message: string };

/** Dgraph's supported signing methods (its message lists a Go map, in random order: ours is fixed). */
const algorithms = ['RS256', 'RS384', 'RS512', 'HS256', 'HS384', 'HS512'];
/** ES256 too (jose makes it free); the refusal keeps listing Dgraph's six. */
const accepted = new Set([...algorithms, 'ES256']);

/** The JSON keys as Dgraph's struct names them; Go's encoding/json matches them case-insensitively. */
const keys = ['VerificationKey', 'Header', 'Namespace', 'Algo', 'JWKUrl', 'JWKUrls', 'Audience', 'ClosedByDefault'];
const keyByLowerCase = new Map(keys.map((k) => [k.toLowerCase(), k]));

/** Each key under its canonical spelling; of keys that differ only in case the last wins (as in Go). */
function canonicalKeys(json: Record<string, unknown>): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json)) meta[keyByLowerCase.get(key.toLowerCase()) ?? key] = value;
  return meta;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function parseAuthorization(line: string | undefined): AuthResult {
  if (line === undefined) return { ok: true };
  // Errors name the line as the schema wrote it: `Dgraph.Authorization` or `Service.Authorization`.
  const header = `${metaPrefix(line, 'Authorization')}.Authorization`;
  const brace = line.indexOf('{');
  let meta: Record<string, unknown>;
  if (brace < 0) {
    const parts = line.split(/\s+/).filter((p) => p !== '' && p !== '#');
    if (parts.length !== 5) return { ok: false, message: `input: Invalid \`${header}\` format` };
    const key = parts[4]!;
    meta = { Header: parts[1], Namespace: parts[2], Algo: parts[3], VerificationKey: key.replace(/^"|"$/g, '') };
  } else {
    try {
      const v: unknown = JSON.parse(line.slice(brace));
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
      meta = canonicalKeys(v as Record<string, unknown>);
    } catch (e) {
      return { ok: false, message: `unable to parse ${header}. Reason: ${(e as Error).message}` };
    }
  }
  const jwkUrl = str(meta['JWKUrl']);
  const jwkUrls = list(meta['JWKUrls']);
  const hasJwk = jwkUrl !== '' || jwkUrls.length > 0;
  if (jwkUrl !== '' && jwkUrls.length > 0) return { ok: false, message: 'expecting either JWKUrl or JWKUrls, both were given' };
  if (hasJwk && (str(meta['VerificationKey']) !== '' || str(meta['Algo']) !== '')) {
    return { ok: false, message: 'expecting either JWKUrl/JWKUrls or (VerificationKey, Algo), both were given' };
  }
  let missing = '';
  if (!hasJwk && str(meta['VerificationKey']) === '') missing += ' `Verification key`/`JWKUrl`/`JWKUrls`';
  if (!hasJwk && str(meta['Algo']) === '') missing += ' `Algo`';
  if (str(meta['Header']) === '') missing += ' `Header`';
  if (str(meta['Namespace']) === '') missing += ' `Namespace`';
  if (hasJwk && list(meta['Audience']).length === 0) missing += ' `Audience`';
  if (missing !== '') return { ok: false, message: `required field missing in ${header}:${missing}` };
  if (!hasJwk && !accepted.has(str(meta['Algo']))) {
    return { ok: false, message: `invalid jwt algorithm: found ${str(meta['Algo'])}, but supported options are: ${algorithms.join(',')}` };
  }
  return { ok: true, authorization: meta };
}
