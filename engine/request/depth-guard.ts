// A pre-parse scan that bounds bracket nesting. graphql-js parses recursively, so a 10,000-deep
// document must be refused before it reaches the parser, not by a validation rule after it. The
// selection depth itself is measured after validation, fragments expanded (selection-bounds.ts).

/** Deepest `{`/`(`/`[` nesting a document may have: parsing it and walking its values stays far from the stack limit. */
export const maxDocumentNesting = 1000;

/** Deepest `{`/`(`/`[` nesting in a GraphQL document, ignoring strings, block strings and comments. */
export function maxNesting(source: string): number {
  let depth = 0;
  let max = 0;
  const n = source.length;
  for (let i = 0; i < n; i++) {
    const c = source.charCodeAt(i);
    if (c === 123 /* { */ || c === 40 /* ( */ || c === 91 /* [ */) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 || c === 41 || c === 93) {
      depth--;
    } else if (c === 35 /* # */) {
      while (i < n && source.charCodeAt(i) !== 10) i++;
    } else if (c === 34 /* " */) {
      i = skipString(source, i);
    }
  }
  return max;
}

function skipString(source: string, start: number): number {
  if (source.startsWith('"""', start)) {
    const end = source.indexOf('"""', start + 3);
    return end < 0 ? source.length : end + 2;
  }
  for (let i = start + 1; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 92 /* \ */) i++;
    else if (c === 34 || c === 10) return i;
  }
  return source.length;
}
