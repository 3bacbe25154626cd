// JSON text for response data. Unlike JSON.stringify it writes bigint (Int64) as full-precision
// numbers, and it skips `undefined` object members the same way.

/**
 * Native JSON.stringify is several times faster than any JS writer; only values holding a bigint
 * (Int64 beyond what a double keeps, which it refuses) take the hand-written path.
 */
export function writeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    if (error instanceof TypeError && /BigInt/i.test(error.message)) return writeJsonWithBigInts(value);
    throw error;
  }
}

function writeJsonWithBigInts(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return writeArray(value);
      return writeObject(value as Record<string, unknown>);
    default:
      return 'null';
  }
}

function writeArray(values: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    out += writeJsonWithBigInts(values[i]);
  }
  return out + ']';
}

function writeObject(object: Record<string, unknown>): string {
  let out = '{';
  let sep = '';
  for (const key in object) {
    const member = object[key];
    if (member === undefined) continue;
    out += `${sep}${JSON.stringify(key)}:${writeJsonWithBigInts(member)}`;
    sep = ',';
  }
  return out + '}';
}
