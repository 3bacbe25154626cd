// The mutation log's bytes. A log file is a 16-byte header — magic "GQLWAL\0" + format version (1 byte)
// + the LSN of its first record (u64 LE) — then records, each framed as
//   [u32 LE payload length][u32 LE CRC-32 of (length bytes + payload)][payload]
// where the payload is msgpack [kind, lsn, body]: kind 1 = mutation (body = flat redo ops),
// kind 2 = schema upload (body = SDL text), kind 3 = automatic persisted query registered (body =
// [sha256 hex, query text]), kind 4 = the ACL's users and groups after a change (body = the whole
// AclState: a few records, rewritten whole). LSNs count records from 1 and are contiguous across files.

import { checksum } from './checksum.js';
import { decode, encode } from './msgpack-codec.js';
import { frameRedo } from './redo-frame.js';
import type { RedoOps } from '../store/redo.js';
import { isAclState, type AclState } from '../acl/acl-state.js';

const LOG_MAGIC = Buffer.from('GQLWAL\0', 'latin1');
const LOG_VERSION = 1;
export const LOG_HEADER_BYTES = 16;
const FRAME_HEADER_BYTES = 8;
/** Far above any real record; a larger length is damage, not data. */
const MAX_RECORD_BYTES = 1 << 30;

export const KIND_MUTATION = 1;
export const KIND_SCHEMA = 2;
export const KIND_PERSISTED_QUERY = 3;
export const KIND_ACL = 4;

export type LogRecord =
  | { readonly kind: typeof KIND_MUTATION; readonly lsn: number; readonly ops: RedoOps }
  | { readonly kind: typeof KIND_SCHEMA; readonly lsn: number; readonly sdl: string }
  | { readonly kind: typeof KIND_PERSISTED_QUERY; readonly lsn: number; readonly sha256: string; readonly query: string }
  | { readonly kind: typeof KIND_ACL; readonly lsn: number; readonly acl: AclState };

export function logFileHeader(startLsn: number): Buffer {
  const header = Buffer.alloc(LOG_HEADER_BYTES);
  LOG_MAGIC.copy(header, 0);
  header[7] = LOG_VERSION;
  header.writeBigUInt64LE(BigInt(startLsn), 8);
  return header;
}

/** One framed record. */
export function frameRecord(record: LogRecord): Buffer {
  if (record.kind === KIND_MUTATION) return frameRedo(record.kind, record.lsn, record.ops);
  const body = recordBody(record);
  const payload = encode([record.kind, record.lsn, body]);
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt32LE(checksum(frame.subarray(0, 4), payload), 4);
  payload.copy(frame, FRAME_HEADER_BYTES);
  return frame;
}

function recordBody(record: Exclude<LogRecord, { kind: typeof KIND_MUTATION }>): unknown {
  switch (record.kind) {
    case KIND_SCHEMA:
      return record.sdl;
    case KIND_PERSISTED_QUERY:
      return [record.sha256, record.query];
    case KIND_ACL:
      return record.acl;
  }
}

/**
 * Records framed back to back with no file header (what a writer publishes to its replicas, see
 * Persistence.published): checked like a log file's, but any bad frame is an error here.
 */
export function readFrames(bytes: Buffer): LogRecord[] {
  const records: LogRecord[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    const frame = readFrame(bytes, offset);
    if (typeof frame === 'string') throw new Error(`log records damaged at offset ${offset}: ${frame}`);
    records.push(frame.record);
    offset = frame.end;
  }
  return records;
}

/** How a scan of one log file ended. */
export type ScanEnd =
  | { readonly kind: 'clean' }
  /** A bad record that no valid record follows (the file ends inside it, or in zero fill): a write cut short by a crash. */
  | { readonly kind: 'torn'; readonly offset: number; readonly bytes: number }
  /** A bad record (length, checksum or content) with a valid record after it, or an LSN out of order. */
  | { readonly kind: 'corrupt'; readonly offset: number; readonly reason: string };

export interface ScannedLog {
  readonly startLsn: number;
  readonly records: LogRecord[];
  /** Byte offset just after each record (parallel to records). */
  readonly ends: number[];
  readonly end: ScanEnd;
}

/** Parses a whole log file; throws only for a bad file header. */
export function scanLog(bytes: Buffer, name: string): ScannedLog {
  if (bytes.length < LOG_HEADER_BYTES || !bytes.subarray(0, 7).equals(LOG_MAGIC)) {
    throw new Error(`${name}: not a mutation log (bad header at offset 0)`);
  }
  if (bytes[7] !== LOG_VERSION) throw new Error(`${name}: unsupported log format version ${bytes[7]} at offset 7`);
  const startLsn = Number(bytes.readBigUInt64LE(8));
  const records: LogRecord[] = [];
  const ends: number[] = [];
  let offset = LOG_HEADER_BYTES;
  let expected = startLsn;
  const done = (end: ScanEnd): ScannedLog => ({ startLsn, records, ends, end });
  while (offset < bytes.length) {
    const frame = readFrame(bytes, offset);
    if (typeof frame === 'string') {
      // Only a bad frame that nothing valid follows is a write cut short; anything else is damage,
      // even when it looks like a torn tail (a flipped length byte pointing past the end).
      const next = findValidFrame(bytes, offset + 1, expected);
      if (next === undefined) return done({ kind: 'torn', offset, bytes: bytes.length - offset });
      return done({ kind: 'corrupt', offset, reason: `${frame}, yet a valid record (LSN ${next.lsn}) follows at offset ${next.offset}` });
    }
    const { record, end } = frame;
    if (record.lsn !== expected) return done({ kind: 'corrupt', offset, reason: `expected LSN ${expected}, found ${record.lsn}` });
    records.push(record);
    ends.push(end);
    expected++;
    offset = end;
  }
  return done({ kind: 'clean' });
}

/** The record framed at `offset`, or why there is none. */
function readFrame(bytes: Buffer, offset: number): { record: LogRecord; end: number } | string {
  if (isZeroFill(bytes, offset)) return 'zero-filled tail';
  if (offset + FRAME_HEADER_BYTES > bytes.length) return 'record header cut short';
  const length = bytes.readUInt32LE(offset);
  const end = offset + FRAME_HEADER_BYTES + length;
  if (length > MAX_RECORD_BYTES || end > bytes.length) return `record length ${length} runs past the end of the file`;
  const payload = bytes.subarray(offset + FRAME_HEADER_BYTES, end);
  if (checksum(bytes.subarray(offset, offset + 4), payload) !== bytes.readUInt32LE(offset + 4)) return 'checksum mismatch';
  const record = parseRecord(payload);
  return record === undefined ? 'undecodable record' : { record, end };
}

/** msgpack fixarray(3) then a known kind: every payload starts so; a cheap filter before the CRC. */
function looksLikeFrame(bytes: Buffer, at: number): boolean {
  const kind = bytes[at + FRAME_HEADER_BYTES + 1];
  return bytes[at + FRAME_HEADER_BYTES] === 0x93 && kind !== undefined && kind >= KIND_MUTATION && kind <= KIND_ACL;
}

/**
 * The first whole, checksummed record at or after `from` with an LSN of at least `minLsn`: proof that
 * the damage before it is not a torn tail. Byte by byte, so a damaged length cannot hide what follows.
 */
function findValidFrame(bytes: Buffer, from: number, minLsn: number): { offset: number; lsn: number } | undefined {
  for (let at = from; at + FRAME_HEADER_BYTES + 2 <= bytes.length; at++) {
    if (!looksLikeFrame(bytes, at)) continue;
    const frame = readFrame(bytes, at);
    if (typeof frame !== 'string' && frame.record.lsn >= minLsn) return { offset: at, lsn: frame.record.lsn };
  }
  return undefined;
}

function isZeroFill(bytes: Buffer, offset: number): boolean {
  for (let i = offset; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

function parseRecord(payload: Uint8Array): LogRecord | undefined {
  let value: unknown;
  try {
    value = decode(payload);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 3 || typeof value[1] !== 'number') return undefined;
  const [kind, lsn, body] = value as [unknown, number, unknown];
  if (kind === KIND_MUTATION && Array.isArray(body)) return { kind, lsn, ops: body as RedoOps };
  if (kind === KIND_SCHEMA && typeof body === 'string') return { kind, lsn, sdl: body };
  if (kind === KIND_PERSISTED_QUERY && Array.isArray(body) && body.length === 2 && typeof body[0] === 'string' && typeof body[1] === 'string') {
    return { kind, lsn, sha256: body[0], query: body[1] };
  }
  if (kind === KIND_ACL && isAclState(body)) return { kind, lsn, acl: body };
  return undefined;
}
