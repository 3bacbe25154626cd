// gqlparser's "Did you mean" candidates (validator/suggestionList.go, messaging.go), which graphql-js
// chooses and orders otherwise: plain Levenshtein on lower-cased runes (no transpositions), a threshold
// of half the longer name's bytes (at least 1), ties kept in the options' order, at most five shown.

const utf8 = new TextEncoder();

/** Levenshtein distance over code points (agnivade/levenshtein, as gqlparser uses it). */
function levenshtein(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function lexicalDistance(a: string, b: string): number {
  if (a === b) return 0;
  const lowerA = a.toLowerCase();
  const lowerB = b.toLowerCase();
  if (lowerA === lowerB) return 1; // a change of case counts as one edit
  return levenshtein(Array.from(lowerA), Array.from(lowerB));
}

/** The options close enough to `input`, nearest first (equally near ones in the options' order). */
export function suggestionList(input: string, options: Iterable<string>): string[] {
  const inputBytes = utf8.encode(input).length;
  const near: { option: string; distance: number }[] = [];
  for (const option of options) {
    const threshold = Math.max(1, Math.floor(Math.max(inputBytes, utf8.encode(option).length) / 2));
    const distance = lexicalDistance(input, option);
    if (distance <= threshold) near.push({ option, distance });
  }
  // Go's sort.Slice is an insertion sort, so stable, up to 12 items; past that gqlparser's order of ties is its pdqsort's.
  return near.sort((x, y) => x.distance - y.distance).map((n) => n.option);
}

/** `A`, `A or B`, `A, B, or C`: the first five items. */
export function orList(items: readonly string[]): string {
  const shown = items.slice(0, 5);
  if (shown.length === 2) return `${shown[0] ?? ''} or ${shown[1] ?? ''}`;
  return shown.map((item, i) => (i === 0 ? item : i === shown.length - 1 ? `, or ${item}` : `, ${item}`)).join('');
}

export function quotedOrList(items: readonly string[]): string {
  return orList(items.map((item) => `"${item}"`));
}

/** ` <prefix> "a" or "b"?` when any option is near `typed`, else the empty string. */
export function suggestQuoted(prefix: string, typed: string, options: Iterable<string>): string {
  const suggested = suggestionList(typed, options);
  return suggested.length === 0 ? '' : ` ${prefix} ${quotedOrList(suggested)}?`;
}

export function suggestUnquoted(prefix: string, typed: string, options: Iterable<string>): string {
  const suggested = suggestionList(typed, options);
  return suggested.length === 0 ? '' : ` ${prefix} ${orList(suggested)}?`;
}
