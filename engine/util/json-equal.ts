// Equality of decoded JSON values as Go's reflect.DeepEqual sees them after encoding/json (numbers are
// float64 on both sides, so -0 equals 0, unlike util.isDeepStrictEqual).

/** Whether two decoded JSON values are equal: same primitives, arrays element-wise, objects key by key. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
