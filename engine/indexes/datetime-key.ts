// DateTime values → ordering keys. Accepts the layouts Dgraph's DateTime parser accepts:
// `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDTHH`, `...THH:MM`, `...THH:MM:SS`, with an optional fraction
// of a second (up to 9 digits) and an optional `Z` / `±HH:MM` offset (no offset = UTC).
// The key is epoch milliseconds with the sub-millisecond part as a fraction: a double, so two instants less
// than ~0.25 µs apart (at present-day epochs) may compare equal.

const LAYOUT =
  /^(-?\d{4,})(?:-(\d{2})(?:-(\d{2})(?:[Tt ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?)?)?$/;

/** Epoch milliseconds (fractional below a millisecond), or undefined if the text is not a DateTime. */
export function parseDateTime(text: string): number | undefined {
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
  const m = LAYOUT.exec(text) as RegExpExecArray;
  const two = (part: string | undefined, fallback: string) => part ?? fallback;
  const fraction = (m[7] ?? '').replace(/0+$/, '');
  const offset = m[9] === undefined || (m[10] === '00' && m[11] === '00') ? 'Z' : `${m[9]}${m[10] as string}:${m[11] as string}`;
  const date = `${m[1] as string}-${two(m[2], '01')}-${two(m[3], '01')}`;
  return `${date}T${two(m[4], '00')}:${two(m[5], '00')}:${two(m[6], '00')}${fraction === '' ? '' : `.${fraction}`}${offset}`;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
