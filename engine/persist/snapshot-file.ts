// Snapshot files. Layout:
//   0   magic "GQLSNAP\0" (8 bytes)
//   8   u32 LE format version
//   12  u32 LE header length H
//   16  header: msgpack { lsn, schemaHash, nodes, maxNodeId, scalarPredicates, edgePredicates, edges,
//                         bodyLength, bodyCrc, createdAt, sharedLogPosition? (cluster mode; absent in older files) }
//   16+H u32 LE CRC-32 of bytes [0, 16+H)
//   20+H body: msgpack { schema, store, persistedQueries, acl } (StoreSnapshot: columnar typed arrays; format 2
//        adds to each scalar column `postings`: its token indexes' postings, which a restore loads instead of
//        tokenising the values again (IndexPostings: kind, token text, lengths, counts, ids); format 1 files
//        have none and are still read (their indexes rebuilt from the values);
//        persistedQueries: [sha256, query] pairs, absent in older files; acl: the ACL's users and
//        groups, absent in older files and null when ACL is off), bodyLength bytes — the
//        file ends exactly there (trailing bytes are damage).
// Written to `<name>.tmp`, fsynced, renamed, directory fsynced: a reader sees a whole file or none.

import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CapturedStrings, CapturedValues, type IndexPostings, type StoreSnapshot } from '../store/graph-store.js';
import { postingsProblem } from '../indexes/postings/stored-postings.js';
import { isAclState, type AclState } from '../acl/acl-state.js';
import { checksum, continueChecksum } from './checksum.js';
import type { FileIo } from './file-io.js';
import { decode, encode, markNegativeZero } from './msgpack-codec.js';
import { snapshotFileName } from './data-dir.js';

const SNAPSHOT_MAGIC = Buffer.from('GQLSNAP\0', 'latin1');
/** Written; 1 is still read (no stored postings). */
const SNAPSHOT_VERSION = 2;
const READABLE_VERSIONS: readonly number[] = [1, 2];

export interface SnapshotContent {
  /** State after log record `lsn`. */
  readonly lsn: number;
  readonly schema: string | null;
  readonly store: StoreSnapshot;
  /** Registered automatic persisted queries: [sha256 hex, query]. */
  readonly persistedQueries: readonly (readonly [string, string])[];
  /** The ACL's users and groups (null: ACL off, or a file older than the ACL). */
  readonly acl: AclState | null;
  /** Cluster mode: the last shared-log position (stream sequence) whose records the state holds; absent alone. */
  readonly sharedLogPosition?: number;
}

export interface SnapshotHeader {
  readonly lsn: number;
  readonly schemaHash: string;
  readonly nodes: number;
  readonly maxNodeId: number;
  readonly scalarPredicates: number;
  readonly edgePredicates: number;
  readonly edges: number;
  readonly bodyLength: number;
  readonly bodyCrc: number;
  readonly createdAt: string;
  /** SnapshotContent.sharedLogPosition (absent in older files and outside cluster mode). */
  readonly sharedLogPosition?: number;
}

/** A snapshot that failed its checks: which file, where, and why. */
export class SnapshotError extends Error {
  constructor(
    readonly file: string,
    readonly offset: number,
    readonly reason: string,
  ) {
    super(`snapshot ${file} is damaged at offset ${offset}: ${reason}`);
  }
}

function schemaHash(sdl: string | null): string {
  return sdl === null ? '' : createHash('sha256').update(sdl).digest('hex');
}

/**
 * The whole file's bytes, encoded in slices that let the event loop turn between them (a snapshot of a
 * large store takes seconds to encode: every client would wait that long). `content` must be a copy
 * that nothing changes meanwhile (GraphStore.exportSnapshot's is). The body is the same msgpack as one
 * `encode` of it: long arrays are encoded a chunk of elements at a time under their own header.
 */
export async function encodeSnapshot(content: SnapshotContent, createdAt: string): Promise<Buffer[]> {
  const { store } = content;
  const out = new SlicedBody();
  out.mapHeader(4);
  out.key('schema');
  await out.value(content.schema);
  out.key('store');
  out.mapHeader(Object.keys(store).length);
  for (const [name, field] of Object.entries(store) as [keyof StoreSnapshot, unknown][]) {
    out.key(name);
    if (name === 'scalars') await out.objects(field as readonly object[], (column) => Object.keys(column));
    else if (name === 'edges') await out.objects(field as readonly object[], () => EDGE_FIELDS);
    else await out.value(field);
  }
  out.key('persistedQueries');
  await out.value(content.persistedQueries);
  out.key('acl');
  await out.value(content.acl);
  const body = out.finish();
  let nodes = 0;
  for (let id = 1; id < store.nextId; id++) nodes += store.alive[id] ?? 0;
  const header: SnapshotHeader = {
    lsn: content.lsn,
    schemaHash: schemaHash(content.schema),
    nodes,
    maxNodeId: store.nextId - 1,
    scalarPredicates: store.scalars.length,
    edgePredicates: store.edges.length,
    edges: store.edges.reduce((n, col) => n + col.from.length, 0),
    bodyLength: out.length,
    bodyCrc: out.crc,
    createdAt,
    ...(content.sharedLogPosition === undefined ? {} : { sharedLogPosition: content.sharedLogPosition }),
  };
  return [snapshotHead(header), ...body];
}

/** The file's bytes before the body: magic, version, the header and its CRC. */
export function snapshotHead(header: SnapshotHeader): Buffer {
  const headerBytes = encode(header);
  const head = Buffer.alloc(16 + headerBytes.length + 4);
  SNAPSHOT_MAGIC.copy(head, 0);
  head.writeUInt32LE(SNAPSHOT_VERSION, 8);
  head.writeUInt32LE(headerBytes.length, 12);
  headerBytes.copy(head, 16);
  head.writeUInt32LE(checksum(head.subarray(0, 16 + headerBytes.length)), 16 + headerBytes.length);
  return head;
}

/** An edge column's fields as files hold them (a captured column reads them through getters). */
const EDGE_FIELDS = ['predicate', 'from', 'to'] as const;

/** Longest stretch of encoding between two turns of the event loop. */
const SLICE_MS = 5;
/** Elements of a long array encoded by one `encode` call. */
const CHUNK = 1024;
/** Encoded pieces are joined into parts of about this size (fewer writes, fewer small buffers kept). */
const PART_BYTES = 1 << 20;

/** A msgpack body built piece by piece, with its length and CRC, yielding to the event loop every SLICE_MS. */
class SlicedBody {
  length = 0;
  crc = 0;
  readonly #parts: Buffer[] = [];
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #since = performance.now();

  /** As msgpackr writes an object's: map16 at any size. */
  mapHeader(n: number): void {
    this.#push(sizedHeader(0xde, n));
  }

  key(name: string): void {
    this.#push(encode(name));
  }

  /**
   * One value; an array a chunk of elements at a time (captured strings always). `markZero`: the values
   * of an ANY column (repr 3), each element's -0 marked (inside a list value too), as one encode marked them.
   */
  async value(value: unknown, markZero = false): Promise<void> {
    const elements = value instanceof CapturedStrings || value instanceof CapturedValues || Array.isArray(value) ? value : undefined;
    if (elements === undefined || (Array.isArray(elements) && elements.length <= CHUNK && !markZero)) {
      this.#push(encode(value));
      return this.#pause();
    }
    this.#push(arrayHeader(elements.length));
    for (let i = 0; i < elements.length; i += CHUNK) {
      if (elements instanceof CapturedStrings) {
        this.#push(packStrings(elements, i, Math.min(i + CHUNK, elements.length)));
        await this.#pause();
        continue;
      }
      const chunk: unknown[] = elements.slice(i, i + CHUNK);
      const bytes = encode(markZero ? chunk.map(markNegativeZero) : chunk);
      this.#push(bytes.subarray(arrayHeaderLength(bytes[0] as number)));
      await this.#pause();
    }
  }

  /** An array of column objects (scalars, edges), each field (named by `fields`, in file order) a value of its own. */
  async objects(columns: readonly object[], fields: (column: object) => readonly string[]): Promise<void> {
    this.#push(arrayHeader(columns.length));
    for (const column of columns) {
      const names = fields(column);
      this.mapHeader(names.length);
      for (const name of names) {
        this.key(name);
        await this.value((column as Record<string, unknown>)[name], name === 'values' && (column as { repr?: number }).repr === 3);
      }
    }
  }

  finish(): Buffer[] {
    this.#flush();
    return this.#parts;
  }

  #push(bytes: Buffer): void {
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.length;
    if (this.#pendingBytes >= PART_BYTES) this.#flush();
  }

  #flush(): void {
    if (this.#pending.length === 0) return;
    const part = this.#pending.length === 1 ? (this.#pending[0] as Buffer) : Buffer.concat(this.#pending, this.#pendingBytes);
    this.#parts.push(part);
    this.crc = continueChecksum(this.crc, part);
    this.length += part.length;
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  async #pause(): Promise<void> {
    if (performance.now() - this.#since < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.#since = performance.now();
  }
}

/**
 * The values from..to of a captured string column as msgpack strs, as msgpackr writes them (the
 * shortest header for the UTF-8 length): ASCII values copied from the arena's bytes, any other value
 * (rare) encoded by msgpackr itself, so the bytes are the same as one `encode` of the strings.
 */
function packStrings(values: CapturedStrings, from: number, to: number): Buffer {
  const lengths = new Int32Array(to - from);
  const others: Buffer[] = [];
  let size = 0;
  for (let k = from; k < to; k++) {
    const n = values.asciiLength(k);
    lengths[k - from] = n;
    if (n >= 0) size += strHeaderLength(n) + n;
    else size += (others[others.push(encode(values.value(k))) - 1] as Buffer).length;
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  let other = 0;
  for (let k = from; k < to; k++) {
    const n = lengths[k - from] as number;
    if (n < 0) {
      at += (others[other++] as Buffer).copy(out, at);
      continue;
    }
    if (n < 0x20) out[at++] = 0xa0 | n;
    else if (n < 0x100) {
      out[at++] = 0xd9;
      out[at++] = n;
    } else if (n < 0x10000) {
      out[at++] = 0xda;
      at = out.writeUInt16BE(n, at);
    } else {
      out[at++] = 0xdb;
      at = out.writeUInt32BE(n, at);
    }
    values.copyAscii(k, out, at);
    at += n;
  }
  return out;
}

/** Bytes of the shortest msgpack str header for `n` bytes of UTF-8. */
function strHeaderLength(n: number): number {
  return n < 0x20 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : 5;
}

/** As msgpackr writes an array's: fixarray, array16 or array32. */
function arrayHeader(n: number): Buffer {
  return n < 16 ? Buffer.of(0x90 | n) : sizedHeader(0xdc, n);
}

/** A msgpack map16/array16 (n < 2^16) or map32/array32 header: `code` is the 16-bit form's. */
function sizedHeader(code: 0xde | 0xdc, n: number): Buffer {
  if (n >= 0x10000) {
    const head = Buffer.alloc(5);
    head[0] = code + 1;
    head.writeUInt32BE(n, 1);
    return head;
  }
  const head = Buffer.alloc(3);
  head[0] = code;
  head.writeUInt16BE(n, 1);
  return head;
}

/** Bytes of the array header starting with `first` (fixarray, array16, array32). */
function arrayHeaderLength(first: number): number {
  if ((first & 0xf0) === 0x90) return 1;
  if (first === 0xdc) return 3;
  if (first === 0xdd) return 5;
  throw new Error(`not a msgpack array header: 0x${first.toString(16)}`);
}

/** Writes the parts as snapshot `lsn` (tmp, fsync, rename, fsync dir); returns its path and size. */
export async function writeSnapshotFile(io: FileIo, dir: string, lsn: number, parts: readonly Buffer[]): Promise<{ path: string; bytes: number }> {
  const bytes = await writeSnapshotTmp(io, dir, lsn, parts);
  return { path: await publishSnapshotTmp(io, dir, lsn), bytes };
}

/** Writes and fsyncs `<snapshot lsn>.tmp` (removed again on failure); returns its size. */
export async function writeSnapshotTmp(io: FileIo, dir: string, lsn: number, parts: readonly Uint8Array[]): Promise<number> {
  const tmp = `${join(dir, snapshotFileName(lsn))}.tmp`;
  const fd = io.open(tmp, 'create');
  let bytes = 0;
  try {
    for (const part of parts) {
      io.write(fd, part, bytes);
      bytes += part.length;
      await new Promise((resolve) => setImmediate(resolve)); // one part (~1 MiB) per turn of the event loop
    }
    await io.fsync(fd);
  } catch (error) {
    io.close(fd);
    tryUnlink(io, tmp);
    throw error;
  }
  io.close(fd);
  return bytes;
}

/** Renames the written `.tmp` to snapshot `lsn` and makes that durable (fsync dir); returns its path. */
export async function publishSnapshotTmp(io: FileIo, dir: string, lsn: number): Promise<string> {
  const path = join(dir, snapshotFileName(lsn));
  try {
    io.rename(`${path}.tmp`, path);
  } catch (error) {
    tryUnlink(io, `${path}.tmp`);
    throw error;
  }
  await io.fsyncDir(dir);
  return path;
}

/** Best effort (a leftover .tmp is never loaded and is removed on the next start). */
export function removeSnapshotTmp(io: FileIo, dir: string, lsn: number): void {
  tryUnlink(io, `${join(dir, snapshotFileName(lsn))}.tmp`);
}

/** Reads just the header (checked), for listings. */
export function readSnapshotHeader(bytes: Buffer, file: string): { header: SnapshotHeader; bodyOffset: number } {
  if (bytes.length < 20) throw new SnapshotError(file, bytes.length, `file too short (${bytes.length} bytes)`);
  if (!bytes.subarray(0, 8).equals(SNAPSHOT_MAGIC)) throw new SnapshotError(file, 0, 'bad magic');
  const version = bytes.readUInt32LE(8);
  if (!READABLE_VERSIONS.includes(version)) throw new SnapshotError(file, 8, `unsupported format version ${version}`);
  const headerLength = bytes.readUInt32LE(12);
  const crcAt = 16 + headerLength;
  if (crcAt + 4 > bytes.length) throw new SnapshotError(file, bytes.length, 'truncated inside the header');
  if (checksum(bytes.subarray(0, crcAt)) !== bytes.readUInt32LE(crcAt)) throw new SnapshotError(file, 16, 'header checksum mismatch');
  const header = decode(bytes.subarray(16, crcAt)) as SnapshotHeader;
  return { header, bodyOffset: crcAt + 4 };
}

/** Reads and checks a whole snapshot file; throws SnapshotError naming the offset of the damage. */
export function readSnapshotFile(io: FileIo, dir: string, lsn: number): { header: SnapshotHeader; content: SnapshotContent } {
  const file = join(dir, snapshotFileName(lsn));
  const bytes = io.readFile(file);
  const { header, bodyOffset } = readSnapshotHeader(bytes, file);
  const end = bodyOffset + header.bodyLength;
  if (bytes.length < end) throw new SnapshotError(file, bytes.length, `truncated: ${end - bytes.length} bytes of the body are missing`);
  if (bytes.length > end) throw new SnapshotError(file, end, `${bytes.length - end} bytes of trailing garbage`);
  const body = bytes.subarray(bodyOffset, end);
  if (checksum(body) !== header.bodyCrc) throw new SnapshotError(file, bodyOffset, 'body checksum mismatch');
  if (header.lsn !== lsn) throw new SnapshotError(file, 16, `header says LSN ${header.lsn}, the name says ${lsn}`);
  const decoded = decode(body) as { schema: string | null; store: StoreSnapshot; persistedQueries?: unknown; acl?: unknown };
  if (schemaHash(decoded.schema) !== header.schemaHash) throw new SnapshotError(file, bodyOffset, 'schema hash mismatch');
  const persistedQueries = decoded.persistedQueries ?? [];
  if (!isPairList(persistedQueries)) throw new SnapshotError(file, bodyOffset, 'persisted queries are not [sha256, query] pairs');
  const acl = decoded.acl ?? null;
  if (acl !== null && !isAclState(acl)) throw new SnapshotError(file, bodyOffset, 'the ACL data is not users and groups');
  const problem = storedPostingsProblem(decoded.store);
  if (problem !== undefined) throw new SnapshotError(file, bodyOffset, problem);
  return { header, content: { lsn, schema: decoded.schema, store: decoded.store, persistedQueries, acl } };
}

/** The stored postings are loaded as they are (checked here, before anything is): a broken one refuses the file. */
function storedPostingsProblem(store: StoreSnapshot): string | undefined {
  for (const col of store.scalars) {
    const postings: unknown = col.postings;
    if (postings === undefined) continue;
    if (!Array.isArray(postings)) return `the postings of ${col.predicate} are not a list`;
    const kinds = new Set<unknown>();
    for (const p of postings as IndexPostings[]) {
      if (!col.indexKinds.includes(p.kind) || kinds.has(p.kind)) return `postings of ${col.predicate} for an index it does not have (${String(p.kind)}), or twice`;
      kinds.add(p.kind);
      const problem = postingsProblem(p, store.nextId);
      if (problem !== undefined) return `the ${p.kind} postings of ${col.predicate}: ${problem}`;
    }
  }
  return undefined;
}

function isPairList(value: unknown): value is [string, string][] {
  return Array.isArray(value) && value.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && typeof pair[1] === 'string');
}

function tryUnlink(io: FileIo, path: string): void {
  try {
    io.unlink(path);
  } catch {
    // best effort: a leftover .tmp is never loaded and is removed on the next start
  }
}
