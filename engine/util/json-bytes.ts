// JSON text written as UTF-8 bytes into one growing buffer, for answers written straight from the
// store: a response leaves as these bytes, with no JS string to build, flatten and encode again
// at the socket, and stored Latin-1 text is copied byte for byte (StringArena.writeJson).
// Answers are written one after another into a slab and handed out as views of it (no copy): a new
// answer starts where the last one ended, and a full slab is left to the answers that still view it.

/** Node's own Buffer codecs, without the argument checks of write(). */
interface RawBuffer extends Buffer {
  latin1Write(text: string, offset: number): number;
  utf8Write(text: string, offset: number): number;
}

const QUOTE = 0x22;
const initialBytes = 64 * 1024;
/** A buffer grown past this is dropped after its answer, so one huge answer does not stay resident. */
const keptBytes = 1024 * 1024;

/** Thrown when writing would take the text past `JsonBytes.limit`; `size` is where it would have reached. */
export class ByteLimitExceeded extends Error {
  constructor(readonly size: number) {
    super(`JSON text over its byte limit at ${size} bytes`);
  }
}
// eslint-disable-next-line no-control-regex -- the control characters are exactly what JSON escapes
const needsEscape = /[\u0000-\u001f"\\\ud800-\udfff]/;

export class JsonBytes {
  #buf = Buffer.allocUnsafeSlow(initialBytes) as RawBuffer;
  /** Over #buf, for copying 4 bytes at a time (`quoted`). */
  #view = viewOf(this.#buf);
  /** Where the answer being written starts in #buf (the bytes before it were handed out by `finish`). */
  #start = 0;
  #pos = 0;
  /**
   * Most bytes the text may reach (the answer-size cap), checked where `reserve` already checks the
   * buffer's end, so it costs nothing per write. Reservations are upper bounds (3 bytes a character
   * for text), so the limit may trip up to one value's reservation early.
   */
  #limit = Infinity;
  /** Where `reserve` must look again: the buffer's end or the limit (from #start), whichever comes first. */
  #end = this.#buf.length;

  get limit(): number {
    return this.#limit;
  }

  set limit(bytes: number) {
    this.#limit = bytes;
    this.#end = Math.min(this.#buf.length, this.#start + bytes);
  }

  get length(): number {
    return this.#pos - this.#start;
  }

  /** Starts the answer over (empty). */
  reset(): void {
    this.#pos = this.#start;
  }

  /** Room for `n` more bytes. */
  reserve(n: number): RawBuffer {
    if (this.#pos + n > this.#end) this.#grow(this.#pos + n);
    return this.#buf;
  }

  #grow(need: number): void {
    const size = need - this.#start;
    if (size > this.#limit) throw new ByteLimitExceeded(size);
    if (need > this.#buf.length) {
      // A new slab, with the answer so far moved to its start (the old one stays with its views).
      const next = Buffer.allocUnsafeSlow(Math.max(Math.min(2 * size, this.#limit), size, initialBytes)) as RawBuffer;
      this.#buf.copy(next, 0, this.#start, this.#pos);
      this.#buf = next;
      this.#view = viewOf(next);
      this.#pos -= this.#start;
      this.#start = 0;
    }
    this.#end = Math.min(this.#buf.length, this.#start + this.#limit);
  }

  byte(code: number): void {
    this.reserve(1)[this.#pos++] = code;
  }

  /** Bytes already encoded (keys and punctuation written once per plan). */
  bytes(bytes: Uint8Array): void {
    const buf = this.reserve(bytes.length);
    const at = this.#pos;
    for (let i = 0; i < bytes.length; i++) buf[at + i] = bytes[i] as number;
    this.#pos = at + bytes.length;
  }

  /**
   * `length` bytes at `from` in `source` between quotes: text that needs no escaping (printable
   * ASCII without '"' and '\\'). Four bytes per step: a byte loop costs ~1.4 ns a byte, a native
   * copy ~50 ns a call, and most stored strings are 10-60 bytes.
   */
  quoted(source: DataView, from: number, length: number): void {
    const buf = this.reserve(length + 2);
    buf[this.#pos] = QUOTE;
    this.#copy(buf, this.#pos + 1, source, from, length);
    buf[this.#pos + 1 + length] = QUOTE;
    this.#pos += length + 2;
  }

  /** Bytes written once per plan (keys with their punctuation), copied like `quoted`'s text. */
  chunk(chunk: ByteChunk): void {
    const buf = this.reserve(chunk.length);
    this.#copy(buf, this.#pos, chunk.view, 0, chunk.length);
    this.#pos += chunk.length;
  }

  #copy(buf: RawBuffer, at: number, source: DataView, from: number, length: number): void {
    const view = this.#view;
    let i = 0;
    // Two words a step: a quarter less time than one for 12-100 bytes.
    for (; i + 8 <= length; i += 8) {
      const low = source.getUint32(from + i, true);
      const high = source.getUint32(from + i + 4, true);
      view.setUint32(at + i, low, true);
      view.setUint32(at + i + 4, high, true);
    }
    if (i + 4 <= length) {
      view.setUint32(at + i, source.getUint32(from + i, true), true);
      i += 4;
    }
    for (; i < length; i++) buf[at + i] = source.getUint8(from + i);
  }

  /** Text known to be ASCII: numbers, literals, uids. */
  ascii(text: string): void {
    const n = text.length;
    const buf = this.reserve(n);
    // Short text (the usual case) is cheaper copied here than through a native call.
    if (n > 32) {
      this.#pos += buf.latin1Write(text, this.#pos);
      return;
    }
    const at = this.#pos;
    for (let i = 0; i < n; i++) buf[at + i] = text.charCodeAt(i);
    this.#pos = at + n;
  }

  /**
   * A number as JSON.stringify writes it (`null` when not finite). Integers of 31 bits (counts, Int
   * fields) are written digit by digit: no string is made.
   */
  number(value: number): void {
    if ((value | 0) !== value || value === -0x80000000) {
      if (!this.#decimal(value)) this.ascii(Number.isFinite(value) ? String(value) : 'null');
      return;
    }
    let v = value;
    let digits = 1;
    if (v < 0) {
      this.byte(0x2d); // -
      v = -v;
    }
    for (let t = v; t >= 10; t = (t / 10) | 0) digits++;
    const buf = this.reserve(digits);
    for (let at = this.#pos + digits - 1; at >= this.#pos; at--) {
      const next = (v / 10) | 0;
      buf[at] = 0x30 + v - next * 10;
      v = next;
    }
    this.#pos += digits;
  }

  /**
   * A number below 1e6 in magnitude with at most 6 decimals (coordinates, ratings), digit by digit:
   * String() of a double costs several times more. When m / 1e6 gives the value back, m·10^-6 with its
   * trailing zeros dropped is the shortest decimal that reads back as it (another m is 10^-6 away, far
   * more than the value's precision below 1e6), so it is String()'s digits. False when it does not apply.
   */
  #decimal(value: number): boolean {
    const v = value < 0 ? -value : value;
    if (!(v >= 1e-6 && v < 1e6)) return false;
    const m = Math.round(v * 1e6);
    if (m / 1e6 !== v) return false;
    const int = Math.floor(v);
    let frac = m - int * 1e6; // below 1e6, not 0 (v is no integer): 31-bit arithmetic from here
    let digits = 6;
    while (frac % 10 === 0) {
      frac = (frac / 10) | 0;
      digits--;
    }
    if (value < 0) this.byte(0x2d); // -
    this.number(int);
    const buf = this.reserve(digits + 1);
    const at = this.#pos;
    buf[at] = 0x2e; // .
    for (let k = digits; k >= 1; k--) {
      const next = (frac / 10) | 0;
      buf[at + k] = 0x30 + frac - next * 10;
      frac = next;
    }
    this.#pos = at + digits + 1;
    return true;
  }

  /** `"0x…"`: a non-negative safe integer in lowercase hex, quoted (GraphStore.uidOf's form of a uid). */
  quotedHex(value: number): void {
    let digits = 1;
    for (let t = value; t >= 16; t = Math.floor(t / 16)) digits++;
    const buf = this.reserve(digits + 4);
    const at = this.#pos;
    buf[at] = QUOTE;
    buf[at + 1] = 0x30; // 0
    buf[at + 2] = 0x78; // x
    let v = value;
    for (let i = at + 2 + digits; i > at + 2; i--) {
      const d = v % 16;
      buf[i] = d < 10 ? 0x30 + d : 0x57 + d;
      v = (v - d) / 16;
    }
    buf[at + 3 + digits] = QUOTE;
    this.#pos = at + 4 + digits;
  }

  /** Text that is already JSON (any characters). */
  json(text: string): void {
    const buf = this.reserve(3 * text.length); // first: a new slab moves #pos
    this.#pos += buf.utf8Write(text, this.#pos);
  }

  /** A string value, quoted and escaped as JSON.stringify does. */
  string(text: string): void {
    if (needsEscape.test(text)) {
      this.json(JSON.stringify(text));
      return;
    }
    const buf = this.reserve(3 * text.length + 2);
    buf[this.#pos++] = QUOTE;
    this.#pos += buf.utf8Write(text, this.#pos);
    buf[this.#pos++] = QUOTE;
  }

  /** The answer written: a view of its bytes, never written again (the next answer starts after it). */
  finish(): Buffer {
    const answer = this.#buf.subarray(this.#start, this.#pos);
    this.#start = this.#pos;
    return answer;
  }

  /** Drops an unfinished answer and lets a large buffer go (a reused writer must not pin its largest answer). */
  release(): void {
    this.#pos = this.#start;
    if (this.#buf.length <= keptBytes) return;
    this.#buf = Buffer.allocUnsafeSlow(initialBytes) as RawBuffer;
    this.#view = viewOf(this.#buf);
    this.#start = this.#pos = 0;
    this.#end = Math.min(this.#buf.length, this.#limit);
  }
}

/** The UTF-8 bytes of ASCII text, for `JsonBytes.bytes`. */
export const asciiBytes = (text: string): Uint8Array => Buffer.from(text, 'latin1');

/** ASCII text encoded once, for `JsonBytes.chunk`. */
export interface ByteChunk {
  readonly view: DataView;
  readonly length: number;
}

export function asciiChunk(text: string): ByteChunk {
  return { view: viewOf(Buffer.from(text, 'latin1')), length: text.length };
}

function viewOf(buf: Buffer): DataView {
  return new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
}
