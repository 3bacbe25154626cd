// DateTime values → ordering keys. Accepts the layouts Dgraph's DateTime parser accepts:
// `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDTHH`, `...THH:MM`, `...THH:MM:SS`, with an optional fraction
// of a second (up to 9 digits) and an optional `Z` / `±HH:MM` offset (no offset = UTC).
// The key is epoch milliseconds with the sub-millisecond part as a fraction: a double, so two instants less
// than ~0.25 µs apart (at present-day epochs) may compare equal.

const LAYOUT =
  /^(-?\d{4,})(?:-(\d{2})(?:-(\d{2})(?:[Tt ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?)?)?$/;

/** Epoch milliseconds (fractional below a millisecond), or undefined if the text is not a DateTime. */
export function parseDateTime(text: string): number | undefined {
  const full = parseFull(text);
  if (full === undefined) return parseLayout(text);
  return Number.isNaN(full) ? undefined : full;
}

/** Day number of a proleptic Gregorian date (days from civil, exact for every year): Date.UTC's days. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Two ASCII digits at `at` as a number; -1 if either is not a digit. */
function two(text: string, at: number): number {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * The layout every stored and most queried DateTimes have, `YYYY-MM-DDTHH:MM:SS[.f][Z|±HH[:]MM]`
 * with a four-digit year from 1000, read without the regular expression: the same key as
 * `parseLayout` (same arithmetic on the same parts). Undefined when the text has another layout (the
 * regular expression decides), NaN when it has this one but is no DateTime.
 */
function parseFull(text: string): number | undefined {
  const n = text.length;
  if (n < 19 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined;
  const t = text.charCodeAt(10);
  if (t !== 84 && t !== 116 && t !== 32) return undefined; // T t space
  const century = two(text, 0);
  const rest = two(text, 2);
  const month = two(text, 5);
  const day = two(text, 8);
  const hour = two(text, 11);
  const minute = two(text, 14);
  const second = two(text, 17);
  if (century < 10 || rest < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  let at = 19;
  let fraction = -1;
  const sep = text.charCodeAt(at);
  if (sep === 46 || sep === 44) {
    // . or ,: one to nine digits, padded to nanoseconds as parseLayout pads them
    let digits = 0;
    let value = 0;
    for (at++; at < n && digits < 10; at++, digits++) {
      const d = text.charCodeAt(at) - 48;
      if (d < 0 || d > 9) break;
      value = value * 10 + d;
    }
    if (digits === 0 || digits > 9) return undefined;
    for (let k = digits; k < 9; k++) value *= 10;
    fraction = value;
  }
  let offset = 0;
  if (at < n) {
    const z = text.charCodeAt(at);
    if (z === 90 || z === 122) {
      if (at + 1 !== n) return undefined;
    } else if (z === 43 || z === 45) {
      const offH = two(text, at + 1);
      const colon = text.charCodeAt(at + 3) === 58 ? 1 : 0;
      const offM = two(text, at + 3 + colon);
      if (offH < 0 || offM < 0 || at + 5 + colon !== n) return undefined;
      if (offH > 23 || offM > 59) return NaN;
      const off = (offH * 60 + offM) * 60_000;
      offset = z === 43 ? -off : off;
    } else return undefined;
  }
  const year = century * 100 + rest;
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return NaN;
  let ms = daysFromCivil(year, month, day) * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000;
  if (fraction >= 0) ms += fraction / 1e6;
  return ms + offset;
}

/** The regular-expression parse of every accepted layout (exported for the fast path's differential test). */
export function parseLayout(text: string): number | undefined {
  const m = LAYOUT.exec(text);
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = m[2] === undefined ? 1 : Number(m[2]);
  const day = m[3] === undefined ? 1 : Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let ms = Date.UTC(year, month - 1, day, hour, minute, second);
  if (year >= 0 && year <= 99) {
    // Date.UTC maps years 0..99 to 1900..1999: set the year separately (from 2000, a leap year like 0).
    const d = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
    d.setUTCFullYear(year);
    ms = d.getTime();
  }
  if (m[7] !== undefined) ms += Number(m[7].padEnd(9, '0')) / 1e6;
  if (m[9] !== undefined) {
    const offH = Number(m[10]);
    const offM = Number(m[11]);
    if (offH > 23 || offM > 59) return undefined;
    const off = (offH * 60 + offM) * 60_000;
    ms += m[9] === '+' ? -off : off;
  }
  return ms;
}

/**
 * The text Dgraph answers for a stored DateTime (Go's time.MarshalJSON, RFC 3339 with nanoseconds):
 * every accepted layout widened to `YYYY-MM-DDTHH:MM:SS`, the fraction without trailing zeros, the
 * zone `Z` when absent or zero, else `±HH:MM`. `2000-01-01` → `2000-01-01T00:00:00Z`. Undefined if the
 * text is not a DateTime.
 */
export function formatDateTime(text: string): string | undefined {
  if (parseDateTime(text) === undefined) return undefined;
  return isCanonical(text) ? text : formatLayout(text);
}

/** The key of `formatDateTime(text)`, the stored text (a range bound's key): canonical text, the usual case, parsed once. */
export function storedDateTimeKey(text: string): number | undefined {
  const key = parseDateTime(text);
  return key === undefined || isCanonical(text) ? key : parseDateTime(formatLayout(text));
}

/** `formatDateTime` of a DateTime through the regular expression (exported for the differential test). */
export function formatLayout(text: string): string {
  const m = LAYOUT.exec(text) as RegExpExecArray;
  const two = (part: string | undefined, fallback: string) => part ?? fallback;
  const fraction = (m[7] ?? '').replace(/0+$/, '');
  const offset = m[9] === undefined || (m[10] === '00' && m[11] === '00') ? 'Z' : `${m[9]}${m[10] as string}:${m[11] as string}`;
  const date = `${m[1] as string}-${two(m[2], '01')}-${two(m[3], '01')}`;
  return `${date}T${two(m[4], '00')}:${two(m[5], '00')}:${two(m[6], '00')}${fraction === '' ? '' : `.${fraction}`}${offset}`;
}

/**
 * Whether a DateTime (already parsed) is written as `formatDateTime` writes it: `T`, seconds, a
 * fraction without trailing zeros after `.`, and `Z` or a non-zero `±HH:MM`.
 */
function isCanonical(text: string): boolean {
  const n = text.length;
  if (n < 20 || text.charCodeAt(4) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(16) !== 58 || two(text, 0) < 10) return false;
  let at = 19;
  if (text.charCodeAt(at) === 46) {
    for (at++; at < n && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57; at++);
    if (text.charCodeAt(at - 1) === 48 || at === 20) return false;
  }
  const z = text.charCodeAt(at);
  if (z === 90) return at + 1 === n;
  return (z === 43 || z === 45) && at + 6 === n && text.charCodeAt(at + 3) === 58 && !(text.charCodeAt(at + 1) === 48 && text.charCodeAt(at + 2) === 48 && text.charCodeAt(at + 4) === 48 && text.charCodeAt(at + 5) === 48);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
