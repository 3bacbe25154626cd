// JSON text the way Go's encoding/json writes a map-based value: compact, object keys sorted,
// `<`, `>`, `&`, U+2028 and U+2029 escaped. Remote endpoints written against Dgraph compare bodies
// byte for byte, so outbound bodies are written this way.

import { goJsonSyntaxError } from '../util/go-json-syntax.js';

const goEscaped = /[<>&\u2028\u2029]/g;

export function goJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)).replace(goEscaped, escapeChar);
}

/** JSON text of `value` with sorted keys, not yet escaped (pieces of a larger body; see goEscape). */
export function goJsonText(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) return JSON.stringify(value);
  return JSON.stringify(sortKeys(value)) as string | undefined;
}

/** Go's HTML-safe escaping, applied once to the finished JSON text. */
export function goEscape(text: string): string {
  goEscaped.lastIndex = 0;
  return goEscaped.test(text) ? text.replace(goEscaped, escapeChar) : text;
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

/** The message Go's decoder gives for text that is not JSON (its scanner's; one character of the text at most is echoed). */
export function goJsonError(text: string): string {
  return goJsonSyntaxError(text) ?? 'unexpected end of JSON input';
}
