// `exact` index: strings in code-point order (the same order as Go's byte-wise string comparison of UTF-8).

import { OrderedIndex } from './ordered-index.js';
import type { ScalarValue } from './value-index.js';

/** Compares strings by Unicode code point (UTF-16 code-unit order differs once surrogates are involved). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // surrogates (D800–DFFF) encode code points above every BMP unit E000–FFFF
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length < 0 ? -1 : 1;
}

function stringKey(value: ScalarValue): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
    default:
      return undefined;
  }
}

export class ExactIndex extends OrderedIndex<string> {
  constructor() {
    super(stringKey, compareCodePoints);
  }
}
