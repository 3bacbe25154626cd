// A scan of JSON text for its deepest `{`/`[` nesting, strings skipped. V8's JSON.parse takes any depth,
// but everything that walks the parsed value (variable coercion, filters, mutation input, revivers,
// completion of @custom replies) recurses, so deep input is refused before it is parsed.

/** Deepest nesting JSON input may have; the walkers of parsed values take twice that with room to spare. */
export const maxJsonNesting = 1000;

/** Whether `text` nests arrays and objects deeper than `max` (a text shorter than `max` cannot). */
export function exceedsJsonNesting(text: string, max = maxJsonNesting): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    }
  }
  return false;
}
