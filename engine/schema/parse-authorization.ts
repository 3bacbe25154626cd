// `# Service.Authorization {json}` (or Dgraph's): parsed and checked (REFERENCE §9.4).
export type AuthResult =
  | { readonly ok: true; readonly authorization?: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly message: string };

export function parseAuthorization(line: string | undefined): AuthResult {
  if (line === undefined) return { ok: true };
  const brace = line.indexOf('{');
  if (brace < 0) return { ok: true };
  try {
    const v: unknown = JSON.parse(line.slice(brace));
    if (v && typeof v === 'object' && !Array.isArray(v)) return { ok: true, authorization: v as Record<string, unknown> };
  } catch {
    // fall through
  }
  return { ok: false, message: 'unable to parse Dgraph.Authorization' };
}
