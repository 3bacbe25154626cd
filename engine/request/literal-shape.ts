// A document's text with its string and number literals blanked: two documents with the same shape
// differ only in those values, so every validation rule that does not read literal values answers both
// alike (prepare-request.ts validates a known shape with `literalRules` only). Comments and everything
// else stay verbatim, so a scanning mistake can only make shapes differ, never merge two structures:
// a string is cut where graphql-js's lexer cuts it, and anything unusual gives no shape at all.

const stringMark = '""';
const blockStringMark = '""""""';
const intMark = '0';
const floatMark = '0.0';

/** The shape key of `source`, or undefined when it has no literal to blank (or could not be scanned). */
export function literalShape(source: string): string | undefined {
  const n = source.length;
  let key = '';
  let copied = 0; // source[copied, i) is still to be appended verbatim
  let literals = 0;
  for (let i = 0; i < n; ) {
    const c = source.charCodeAt(i);
    if (isNameStart(c)) {
      i++;
      while (i < n && isNameContinue(source.charCodeAt(i))) i++;
    } else if (c === 35 /* # */) {
      while (i < n && source.charCodeAt(i) !== 10 && source.charCodeAt(i) !== 13) i++;
    } else if (c === 34 /* " */) {
      const block = source.startsWith('"""', i);
      const end = block ? blockStringEnd(source, i + 3) : stringEnd(source, i + 1);
      if (end < 0) return undefined;
      key += source.slice(copied, i) + (block ? blockStringMark : stringMark);
      copied = i = end;
      literals++;
    } else if (c === 45 /* - */ || isDigit(c)) {
      let end = i + 1;
      let float = false;
      // The whole run graphql-js reads as one number or refuses (a letter or dot right after it).
      while (end < n) {
        const d = source.charCodeAt(end);
        if (d === 46 /* . */ || d === 101 /* e */ || d === 69 /* E */) float = true;
        else if (d === 43 /* + */ || d === 45 /* - */) {
          const before = source.charCodeAt(end - 1);
          if (before !== 101 && before !== 69) break;
        } else if (!isNameContinue(d)) break;
        end++;
      }
      key += source.slice(copied, i) + (float ? floatMark : intMark);
      copied = i = end;
      literals++;
    } else {
      i++;
    }
  }
  return literals === 0 ? undefined : key + source.slice(copied);
}

/** Index just past the closing quote of a string opened before `from`, or -1 (unterminated or a line break in it). */
function stringEnd(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 92 /* \ */) i++;
    else if (c === 34) return i + 1;
    else if (c === 10 || c === 13) return -1;
  }
  return -1;
}

/** Index just past the closing `"""` of a block string (`\"""` is an escaped one, as in graphql-js), or -1. */
function blockStringEnd(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 34 && source.startsWith('"""', i)) return i + 3;
    if (c === 92 && source.startsWith('"""', i + 1)) i += 3;
  }
  return -1;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isNameStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isNameContinue = (c: number): boolean => isNameStart(c) || isDigit(c);
