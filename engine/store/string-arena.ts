// One string per node id, packed into byte blocks: Latin-1 text at one byte per character, anything
// else as UTF-16. A million short strings as JS strings cost a 16-byte header, alignment and an 8-byte
// array slot each, and they fragment the heap they are promoted into; here they cost their bytes plus
// 8 bytes of position and length, outside the JS heap. Reads decode a fresh string (tens of ns).
//
// Blocks have a fixed size and are never copied to grow: growth by copy leaves freed buffers behind
// in the allocator, which stay resident. Replaced or deleted values leave dead bytes behind; the
// blocks are rewritten when dead bytes outweigh the live ones. Bytes once written never change (values
// are appended; compaction writes fresh blocks), so a capture shares the blocks and copies only the table.
// Blocks are SharedArrayBuffers so that sharing reaches the snapshot's encoder thread without a copy.

import { grownInt32 } from './grow.js';
import type { JsonBytes } from '../util/json-bytes.js';
import type { CaptureSink } from './captured-values.js';

/** Node's own Buffer codecs, without the argument checks of toString/write. */
interface RawBuffer extends Buffer {
  latin1Slice(start: number, end: number): string;
  ucs2Slice(start: number, end: number): string;
  latin1Write(text: string, offset: number): number;
  ucs2Write(text: string, offset: number): number;
}

/** Any UTF-16 code unit above 0xFF (surrogates included). */
const notLatin1 = /[\u0100-\uffff]/;
/** Text JSON takes as it is: printable ASCII without '"' and '\\'. */
const plainJson = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** In a Latin-1 length word: the value is plainJson (written to JSON by a straight copy). */
const PLAIN = 1 << 30;
const LENGTH = PLAIN - 1;
const BLOCK_SHIFT = 20;
/** 1 MiB: a value never straddles two blocks. */
const BLOCK_SIZE = 1 << BLOCK_SHIFT;
/** Offsets are Uint32 (block number and position): a column's blocks stay under 4 GiB. */
const MAX_BLOCKS = 0x100000000 / BLOCK_SIZE;
const COMPACT_MIN_BYTES = 4 * BLOCK_SIZE;

export class StringArena {
  private blocks: RawBuffer[] = [];
  /** A DataView per block, for copying 4 bytes at a time into JSON output. */
  private views: DataView[] = [];
  /** Write position in the last block. */
  private fill = BLOCK_SIZE;
  private live = 0;
  private dead = 0;
  /**
   * Per id, side by side (one cache line per read): [2 id] the position (block * BLOCK_SIZE + offset,
   * as Uint32 bits) and [2 id + 1] the length: 0 = no value; n > 0 = Latin-1 of (n & LENGTH) - 1
   * bytes, plain JSON text if n & PLAIN; n < 0 = UTF-16 of -n - 1 code units.
   */
  private meta = new Int32Array(0);

  /** Bytes held: the blocks plus the per-id table. */
  get bytes(): number {
    let bytes = this.meta.byteLength;
    for (const block of this.blocks) bytes += block.length;
    return bytes;
  }

  get(id: number): string | undefined {
    return valueOf(this.blocks, this.meta, id);
  }

  /** The values as they are now, unchanged by later writes (for a snapshot encoded while the store goes on). */
  capture(sink?: CaptureSink): CapturedStrings {
    const meta = this.meta.slice();
    sink?.(meta);
    return new CapturedStrings(this.blocks.slice(), meta);
  }

  /**
   * Writes the value of `id` as a JSON string; false if there is none. Plain ASCII (the common case,
   * known since `set`) is copied as bytes with no string decoded; anything else goes through `get`.
   */
  writeJson(id: number, out: JsonBytes): boolean {
    const n = this.meta[2 * id + 1];
    if (n === undefined || n === 0) return false;
    // (A UTF-16 word is negative, and a negative word has the PLAIN bit set.)
    if (n < 0 || (n & PLAIN) === 0) {
      out.string(this.get(id) as string);
      return true;
    }
    const s = (this.meta[2 * id] as number) >>> 0;
    out.quoted(this.views[s >>> BLOCK_SHIFT] as DataView, s & (BLOCK_SIZE - 1), charsOf(n));
    return true;
  }

  /** Whether `id` holds exactly `text`, compared in place (no string is decoded). */
  equals(id: number, text: string): boolean {
    const n = this.meta[2 * id + 1];
    if (n === undefined || n === 0) return false;
    const chars = charsOf(n);
    if (chars !== text.length) return false;
    if (chars === 0) return true;
    const s = (this.meta[2 * id] as number) >>> 0;
    const block = this.blocks[s >>> BLOCK_SHIFT] as RawBuffer;
    let at = s & (BLOCK_SIZE - 1);
    if (n > 0) {
      for (let i = 0; i < chars; i++) if (block[at + i] !== text.charCodeAt(i)) return false;
      return true;
    }
    for (let i = 0; i < chars; i++, at += 2) if (((block[at] as number) | ((block[at + 1] as number) << 8)) !== text.charCodeAt(i)) return false;
    return true;
  }

  has(id: number): boolean {
    const n = this.meta[2 * id + 1];
    return n !== undefined && n !== 0;
  }

  /** Stores `text` for `id`; false (and nothing stored) when the arena would pass its size limit. */
  set(id: number, text: string): boolean {
    const wide = notLatin1.test(text);
    const size = wide ? 2 * text.length : text.length;
    if (this.fill + size > BLOCK_SIZE && this.blocks.length >= MAX_BLOCKS) return false;
    this.delete(id);
    if (2 * id + 1 >= this.meta.length) this.meta = grownInt32(this.meta, 2 * id + 1);
    this.meta[2 * id + 1] = wide ? -text.length - 1 : (text.length + 1) | (plainJson.test(text) ? PLAIN : 0);
    if (size === 0) return true; // the empty string takes no bytes (get answers it from the length alone)
    if (this.fill + size > BLOCK_SIZE) this.newBlock(size);
    const block = this.blocks[this.blocks.length - 1] as RawBuffer;
    if (wide) block.ucs2Write(text, this.fill);
    else block.latin1Write(text, this.fill);
    this.meta[2 * id] = (this.blocks.length - 1) * BLOCK_SIZE + this.fill;
    this.fill += size;
    this.live += size;
    return true;
  }

  delete(id: number): void {
    const n = this.meta[2 * id + 1];
    if (n === undefined || n === 0) return;
    const size = byteSize(n);
    this.live -= size;
    this.dead += size;
    this.meta[2 * id + 1] = 0;
    if (this.dead > COMPACT_MIN_BYTES && this.dead > this.live) this.compact();
  }

  /** Calls `fn` for every (value, id) in ascending id order. */
  forEach(fn: (value: string, id: number) => void): void {
    const meta = this.meta;
    for (let id = 0; 2 * id + 1 < meta.length; id++) {
      if (meta[2 * id + 1] !== 0) fn(this.get(id) as string, id);
    }
  }

  /** A value larger than a block gets a block of its own size (and the next value a new block). */
  private newBlock(size: number): void {
    const block = Buffer.from(new SharedArrayBuffer(Math.max(BLOCK_SIZE, size))) as RawBuffer;
    this.blocks.push(block);
    this.views.push(new DataView(block.buffer, block.byteOffset, block.byteLength));
    this.fill = 0;
  }

  /** Rewrites the live values contiguously (in id order) into fresh blocks. */
  private compact(): void {
    const old = this.blocks;
    const meta = this.meta;
    this.blocks = [];
    this.views = [];
    this.fill = BLOCK_SIZE;
    for (let id = 0; 2 * id + 1 < meta.length; id++) {
      const size = byteSize(meta[2 * id + 1] as number);
      if (size <= 0) continue;
      const s = (meta[2 * id] as number) >>> 0;
      const at = s & (BLOCK_SIZE - 1);
      if (this.fill + size > BLOCK_SIZE) this.newBlock(size);
      (old[s >>> BLOCK_SHIFT] as RawBuffer).copy(this.blocks[this.blocks.length - 1] as RawBuffer, this.fill, at, at + size);
      meta[2 * id] = (this.blocks.length - 1) * BLOCK_SIZE + this.fill;
      this.fill += size;
    }
    this.dead = 0;
  }
}

/** A StringArena's values at one moment, as the ids having one and the strings read a slice at a time. */
export class CapturedStrings {
  #ids: Int32Array | undefined;

  constructor(
    private readonly blocks: readonly RawBuffer[],
    private readonly meta: Int32Array,
  ) {}

  /** What another thread needs to read the same values: the shared blocks and the table (a copy: transferable). */
  parts(): { readonly blocks: readonly Uint8Array[]; readonly meta: Int32Array } {
    return { blocks: this.blocks, meta: this.meta };
  }

  /** The values from `parts()` received by another thread (blocks arrive as plain Uint8Arrays). */
  static fromParts(parts: { readonly blocks: readonly Uint8Array[]; readonly meta: Int32Array }): CapturedStrings {
    const blocks = parts.blocks.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength) as RawBuffer);
    return new CapturedStrings(blocks, parts.meta);
  }

  /** Ascending ids having a value (found when first asked: the capture itself only copies the table). */
  get ids(): Int32Array {
    if (this.#ids !== undefined) return this.#ids;
    const meta = this.meta;
    let count = 0;
    for (let id = 0; 2 * id + 1 < meta.length; id++) if (meta[2 * id + 1] !== 0) count++;
    const ids = new Int32Array(count);
    for (let id = 0, k = 0; 2 * id + 1 < meta.length; id++) if (meta[2 * id + 1] !== 0) ids[k++] = id;
    return (this.#ids = ids);
  }

  get length(): number {
    return this.ids.length;
  }

  /** The values of ids[from..to). */
  slice(from: number, to: number): string[] {
    const out: string[] = [];
    for (let k = from; k < Math.min(to, this.ids.length); k++) out.push(this.value(k));
    return out;
  }

  /** The value of ids[k]. */
  value(k: number): string {
    return valueOf(this.blocks, this.meta, this.ids[k] as number) as string;
  }

  /**
   * Bytes of the value of ids[k] when it is ASCII (then its bytes are its UTF-8, and an encoder copies
   * them without decoding a string); -1 otherwise.
   */
  asciiLength(k: number): number {
    const id = this.ids[k] as number;
    const n = this.meta[2 * id + 1] as number;
    if (n < 0) return -1;
    const chars = charsOf(n);
    if ((n & PLAIN) !== 0 || chars === 0) return chars;
    const s = (this.meta[2 * id] as number) >>> 0;
    const block = this.blocks[s >>> BLOCK_SHIFT] as RawBuffer;
    const at = s & (BLOCK_SIZE - 1);
    for (let i = at; i < at + chars; i++) if ((block[i] as number) >= 0x80) return -1;
    return chars;
  }

  /** Copies the bytes of the value of ids[k] (ASCII: asciiLength(k) ≥ 0) into `target` at `offset`. */
  copyAscii(k: number, target: Uint8Array, offset: number): void {
    const id = this.ids[k] as number;
    const chars = charsOf(this.meta[2 * id + 1] as number);
    if (chars === 0) return;
    const s = (this.meta[2 * id] as number) >>> 0;
    const at = s & (BLOCK_SIZE - 1);
    const block = this.blocks[s >>> BLOCK_SHIFT] as RawBuffer;
    // Buffer#copy checks its arguments on every call: a loop is faster for the short values most are.
    if (chars > 64) block.copy(target, offset, at, at + chars);
    else for (let i = 0; i < chars; i++) target[offset + i] = block[at + i] as number;
  }
}

function valueOf(blocks: readonly RawBuffer[], meta: Int32Array, id: number): string | undefined {
  const n = meta[2 * id + 1];
  if (n === undefined || n === 0) return undefined;
  const chars = charsOf(n);
  if (chars === 0) return '';
  const s = (meta[2 * id] as number) >>> 0;
  const block = blocks[s >>> BLOCK_SHIFT] as RawBuffer;
  const at = s & (BLOCK_SIZE - 1);
  return n > 0 ? block.latin1Slice(at, at + chars) : block.ucs2Slice(at, at + 2 * chars);
}

/** Characters of a stored value, from its (non-zero) length word: Latin-1 words carry the PLAIN bit. */
function charsOf(n: number): number {
  return n > 0 ? (n & LENGTH) - 1 : -n - 1;
}

/** Bytes a stored value takes, from its length word. */
function byteSize(n: number): number {
  return n > 0 ? charsOf(n) : 2 * charsOf(n);
}
