// JSON text the way Go's encoding/json writes a map-based value: compact, object keys sorted,
// `<`, `>`, `&`, U+2028 and U+2029 escaped. Remote endpoints written against Dgraph compare bodies
// byte for byte, so outbound bodies are written this way.

export function goJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)).replace(/[<>&\u2028\u2029]/g, escapeChar);
}

function escapeChar(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  // Null prototype: a `__proto__` key stays an ordinary key.
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) out[key] = sortKeys(member);
  }
  return out;
}

/** The message Go's decoder gives for text that is not JSON (no part of the text is echoed beyond one character). */
export function goJsonError(text: string): string {
  const trimmed = text.trimStart();
  if (trimmed === '') return 'unexpected end of JSON input';
  const first = trimmed[0] ?? '';
  if (!'{["-0123456789tfn'.includes(first)) return `invalid character '${printable(first)}' looking for beginning of value`;
  const number = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(trimmed);
  if (number !== null) {
    const after = trimmed.slice(number[0].length).trimStart()[0];
    if (after !== undefined) return `invalid character '${printable(after)}' after top-level value`;
  }
  return 'unexpected end of JSON input';
}

function printable(c: string): string {
  const code = c.charCodeAt(0);
  return code < 0x20 || code > 0x7e ? `\\u${code.toString(16).padStart(4, '0')}` : c;
}
