// Go's strconv.ParseUint(s, 0, 64): base from the prefix (0x, 0o, 0b, or a leading 0 for octal),
// underscores allowed only between digits (Go literal syntax). Returns undefined on syntax or range error.

const MAX_UINT64 = (1n << 64n) - 1n;
const SHORT_HEX = /^0[xX][0-9a-fA-F]{1,13}$/;
const SHORT_DEC = /^[1-9][0-9]{0,14}$/;

export function parseUint(s: string): bigint | undefined {
  if (SHORT_HEX.test(s)) return BigInt(s.toLowerCase());
  if (SHORT_DEC.test(s)) return BigInt(s);
  return parseSlow(s);
}

/**
 * parseUint's value when it is a safe integer, else undefined. A `0x` uid of up to 13 hex digits
 * (below 2^52, the ids the store hands out) is read without a regex or BigInt.
 */
export function parseSafeUint(s: string): number | undefined {
  const n = s.length;
  if (n >= 3 && n <= 15 && s.charCodeAt(0) === 0x30 && (s.charCodeAt(1) | 0x20) === 0x78) {
    let value = 0;
    for (let i = 2; i < n; i++) {
      const c = s.charCodeAt(i);
      const l = c | 0x20;
      const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
      if (d < 0) return safe(parseUint(s)); // `_` separators; syntax errors
      value = value * 16 + d;
    }
    return value;
  }
  return safe(parseUint(s));
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const safe = (n: bigint | undefined): number | undefined => (n !== undefined && n <= MAX_SAFE ? Number(n) : undefined);

function parseSlow(s0: string): bigint | undefined {
  if (s0.length === 0) return undefined;
  let s = s0;
  let base = 10;
  if (s[0] === '0') {
    const p = s.length >= 3 ? s[1]?.toLowerCase() : undefined;
    if (p === 'b') base = 2;
    else if (p === 'o') base = 8;
    else if (p === 'x') base = 16;
    else base = 8;
    s = s.slice(base === 8 && p !== 'o' ? 1 : 2);
  }
  let n = 0n;
  let underscores = false;
  const b = BigInt(base);
  for (const ch of s) {
    if (ch === '_') {
      underscores = true;
      continue;
    }
    const d = digitValue(ch);
    if (d === undefined || d >= base) return undefined;
    n = n * b + BigInt(d);
    if (n > MAX_UINT64) return undefined;
  }
  if (underscores && !underscoreOK(s0)) return undefined;
  return n;
}

function digitValue(ch: string): number | undefined {
  const c = ch.charCodeAt(0);
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 0x20;
  if (l >= 97 && l <= 122) return l - 97 + 10;
  return undefined;
}

/** Go's underscoreOK: underscores only as digit separators (a base prefix counts as a digit). */
function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  const p = s[1]?.toLowerCase();
  if (s.length >= 2 && s[0] === '0' && (p === 'b' || p === 'o' || p === 'x')) {
    i = 2;
    saw = '0';
    hex = p === 'x';
  }
  for (; i < s.length; i++) {
    const c = s[i] as string;
    const l = c.toLowerCase();
    if ((c >= '0' && c <= '9') || (hex && l >= 'a' && l <= 'f')) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}
