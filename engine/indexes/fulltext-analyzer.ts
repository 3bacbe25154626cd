// Dgraph's default ("fulltext", English) analyzer: Unicode word segmentation, lower-casing, NFKC
// normalisation, English stop-word removal, Porter stemming. Also the word splitter and token
// normaliser the ngram index builds on.
//
// Word segmentation approximates Unicode UAX #29 (what Dgraph's tokenizer implements): runs of
// letters, marks, digits and connector punctuation form a word; `'`, `’`, `.`, `:` and `·` join two
// letters ("don't", "e.g"), and `,`, `.`, `;`, `'` join two digits ("3.14", "1,000"); every Han or
// Hiragana character is a word of its own. Runs of only connector punctuation are dropped.

import { ENGLISH_STOP_WORDS } from './english-stopwords.js';
import { porterStem } from './english-porter-stemmer.js';
import type { Tokenizer } from './token-index.js';

const LETTER = /[\p{L}\p{M}]/u;
const DIGIT = /\p{N}/u;
const CONNECTOR = /\p{Pc}/u;
const SINGLE_WORD_CHAR = /[\p{Script=Han}\p{Script=Hiragana}]/u;
const MID_LETTER = new Set([':', '·', '\u0387', '\u05F4', '\u2027', '\uFE13', '\uFE55', '\uFF1A', '.', '\u2018', '\u2019', '\u2024', '\uFE52', '\uFF07', '\uFF0E', "'"]);
const MID_NUM = new Set([',', ';', '\u037E', '\u0589', '\u060C', '\u060D', '\u066C', '\u07F8', '\u2044', '\uFE10', '\uFE14', '\uFE50', '\uFE54', '\uFF0C', '\uFF1B', '.', '\u2018', '\u2019', '\u2024', '\uFE52', '\uFF07', '\uFF0E', "'"]);

const enum Kind { Other, Letter, Digit, Connector, Single }

function kindOf(ch: string): Kind {
  const c = ch.charCodeAt(0);
  if (c < 128) {
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) return Kind.Letter;
    if (c >= 48 && c <= 57) return Kind.Digit;
    return c === 95 ? Kind.Connector : Kind.Other;
  }
  if (SINGLE_WORD_CHAR.test(ch)) return Kind.Single;
  if (LETTER.test(ch)) return Kind.Letter;
  if (DIGIT.test(ch)) return Kind.Digit;
  if (CONNECTOR.test(ch)) return Kind.Connector;
  return Kind.Other;
}

const ASCII_WORDS = /^[a-z0-9 ]*$/i;

/** Splits text into words (original case), in order. */
export function splitWords(text: string): string[] {
  if (ASCII_WORDS.test(text)) return text.split(' ').filter((w) => w.length > 0);
  const chars = Array.from(text);
  const kinds = chars.map(kindOf);
  const words: string[] = [];
  let cur = '';
  let hasAlnum = false;
  const flush = (): void => {
    if (hasAlnum) words.push(cur);
    cur = '';
    hasAlnum = false;
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    const k = kinds[i] as Kind;
    if (k === Kind.Letter || k === Kind.Digit || k === Kind.Connector) {
      cur += ch;
      if (k !== Kind.Connector) hasAlnum = true;
      continue;
    }
    if (k === Kind.Single) {
      flush();
      words.push(ch);
      continue;
    }
    const prev = kinds[i - 1];
    const next = kinds[i + 1];
    const joins =
      cur.length > 0 &&
      ((prev === Kind.Letter && next === Kind.Letter && MID_LETTER.has(ch)) ||
        (prev === Kind.Digit && next === Kind.Digit && MID_NUM.has(ch)));
    if (joins) cur += ch;
    else flush();
  }
  flush();
  return words;
}

// Where JS's toLowerCase (full, contextual mapping) and Go's per-rune unicode.ToLower differ.
const GO_LOWER_DIFFERS = /[\u0130\u03A3]/u;

/**
 * Lower-cases one word rune by rune as bleve's `to_lower` filter does (Go's unicode.ToLower):
 * İ becomes i (JS: i + U+0307), and Σ becomes σ except as the word's last rune, ς (JS decides
 * final sigma from the neighbouring letters). Every other rune's full mapping is its simple one.
 */
function goLowerCase(word: string): string {
  if (!GO_LOWER_DIFFERS.test(word)) return word.toLowerCase();
  const runes = Array.from(word);
  let out = '';
  runes.forEach((r, i) => {
    if (r === '\u0130') out += 'i';
    else if (r === '\u03A3') out += i === runes.length - 1 ? '\u03C2' : '\u03C3';
    else out += r.toLowerCase();
  });
  return out;
}

/** Lower-cases then NFKC-normalises one word, as Dgraph's term and fulltext analyzers do. */
export function normalizeWord(word: string): string {
  if (ASCII_WORDS.test(word)) return word.toLowerCase();
  return goLowerCase(word).normalize('NFKC');
}

const stemCache = new Map<string, string | null>();
const STEM_CACHE_LIMIT = 50_000;

const ASCII_NUMBER = /^[0-9]+$/;

/** The fulltext token for one word, or null for a stop word. */
function fulltextToken(word: string): string | null {
  // A number is its own token (no stop word has a digit, Porter's rules only strip letters): not
  // cached, so unique numbers (ids, counters) neither fill the cache nor clear its words out.
  const first = word.charCodeAt(0);
  if (first >= 48 && first <= 57 && ASCII_NUMBER.test(word)) return word;
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  const norm = normalizeWord(word);
  const token = ENGLISH_STOP_WORDS.has(norm) ? null : porterStem(norm);
  if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
  stemCache.set(word, token);
  return token;
}

/** Fulltext tokens of `text` in order (duplicates kept; stop words dropped). */
export function analyzeFulltext(text: string): string[] {
  const out: string[] = [];
  for (const w of splitWords(text)) {
    const t = fulltextToken(w);
    if (t !== null) out.push(t);
  }
  return out;
}

/** Distinct fulltext tokens of `text`. */
export function fulltextTokenSet(text: string): Set<string> {
  return new Set(analyzeFulltext(text));
}

/** The fulltext index's tokenizer: values and queries alike. */
export const fulltextTokenizer: Tokenizer = { name: 'fulltext', index: analyzeFulltext, query: analyzeFulltext };
