// The only importer of msgpackr. Round-trips every stored value exactly: bigint (Int64) as int64,
// Float32Array and the other typed arrays byte for byte, geo objects as maps, and -0 via an extension.

import { Packr, addExtension } from 'msgpackr';

class NegativeZero {}
const NEGATIVE_ZERO = new NegativeZero();

addExtension({
  Class: NegativeZero,
  type: 0x2d,
  write: () => 0,
  read: () => -0,
});

const packr = new Packr({ useRecords: false, moreTypes: true, int64AsType: 'bigint', mapsAsObjects: true });

export function encode(value: unknown): Buffer {
  return packr.pack(value);
}

/** One empty map: decoding it makes msgpackr let go of the previous input. */
const RELEASE = Uint8Array.of(0x80);

export function decode(bytes: Uint8Array): unknown {
  const value = packr.unpack(bytes);
  // msgpackr keeps its last input until the next unpack: after a restart, the whole snapshot body (359-528 MB at 1M).
  packr.unpack(RELEASE);
  return value;
}

/** -0 (alone or as a list element) as its extension marker; every other value unchanged. */
export function markNegativeZero(value: unknown): unknown {
  if (typeof value === 'number') return Object.is(value, -0) ? NEGATIVE_ZERO : value;
  if (Array.isArray(value) && value.some((v) => Object.is(v, -0))) return value.map((v: unknown) => (Object.is(v, -0) ? NEGATIVE_ZERO : v));
  return value;
}
