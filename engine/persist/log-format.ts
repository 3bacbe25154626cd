// The mutation log's bytes. A log file is a 16-byte header — magic "GQLWAL\0" + format version (1 byte)
// + the LSN of its first record (u64 LE) — then records, each framed as
//   [u32 LE payload length][u32 LE CRC-32 of (length bytes + payload)][payload]
// where the payload is msgpack [kind, lsn, body]: kind 1 = mutation (body = flat redo ops),
// kind 2 = schema upload (body = SDL text), kind 3 = automatic persisted query registered (body =
// [sha256 hex, query text]). LSNs count records from 1 and are contiguous across files.

import { checksum } from './checksum.js';
import { decode, encode, markNegativeZero } from './msgpack-codec.js';
import { R_SET, redoWidth, type RedoOps } from '../store/redo.js';

export const LOG_MAGIC = Buffer.from('GQLWAL\0', 'latin1');
export const LOG_VERSION = 1;
export const LOG_HEADER_BYTES = 16;
export const FRAME_HEADER_BYTES = 8;
/** Far above any real record; a larger length is damage, not data. */
const MAX_RECORD_BYTES = 1 << 30;

export const KIND_MUTATION = 1;
export const KIND_SCHEMA = 2;
export const KIND_PERSISTED_QUERY = 3;

export type LogRecord =
  | { readonly kind: typeof KIND_MUTATION; readonly lsn: number; readonly ops: RedoOps }
  | { readonly kind: typeof KIND_SCHEMA; readonly lsn: number; readonly sdl: string }
  | { readonly kind: typeof KIND_PERSISTED_QUERY; readonly lsn: number; readonly sha256: string; readonly query: string };

export function logFileHeader(startLsn: number): Buffer {
  const header = Buffer.alloc(LOG_HEADER_BYTES);
  LOG_MAGIC.copy(header, 0);
  header[7] = LOG_VERSION;
  header.writeBigUInt64LE(BigInt(startLsn), 8);
  return header;
}

/** One framed record. */
export function frameRecord(record: LogRecord): Buffer {
  const body = record.kind === KIND_MUTATION ? markValues(record.ops) : record.kind === KIND_SCHEMA ? record.sdl : [record.sha256, record.query];
  const payload = encode([record.kind, record.lsn, body]);
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt32LE(checksum(frame.subarray(0, 4), payload), 4);
  payload.copy(frame, FRAME_HEADER_BYTES);
  return frame;
}

function markValues(ops: RedoOps): RedoOps {
  let out: RedoOps | undefined;
  for (let i = 0; i < ops.length; i += redoWidth[ops[i] as number] ?? 1) {
    if (ops[i] !== R_SET) continue;
    const value = ops[i + 3];
    const marked = markNegativeZero(value);
    if (marked === value) continue;
    out ??= ops.slice();
    out[i + 3] = marked as never;
  }
  return out ?? ops;
}

/** How a scan of one log file ended. */
export type ScanEnd =
  | { readonly kind: 'clean' }
  /** The file ends inside a record (or in zero fill): a write cut short by a crash. */
  | { readonly kind: 'torn'; readonly offset: number; readonly bytes: number }
  /** A complete record whose checksum or content is wrong, with more data after it. */
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
    if (isZeroFill(bytes, offset)) return done({ kind: 'torn', offset, bytes: bytes.length - offset });
    if (offset + FRAME_HEADER_BYTES > bytes.length) return done({ kind: 'torn', offset, bytes: bytes.length - offset });
    const length = bytes.readUInt32LE(offset);
    const stored = bytes.readUInt32LE(offset + 4);
    const end = offset + FRAME_HEADER_BYTES + length;
    if (length > MAX_RECORD_BYTES || end > bytes.length) {
      return done({ kind: 'torn', offset, bytes: bytes.length - offset });
    }
    const payload = bytes.subarray(offset + FRAME_HEADER_BYTES, end);
    const bad = (reason: string): ScannedLog =>
      done(end === bytes.length ? { kind: 'torn', offset, bytes: bytes.length - offset } : { kind: 'corrupt', offset, reason });
    if (checksum(bytes.subarray(offset, offset + 4), payload) !== stored) return bad('checksum mismatch');
    const record = parseRecord(payload);
    if (record === undefined) return bad('undecodable record');
    if (record.lsn !== expected) return done({ kind: 'corrupt', offset, reason: `expected LSN ${expected}, found ${record.lsn}` });
    records.push(record);
    ends.push(end);
    expected++;
    offset = end;
  }
  return done({ kind: 'clean' });
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
  return undefined;
}
