import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDateTime, formatLayout, parseDateTime, parseLayout, storedDateTimeKey } from '../../../engine/indexes/datetime-key.js';

describe('parseDateTime', () => {
  it.each([
    ['2020-01-02T03:04:05Z', Date.UTC(2020, 0, 2, 3, 4, 5)],
    ['2020-01-02T03:04:05', Date.UTC(2020, 0, 2, 3, 4, 5)],
    ['2020-01-02T03:04:05.123Z', Date.UTC(2020, 0, 2, 3, 4, 5, 123)],
    ['2020-01-02T03:04:05+02:00', Date.UTC(2020, 0, 2, 1, 4, 5)],
    ['2020-01-02T03:04:05-01:30', Date.UTC(2020, 0, 2, 4, 34, 5)],
    ['2020-01-02', Date.UTC(2020, 0, 2)],
    ['2020-01', Date.UTC(2020, 0, 1)],
    ['2020', Date.UTC(2020, 0, 1)],
    ['2020-01-02T03', Date.UTC(2020, 0, 2, 3)],
    ['2020-01-02T03:04', Date.UTC(2020, 0, 2, 3, 4)],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    ['0050-06-01', new Date(0).setUTCFullYear(50, 5, 1)],
  ])('%s', (text, ms) => {
    expect(parseDateTime(text)).toBe(ms);
  });

  it('keeps sub-millisecond precision for ordering', () => {
    const a = parseDateTime('2020-01-02T03:04:05.123456Z') as number;
    const b = parseDateTime('2020-01-02T03:04:05.123457Z') as number;
    expect(a).toBeGreaterThan(Date.UTC(2020, 0, 2, 3, 4, 5, 123));
    expect(b).toBeGreaterThan(a);
  });

  it.each(['', 'x', '2020-13-01', '2021-02-29', '2020-01-32', '2020-01-02T24:00:00Z', '2020-01-02T03:04:05+25:00', '20-01-01', '2020/01/01'])(
    'rejects %j',
    (text) => {
      expect(parseDateTime(text)).toBeUndefined();
    },
  );
});

// Dgraph answers a stored DateTime with Go's time.MarshalJSON (RFC 3339, nanoseconds without trailing zeros).
describe('formatDateTime', () => {
  it.each([
    ['2000-01-01', '2000-01-01T00:00:00Z'],
    ['2000-02', '2000-02-01T00:00:00Z'],
    ['1999', '1999-01-01T00:00:00Z'],
    ['2020-01-02T03', '2020-01-02T03:00:00Z'],
    ['2020-01-02T03:04', '2020-01-02T03:04:00Z'],
    ['2020-01-02T03:04:05', '2020-01-02T03:04:05Z'],
    ['2020-01-02T03:04:05Z', '2020-01-02T03:04:05Z'],
    ['2020-01-02T03:04:05.500Z', '2020-01-02T03:04:05.5Z'],
    ['2020-01-02T03:04:05.000Z', '2020-01-02T03:04:05Z'],
    ['2020-01-02T03:04:05.123456789Z', '2020-01-02T03:04:05.123456789Z'],
    ['2020-01-02T03:04:05+05:30', '2020-01-02T03:04:05+05:30'],
    ['2020-01-02T03:04:05-01:30', '2020-01-02T03:04:05-01:30'],
    ['2020-01-02T03:04:05+00:00', '2020-01-02T03:04:05Z'],
  ])('%s → %s', (text, expected) => {
    expect(formatDateTime(text)).toBe(expected);
  });

  it('is undefined for text that is not a DateTime', () => {
    expect(formatDateTime('2020-13-01')).toBeUndefined();
    expect(formatDateTime('yesterday')).toBeUndefined();
  });
});

// parseDateTime and formatDateTime read the full layout (`YYYY-MM-DDTHH:MM:SS…`) without the regular
// expression: on texts near that layout, valid or not, both must answer as the regular expression does.
describe('the full layout without the regular expression', () => {
  const pick = (options: readonly string[]) => fc.constantFrom(...options);
  const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));
  const near = fc
    .tuple(
      fc.oneof(digits(4), pick(['0999', '1000', '2024', '9999', '1900', '2000', '2100'])),
      fc.oneof(digits(2), pick(['01', '02', '12', '13', '00'])),
      fc.oneof(digits(2), pick(['01', '28', '29', '30', '31', '32', '00'])),
      pick(['T', 't', ' ', 'X']),
      fc.oneof(digits(2), pick(['00', '23', '24'])),
      fc.oneof(digits(2), pick(['00', '59', '60'])),
      fc.oneof(digits(2), pick(['00', '59', '60'])),
      fc.oneof(pick(['', '.', ',']), fc.integer({ min: 1, max: 10 }).chain((n) => digits(n).map((d) => `${n % 2 === 0 ? '.' : ','}${d}`)), digits(3).map((d) => `.${d}000`)),
      fc.oneof(pick(['', 'Z', 'z', '+00:00', '-00:00', '+0530', '+05:30', '-23:59', '+24:00', '+05:60', 'ZZ', '+5:30', '+05:3']), fc.tuple(pick(['+', '-']), digits(2), pick([':', '']), digits(2)).map((p) => p.join(''))),
    )
    .map(([y, mo, d, t, h, mi, s, f, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`);

  it('parses as the regular expression does', () => {
    fc.assert(fc.property(near, (text) => Object.is(parseDateTime(text), parseLayout(text))), { numRuns: 20_000 });
  });

  it('formats as the regular expression does', () => {
    fc.assert(fc.property(near, (text) => formatDateTime(text) === (parseLayout(text) === undefined ? undefined : formatLayout(text))), { numRuns: 20_000 });
  });

  it('gives a range bound the key of its stored text (storedDateTimeKey: the text formatted, then parsed)', () => {
    const stored = (text: string): number | undefined => {
      const formatted = formatDateTime(text);
      return formatted === undefined ? undefined : parseDateTime(formatted);
    };
    fc.assert(fc.property(near, (text) => Object.is(storedDateTimeKey(text), stored(text))), { numRuns: 20_000 });
    for (const text of ['2024-01-21', '2024-01-21T05:30', '2024-01-21T05:30:00.120+05:30', '2024-01-21T05:30:00.000000001Z', '0099-01-01T00:00:00Z', 'nope']) expect(storedDateTimeKey(text)).toBe(stored(text));
  });
});
