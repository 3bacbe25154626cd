// CRC-32 (zlib's) over one or more byte ranges.

import { crc32 } from 'node:zlib';

export function checksum(...parts: Uint8Array[]): number {
  let crc = 0;
  for (const part of parts) crc = crc32(part, crc);
  return crc >>> 0;
}

/** The checksum of the bytes so far (`crc`) extended by `part`: a large body summed piece by piece. */
export function continueChecksum(crc: number, part: Uint8Array): number {
  return crc32(part, crc) >>> 0;
}
