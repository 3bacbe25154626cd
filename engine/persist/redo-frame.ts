// A mutation record's frame written straight from its redo ops, byte for byte what frameRecord made
// through msgpackr: the ops' own values (ids, codes, predicate names, strings, string arrays, numbers,
// booleans, null) go through one small loop here; any other value (typed arrays, geo objects, bigint,
// the -0 marker) is msgpackr's encoding of it, copied in. msgpackr's one `pack` serves every type a
// load has logged (vectors, points, ...), so it had gone generic: ~2.3 µs for an add's 30 values
// against ~1.2 µs fresh (a quarter of an add's log record, issue #20's seventeenth session).

import { checksum } from './checksum.js';
import { encode, markNegativeZero } from './msgpack-codec.js';

/** The frame's header: the payload's length, then the checksum of that length and the payload. */
const HEADER = 8;

/** The scratch the payload is written in (reused: one copy out per frame), dropped when a record grew it past this. */
const KEEP_BYTES = 1 << 20;
let out = Buffer.allocUnsafe(4096);
let at = 0;

function room(bytes: number): void {
  if (at + bytes <= out.length) return;
  const grown = Buffer.allocUnsafe(Math.max(out.length * 2, at + bytes));
  out.copy(grown, 0, 0, at);
  out = grown;
}

/** `[u32 length][u32 crc][msgpack [kind, lsn, ops]]`, a -0 in an op's value (alone or in a list) written as msgpack-codec's marker. */
export function frameRedo(kind: number, lsn: number, ops: readonly unknown[]): Buffer {
  at = HEADER;
  room(16);
  out[at++] = 0x93;
  writeNumber(kind);
  writeNumber(lsn);
  writeArrayHeader(ops.length);
  for (const value of ops) writeValue(value, true);
  const length = at - HEADER;
  const frame = Buffer.allocUnsafe(at);
  out.copy(frame, 0, 0, at);
  frame.writeUInt32LE(length, 0);
  frame.writeUInt32LE(checksum(frame.subarray(0, 4), frame.subarray(HEADER)), 4);
  if (out.length > KEEP_BYTES) out = Buffer.allocUnsafe(4096); // a bulk load's record: not kept for the adds after it
  return frame;
}

function writeArrayHeader(length: number): void {
  room(5);
  if (length < 0x10) out[at++] = 0x90 | length;
  else if (length < 0x10000) {
    out[at++] = 0xdc;
    out[at++] = length >> 8;
    out[at++] = length & 0xff;
  } else {
    out[at++] = 0xdd;
    out.writeUInt32BE(length, at);
    at += 4;
  }
}

/** `top`: an op's own slot (a list inside a value is msgpackr's, -0 marked per element as markNegativeZero does). */
function writeValue(value: unknown, top: boolean): void {
  if (typeof value === 'string') writeString(value);
  else if (typeof value === 'number' && !Object.is(value, -0)) writeNumber(value);
  else if (value === null || typeof value === 'boolean') {
    room(1);
    out[at++] = value === null ? 0xc0 : value ? 0xc3 : 0xc2;
  } else if (top && Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    writeArrayHeader(value.length);
    for (const s of value as string[]) writeString(s);
  } else {
    const bytes = encode(top ? markNegativeZero(value) : value);
    room(bytes.length);
    bytes.copy(out, at);
    at += bytes.length;
  }
}

function writeNumber(value: number): void {
  room(9);
  if (value >>> 0 === value) {
    if (value < 0x80) out[at++] = value;
    else if (value < 0x100) {
      out[at++] = 0xcc;
      out[at++] = value;
    } else if (value < 0x10000) {
      out[at++] = 0xcd;
      out[at++] = value >> 8;
      out[at++] = value & 0xff;
    } else {
      out[at++] = 0xce;
      out.writeUInt32BE(value, at);
      at += 4;
    }
  } else if (value >> 0 === value) {
    if (value >= -0x20) out[at++] = 0x100 + value;
    else if (value >= -0x80) {
      out[at++] = 0xd0;
      out[at++] = value + 0x100;
    } else if (value >= -0x8000) {
      out[at++] = 0xd1;
      out.writeInt16BE(value, at);
      at += 2;
    } else {
      out[at++] = 0xd2;
      out.writeInt32BE(value, at);
      at += 4;
    }
  } else {
    out[at++] = 0xcb;
    out.writeDoubleBE(value, at);
    at += 8;
  }
}

/** msgpackr's two ways: a char loop below 64 UTF-16 units (a lone surrogate as 3 bytes), Buffer's utf8Write above (U+FFFD). */
function writeString(value: string): void {
  const units = value.length;
  room(5 + units * 3);
  const estimate = units < 0x20 ? 1 : units < 0x100 ? 2 : units < 0x10000 ? 3 : 5;
  const start = at + estimate;
  let length: number;
  if (units < 0x40) {
    let p = start;
    for (let i = 0; i < units; i++) {
      let c = value.charCodeAt(i);
      if (c < 0x80) out[p++] = c;
      else if (c < 0x800) {
        out[p++] = (c >> 6) | 0xc0;
        out[p++] = (c & 0x3f) | 0x80;
      } else if ((c & 0xfc00) === 0xd800 && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        c = 0x10000 + ((c & 0x03ff) << 10) + (value.charCodeAt(++i) & 0x03ff);
        out[p++] = (c >> 18) | 0xf0;
        out[p++] = ((c >> 12) & 0x3f) | 0x80;
        out[p++] = ((c >> 6) & 0x3f) | 0x80;
        out[p++] = (c & 0x3f) | 0x80;
      } else {
        out[p++] = (c >> 12) | 0xe0;
        out[p++] = ((c >> 6) & 0x3f) | 0x80;
        out[p++] = (c & 0x3f) | 0x80;
      }
    }
    length = p - start;
  } else length = out.write(value, start, out.length - start, 'utf8');
  // The header as the actual byte length needs it (the bytes moved when the estimate was short).
  const header = length < 0x20 ? 1 : length < 0x100 ? 2 : length < 0x10000 ? 3 : 5;
  if (header !== estimate) out.copyWithin(at + header, start, start + length);
  if (header === 1) out[at] = 0xa0 | length;
  else if (header === 2) {
    out[at] = 0xd9;
    out[at + 1] = length;
  } else if (header === 3) {
    out[at] = 0xda;
    out[at + 1] = length >> 8;
    out[at + 2] = length & 0xff;
  } else {
    out[at] = 0xdb;
    out.writeUInt32BE(length, at + 1);
  }
  at += header + length;
}
