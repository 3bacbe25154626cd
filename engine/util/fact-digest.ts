// An order-free 64-bit digest of a set of facts: each fact (a short sequence of ints, strings, numbers,
// values) is hashed on its own into two independent 32-bit lanes (murmur3-style mixing, two seeds), and
// the fact hashes are summed per lane mod 2^32. A sum does not depend on the order facts are visited in,
// and a fact could be taken out again by subtracting its hash (what an incremental digest would do).

const SEED_A = 0x9747b28c;
const SEED_B = 0x2f6a8b1d;
const M_A = 0xcc9e2d51;
const M_B = 0x1b873593;

const f64 = new Float64Array(1);
const f64Words = new Uint32Array(f64.buffer);

function mix(h: number, k: number, m: number): number {
  k = Math.imul(k, m);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, m ^ 0x5bd1e995);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class FactDigest {
  #sumA = 0;
  #sumB = 0;
  #a = SEED_A;
  #b = SEED_B;

  /** Starts a fact; `tag` says what kind of fact it is (a node, a value, an edge, ...). */
  begin(tag: number): this {
    this.#a = SEED_A;
    this.#b = SEED_B;
    return this.int(tag);
  }

  /** A 32-bit integer part (ids, tags, lengths). */
  int(n: number): this {
    this.#a = mix(this.#a, n | 0, M_A);
    this.#b = mix(this.#b, n | 0, M_B);
    return this;
  }

  /** A string part (length first, so concatenations differ). */
  str(s: string): this {
    const n = s.length;
    this.int(n);
    let i = 0;
    for (; i + 1 < n; i += 2) this.int((s.charCodeAt(i) << 16) | s.charCodeAt(i + 1));
    if (i < n) this.int(s.charCodeAt(i));
    return this;
  }

  /** A float64 part, bit for bit (so -0 differs from 0); every NaN counts as one. */
  num(x: number): this {
    f64[0] = Number.isNaN(x) ? NaN : x;
    return this.int(f64Words[0] as number).int(f64Words[1] as number);
  }

  /** Ends the fact: adds its hash to the sums. */
  end(): void {
    this.#sumA = (this.#sumA + finish(this.#a)) >>> 0;
    this.#sumB = (this.#sumB + finish(this.#b)) >>> 0;
  }

  /** The 64 bits as 16 lowercase hex digits. */
  hex(): string {
    return this.#sumA.toString(16).padStart(8, '0') + this.#sumB.toString(16).padStart(8, '0');
  }
}

/** A 32-bit hash of a string: a name mixed into many facts (a predicate) as one int instead of its characters. */
export function nameKey(name: string): number {
  let h = SEED_A ^ name.length;
  for (let i = 0; i < name.length; i++) h = mix(h, name.charCodeAt(i), M_A);
  return finish(h);
}
