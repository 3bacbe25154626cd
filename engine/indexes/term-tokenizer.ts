// Dgraph's `term` tokenizer: Unicode word segmentation (UAX #29 word boundaries, the rules that matter for
// Latin-like text), lower-cased rune by rune as Go does, then NFKC-normalised (tok/bleve.go: bleve's
// lowercase and unicodenorm_nfkc filters), unique; no stemming, no stop words. Ideographs and Hiragana
// are one token per character, as in bleve's unicode tokenizer that Dgraph uses. ASCII text needs
// neither step beyond lower-casing and keeps its fast path.

import { normalizeWord } from './fulltext-analyzer.js';

import type { Tokenizer } from './token-index.js';

const WORD = /[\p{L}\p{N}\p{M}\p{Pc}]/u;
const NUMERIC = /\p{Nd}/u;
const SINGLE = /[\p{Script=Han}\p{Script=Hiragana}]/u;
/** MidLetter: joins letters. */
const MID_LETTER = new Set([':', '\u00b7', '\u0387', '\u05f4', '\u2027', '\ufe13', '\ufe55', '\uff1a']);
/** MidNum: joins digits. */
const MID_NUM = new Set([',', ';', '\u037e', '\u0589', '\u060c', '\u060d', '\u066c', '\u07f8', '\u2044', '\ufe10', '\ufe14', '\ufe50', '\ufe54', '\uff0c', '\uff1b']);
/** MidNumLet and Single_Quote: join letters and digits. */
const MID_BOTH = new Set(['.', "'", '\u2018', '\u2019', '\u2024', '\ufe52', '\uff07', '\uff0e']);


/** The term index's tokenizer: values and queries alike. */
export const termTokenizer: Tokenizer = { name: 'term', index: termTokens, query: termTokens };

/** Tokens of `text` in order of first appearance, lower-cased and unique. */
export function termTokens(text: string): string[] {
  return isAscii(text) ? asciiTokens(text) : unicodeTokens(text);
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** ASCII: letters, digits, `_`; `.`/`'` join letters or digits, `:` letters, `,`/`;` digits. */
function asciiTokens(text: string): string[] {
  const seen = new UniqueList();
  let start = -1;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 0;
    if (asciiWord(c)) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i + 1 < n) {
      const before = text.charCodeAt(i - 1);
      const after = text.charCodeAt(i + 1);
      if (asciiWord(after)) {
        const bothNum = isDigit(before) && isDigit(after);
        const bothLetter = !isDigit(before) && !isDigit(after);
        if (c === 46 || c === 39 ? bothNum || bothLetter : c === 58 ? bothLetter : (c === 44 || c === 59) && bothNum) continue;
      }
    }
    if (start >= 0) seen.add(text.slice(start, i).toLowerCase());
    start = -1;
  }
  return seen.items();
}

/** Unique strings in insertion order: a plain array scanned while short (no Set for a 6-word title). */
class UniqueList {
  private readonly list: string[] = [];
  private set: Set<string> | undefined;

  add(token: string): void {
    if (this.set !== undefined) {
      if (!this.set.has(token)) {
        this.set.add(token);
        this.list.push(token);
      }
      return;
    }
    if (this.list.includes(token)) return;
    this.list.push(token);
    if (this.list.length > 16) this.set = new Set(this.list);
  }

  items(): string[] {
    return this.list;
  }
}

function asciiWord(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function unicodeTokens(text: string): string[] {
  const seen = new Set<string>();
  const chars = Array.from(text);
  let start = -1;
  const flush = (end: number): void => {
    if (start >= 0) seen.add(normalizeWord(chars.slice(start, end).join('')));
    start = -1;
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (SINGLE.test(ch)) {
      flush(i);
      seen.add(normalizeWord(ch)); // a compatibility ideograph becomes its unified one
      continue;
    }
    if (WORD.test(ch)) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && joins(ch, chars[i - 1], chars[i + 1])) continue;
    flush(i);
  }
  flush(chars.length);
  return [...seen];
}

function joins(mid: string, before: string | undefined, after: string | undefined): boolean {
  if (before === undefined || after === undefined || !WORD.test(after) || SINGLE.test(after)) return false;
  const bothNum = NUMERIC.test(before) && NUMERIC.test(after);
  const bothLetter = !NUMERIC.test(before) && !NUMERIC.test(after);
  if (MID_BOTH.has(mid)) return bothNum || bothLetter;
  if (MID_LETTER.has(mid)) return bothLetter;
  if (MID_NUM.has(mid)) return bothNum;
  return false;
}
