// `Object.keys(o).sort()` for the input objects of a mutation, which mostly share one key list
// (coerced inputs list their fields in the input type's order): the last few distinct key lists
// and their sorted copies are remembered and compared by identity of the (interned) key strings.

const CACHE = 8;
const seen: string[][] = [];
const sorted: (readonly string[])[] = [];
let next = 0;

/** The object's own enumerable keys in sorted order (do not mutate the result). */
export function sortedKeys(o: object): readonly string[] {
  const keys = Object.keys(o);
  if (keys.length < 2) return keys;
  for (let c = 0; c < seen.length; c++) {
    const s = seen[c] as string[];
    if (s.length !== keys.length) continue;
    let same = true;
    for (let i = 0; i < keys.length; i++) {
      if (s[i] !== keys[i]) {
        same = false;
        break;
      }
    }
    if (same) return sorted[c] as readonly string[];
  }
  const result = [...keys].sort();
  seen[next] = keys;
  sorted[next] = result;
  next = (next + 1) % CACHE;
  return result;
}
