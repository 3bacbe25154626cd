// JSON numbers written with a fraction or exponent but an integral value (`180143985094.0`, `1e3`):
// JSON.parse turns them into plain integers, while Dgraph (Go, json.Number) still sees a float and
// refuses it for Int64 with the number's text. `parseRequestJson` keeps that text in a marker, on a
// slow path taken only when the body contains such a number: a body with no integral number costs
// JSON.parse and a walk of the parsed value, one with integers also a regex test of the text.

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

// A number where JSON puts one (after `:`, `,`, `[` or at the start) with a point and only zeros
// (`5.0`, `7.`) or an exponent: cheap to test, and rare in bodies. Ordinary fractions like `2.5`,
// prose with full stops and hex uids inside strings (`"0x2e5"`) do not take the slow path.
const integralFloatLike = /(?:^|[:,[])\s*-?\d+(?:\.0*(?!\d)|(?:\.\d*)?[eE])/;
const numberToken = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const marker = '\u0000float:';

export function parseRequestJson(text: string): unknown {
  if (exceedsJsonNesting(text)) throw new SyntaxError(`exceeded max depth of ${maxJsonNesting}`);
  // JSON.parse first: only a body holding an integral number can have written one as a float, so
  // most bodies (no numbers at all, or fractions only) never pay for a look at the text.
  const fast = JSON.parse(text) as unknown;
  const parsed = holdsInteger(fast) && integralFloatLike.test(text) ? parseKeepingFloatText(text, fast) : fast;
  return mayHoldLoneSurrogate(text) ? wellFormedJson(parsed) : parsed;
}

/** Whether a parsed JSON value holds an integral number anywhere (no recursion: depth is bounded but large). */
function holdsInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  if (typeof value !== 'object' || value === null) return false;
  const stack: object[] = [value];
  while (stack.length > 0) {
    const container = stack.pop() as object;
    const values = Array.isArray(container) ? (container as unknown[]) : Object.values(container);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v === 'number') {
        if (Number.isInteger(v)) return true;
      } else if (typeof v === 'object' && v !== null) stack.push(v);
    }
  }
  return false;
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
