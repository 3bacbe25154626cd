// Step 2 of the upload pipeline: the `# Service.*` / `# Dgraph.*` comment lines (REFERENCE §1, §8.5).
// Secret values never leave this module except inside the returned map.

export interface MetaInfo {
  readonly secrets: Map<string, string>;
  readonly allowedOrigins: string[];
  /** The raw `# ...Authorization ...` line, if any. */
  readonly authorizationLine?: string;
}

export type MetaResult = { readonly ok: true; readonly meta: MetaInfo } | { readonly ok: false; readonly message: string };

export type MetaPrefix = 'Dgraph' | 'Service';

/** The prefix of `Dgraph.X` or `Service.X` at the start of the comment text: errors echo the one used. */
function metaKey(header: string, key: string): MetaPrefix | undefined {
  if (header.startsWith(`Dgraph.${key}`)) return 'Dgraph';
  return header.startsWith(`Service.${key}`) ? 'Service' : undefined;
}

/** The prefix of a `# Dgraph.X` / `# Service.X` line (`Dgraph` when it is neither). */
export function metaPrefix(line: string, key: string): MetaPrefix {
  return metaKey(line.trim().replace(/^#\s*/, ''), key) ?? 'Dgraph';
}

export function parseMetaLines(sdl: string): MetaResult {
  const secrets = new Map<string, string>();
  const allowedOrigins: string[] = [];
  let authorizationLine: string | undefined;
  for (const rawLine of sdl.split(/\r?\n/)) {
    const text = rawLine.trim();
    if (!text.startsWith('#')) continue;
    const header = text.slice(1).trim();
    const authPrefix = metaKey(header, 'Authorization');
    if (authPrefix !== undefined) {
      if (authorizationLine !== undefined) {
        return { ok: false, message: `${authPrefix}.Authorization should be only be specified once in a schema, found second mention: ${redactKey(text)}` };
      }
      authorizationLine = text;
      continue;
    }
    const originPrefix = metaKey(header, 'Allow-Origin');
    if (originPrefix !== undefined) {
      const origin = parseAllowOrigin(text);
      if (origin === undefined) {
        return {
          ok: false,
          message: `incorrect format for specifying ${originPrefix}.Allow-Origin found for comment: \`${text}\`, it should be \`# ${originPrefix}.Allow-Origin "http://example.com"\``,
        };
      }
      allowedOrigins.push(origin);
      continue;
    }
    const secretPrefix = metaKey(header, 'Secret');
    if (secretPrefix === undefined) continue;
    const secret = parseSecret(text);
    if (!secret) {
      return {
        ok: false,
        message: `incorrect format for specifying ${secretPrefix} secret found for comment: \`${redact(text)}\`, it should be \`# ${secretPrefix}.Secret key value\``,
      };
    }
    secrets.set(secret[0], secret[1]);
  }
  const meta: MetaInfo = authorizationLine === undefined ? { secrets, allowedOrigins } : { secrets, allowedOrigins, authorizationLine };
  return { ok: true, meta };
}

function parseAllowOrigin(text: string): string | undefined {
  const parts = text.split(/\s+/).filter((p) => p !== '');
  if (parts.length !== 3) return undefined;
  try {
    const v: unknown = JSON.parse(parts[2]!);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `# Dgraph.Secret KEY "VALUE"` (Dgraph's form) or `# Service.Secret KEY VALUE` (value quoted or
 * bare, our product spec). The key may be quoted.
 */
function parseSecret(text: string): [string, string] | undefined {
  const parts = text.split(/\s+/).filter((p) => p !== '');
  // `#Service.Secret` without a space after `#` shifts the parts by one.
  const offset = parts[0] === '#' ? 0 : -1;
  const keyPart = parts[2 + offset];
  const valueParts = parts.slice(3 + offset);
  if (keyPart === undefined || valueParts.length === 0) return undefined;
  const val = valueParts.join(' ');
  const quotes = [...val].filter((c) => c === '"').length;
  const key = keyPart.replace(/^"+|"+$/g, '');
  if (quotes === 0 && text.includes('Service.Secret')) return [key, val];
  if (quotes !== 2 || !val.startsWith('"') || !val.endsWith('"') || val.length < 2) return undefined;
  return [key, val.slice(1, -1)];
}

/** Secret values must never be echoed, even in the error for a malformed secret line. */
function redact(text: string): string {
  const parts = text.split(/\s+/).filter((p) => p !== '');
  const offset = parts[0] === '#' ? 0 : -1;
  return parts.length > 3 + offset ? `${parts.slice(0, 3 + offset).join(' ')} <redacted>` : text;
}

/** The HMAC verification key is as secret as a `# Service.Secret`. */
function redactKey(text: string): string {
  return text.replace(/("VerificationKey"\s*:\s*)"(?:[^"\\]|\\.)*"/, '$1"<redacted>"');
}
