// The answer check of every shape: deep equality of JSON values, naming the first difference.

/** Deep equality of JSON values (object key order ignored); returns the first difference. */
export function compare(got: unknown, want: unknown, path = 'data'): string | null {
  if (Array.isArray(want)) {
    if (!Array.isArray(got)) return `${path}: expected a list, got ${JSON.stringify(got)}`;
    if (got.length !== want.length) return `${path}: expected ${want.length} items, got ${got.length}`;
    for (let i = 0; i < want.length; i++) {
      const diff = compare(got[i], want[i], `${path}[${i}]`);
      if (diff !== null) return diff;
    }
    return null;
  }
  if (typeof want === 'object' && want !== null) {
    if (typeof got !== 'object' || got === null || Array.isArray(got)) return `${path}: expected an object, got ${JSON.stringify(got)}`;
    const g = got as Record<string, unknown>;
    const w = want as Record<string, unknown>;
    const keys = new Set([...Object.keys(g), ...Object.keys(w)]);
    for (const key of keys) {
      const diff = compare(g[key], w[key], `${path}.${key}`);
      if (diff !== null) return diff;
    }
    return null;
  }
  return Object.is(got, want) || closeFloats(got, want) ? null : `${path}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
}

/** Non-integer numbers (averages, distances) agree to 1e-9 relative: summation order may differ. */
function closeFloats(got: unknown, want: unknown): boolean {
  if (typeof got !== 'number' || typeof want !== 'number' || Number.isInteger(want)) return false;
  return Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want));
}
