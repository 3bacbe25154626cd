// CRC-32 (zlib's) over one or more byte ranges.

import { crc32 } from 'node:zlib';

export function checksum(...parts: Uint8Array[]): number {
  let crc = 0;
  for (const part of parts) crc = crc32(part, crc);
  return crc >>> 0;
}
