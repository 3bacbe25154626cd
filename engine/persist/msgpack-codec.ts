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

export function decode(bytes: Uint8Array): unknown {
  return packr.unpack(bytes);
}

/** -0 (alone or as a list element) as its extension marker; every other value unchanged. */
export function markNegativeZero(value: unknown): unknown {
  if (typeof value === 'number') return Object.is(value, -0) ? NEGATIVE_ZERO : value;
  if (Array.isArray(value) && value.some((v) => Object.is(v, -0))) return value.map((v: unknown) => (Object.is(v, -0) ? NEGATIVE_ZERO : v));
  return value;
}
