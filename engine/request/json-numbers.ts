// JSON numbers written with a fraction or exponent but an integral value (`180143985094.0`, `1e3`):
// JSON.parse turns them into plain integers, while Dgraph (Go, json.Number) still sees a float and
// refuses it for Int64 with the number's text. `parseRequestJson` keeps that text in a marker, on a
// slow path taken only when the body contains such a number: a body without one costs JSON.parse and
// one scan of the text outside its strings (strings are jumped over with indexOf).

import { exceedsJsonNesting, maxJsonNesting } from '../util/json-nesting.js';
import { mayHoldLoneSurrogate, wellFormedJson } from './lone-surrogates.js';

/** A float-written integral number from request JSON, with its source text. */
export class FloatText {
  constructor(
    readonly value: number,
    readonly text: string,
  ) {}
}

/** Containers (the request body, `variables`, nested values) that hold a FloatText somewhere. */
const holdsFloatText = new WeakSet<object>();

const numberToken = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const marker = '\u0000float:';

export function parseRequestJson(text: string): unknown {
  if (exceedsJsonNesting(text)) throw new SyntaxError(`exceeded max depth of ${maxJsonNesting}`);
  // JSON.parse first: its syntax errors are the answer, and the scan may then assume JSON text.
  const fast = JSON.parse(text) as unknown;
  const parsed = writesIntegralFloat(text) ? parseKeepingFloatText(text, fast) : fast;
  return mayHoldLoneSurrogate(text) ? wellFormedJson(parsed) : parsed;
}

/**
 * Whether JSON text writes an integral number with a fraction or exponent (`2.0`, `1e3`, `1.5e3`),
 * strings skipped: a character loop outside strings only, so the query text costs one indexOf.
 */
function writesIntegralFloat(text: string): boolean {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = closingQuote(text, i);
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      let float = false;
      let exponent = false;
      let fractionDigit = false; // a non-zero digit after the point
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x2e) float = true;
        else if (d === 0x65 || d === 0x45) float = exponent = true;
        else if (d > 0x30 && d <= 0x39) fractionDigit ||= float;
        else if (d !== 0x30 && d !== 0x2b && d !== 0x2d) break;
      }
      // Up to 15 characters, a fraction with a non-zero digit cannot round to an integer (a double holds 15
      // significant digits), so the common `0.25` is settled without converting its text.
      const settled = !exponent && fractionDigit && i - start <= 15;
      if (float && !settled && Number.isInteger(Number(text.slice(start, i)))) return true;
      i--;
    }
  }
  return false;
}

/** The index of the quote closing the string opened at `open` (one preceded by an even run of backslashes). */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length;
    let backslashes = 0;
    for (let j = at - 1; text.charCodeAt(j) === 0x5c; j--) backslashes++;
    if ((backslashes & 1) === 0) return at;
  }
}

function parseKeepingFloatText(text: string, parsed: unknown): unknown {
  let found = false;
  const rewritten = text.replace(numberToken, (token) => {
    if (token.startsWith('"') || !/[.eE]/.test(token) || !Number.isInteger(Number(token))) return token;
    found = true;
    return JSON.stringify(marker + token);
  });
  if (!found) return parsed;
  return JSON.parse(rewritten, function (this: object, _key: string, value: unknown) {
    if (typeof value === 'string' && value.startsWith(marker)) {
      holdsFloatText.add(this);
      const token = value.slice(marker.length);
      return new FloatText(Number(token), token);
    }
    if (typeof value === 'object' && value !== null && holdsFloatText.has(value)) holdsFloatText.add(this);
    return value;
  });
}

export function hasFloatText(value: unknown): boolean {
  return typeof value === 'object' && value !== null && holdsFloatText.has(value);
}
