// Lone UTF-16 surrogates become U+FFFD at the edge, as in Dgraph: Go's encoding/json replaces them when
// it decodes request JSON, and gqlparser writes a `\uD800` escape of the query text as a rune Go encodes
// as U+FFFD. Kept as given, they would be stored as such but read back as U+FFFD (or worse) after a
// restart, since the log and snapshots hold UTF-8, and an `eq` lookup would stop matching.

// A `\u` escape of a surrogate (D800–DFFF): the only way request text can carry one, since bodies are
// decoded as strict UTF-8 and URL parameters with replacement.
const surrogateEscape = /\\u[dD][89a-fA-F]/;

// ES2024 string methods (in Node 20's V8), outside the ES2023 lib the project compiles against.
declare global {
  interface String {
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}

/** Whether JSON or GraphQL text may hold a lone surrogate escape (one cheap regex test). */
export function mayHoldLoneSurrogate(text: string): boolean {
  // includes() first: a plain substring search is several times cheaper than the regex.
  return text.includes('\\u') && surrogateEscape.test(text);
}

/** `value` (parsed request JSON) with every string and key well formed; changed in place. */
export function wellFormedJson(value: unknown): unknown {
  if (typeof value === 'string') return value.isWellFormed() ? value : value.toWellFormed();
  if (typeof value !== 'object' || value === null) return value;
  const stack: object[] = [value];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) item[i] = visit(item[i] as unknown, stack);
      continue;
    }
    const record = item as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.every((key) => key.isWellFormed())) {
      for (const key of keys) record[key] = visit(record[key], stack);
      continue;
    }
    // Rewrite every entry so the keys keep their order.
    const entries = keys.map((key): [string, unknown] => [key.toWellFormed(), visit(record[key], stack)]);
    for (const key of keys) delete record[key];
    for (const [key, entry] of entries) record[key] = entry;
  }
  return value;
}

function visit(value: unknown, stack: object[]): unknown {
  if (typeof value === 'string') return value.isWellFormed() ? value : value.toWellFormed();
  // Plain containers only: FloatText markers hold no strings to fix.
  if (typeof value === 'object' && value !== null && (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype)) stack.push(value);
  return value;
}

/**
 * GraphQL text with each `\uXXXX` escape of a lone surrogate inside a string literal written as
 * `\uFFFD` (same length, so every location stays). A leading surrogate escape followed by a trailing
 * one stays a pair. Block strings take no escapes and comments are not values: both are left alone.
 */
export function replaceLoneSurrogateEscapes(query: string): string {
  if (!mayHoldLoneSurrogate(query)) return query;
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < query.length) {
    const c = query.charCodeAt(i);
    if (c === 0x23 /* # */) {
      while (i < query.length && query.charCodeAt(i) !== 0x0a && query.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22 /* " */ && query.startsWith('"""', i)) {
      i += 3;
      while (i < query.length && !query.startsWith('"""', i)) i += query.startsWith('\\"""', i) ? 4 : 1;
      i += 3;
    } else if (c === 0x22) {
      for (i++; i < query.length; i++) {
        const s = query.charCodeAt(i);
        if (s === 0x22 || s === 0x0a || s === 0x0d) break;
        if (s !== 0x5c /* \ */) continue;
        const code = escapedUnit(query, i);
        if (code !== undefined && code >= 0xd800 && code <= 0xdfff) {
          const trailing = escapedUnit(query, i + 6);
          if (code <= 0xdbff && trailing !== undefined && trailing >= 0xdc00 && trailing <= 0xdfff) {
            i += 11;
            continue;
          }
          out += `${query.slice(copied, i)}\\uFFFD`;
          copied = i + 6;
          i += 5;
        } else i++; // the escaped character (`\"`, `\\`, ...) is not the string's end
      }
      i++;
    } else i++;
  }
  return copied === 0 ? query : out + query.slice(copied);
}

/** The code unit of a fixed-width `\uXXXX` escape at `at`, or undefined. */
function escapedUnit(text: string, at: number): number | undefined {
  if (text.charCodeAt(at) !== 0x5c || text.charCodeAt(at + 1) !== 0x75) return undefined;
  const hex = text.slice(at + 2, at + 6);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? Number.parseInt(hex, 16) : undefined;
}
