// A plain-array column's values at one moment (geo, vectors, lists, mixed values): the array of values
// by id copied at once (a copy of its slots: stored values are replaced, never changed in place), the
// ids having one and their values in id order found later, while the snapshot is encoded.
// Building the id-ordered arrays at capture (a call per value) held the event loop ~0.5 s per column at 1M.

/**
 * Told of each typed-array copy a capture makes, right after it is made (the snapshot's encoder transfers
 * it to its thread at once: ~90 MB of copies at 1M, held until the end of the capture, crossed V8's
 * external-memory limit and started a major GC of the engine's heap). The copy may be detached afterwards.
 */
export type CaptureSink = (copy: Int32Array | Uint8Array | Uint16Array | Float64Array) => void;

export class CapturedValues<V> {
  #ids: Int32Array | undefined;

  constructor(private readonly byId: readonly (V | undefined)[]) {}

  /** Slots (ids 0..slots-1) that may hold a value. */
  get slots(): number {
    return this.byId.length;
  }

  /** The value of slot `id` (undefined: none). */
  at(id: number): V | undefined {
    return this.byId[id];
  }

  /** Ascending ids having a value (found when first asked). */
  get ids(): Int32Array {
    if (this.#ids !== undefined) return this.#ids;
    const byId = this.byId;
    let count = 0;
    for (let id = 0; id < byId.length; id++) if (byId[id] !== undefined) count++;
    const ids = new Int32Array(count);
    for (let id = 0, k = 0; id < byId.length; id++) if (byId[id] !== undefined) ids[k++] = id;
    return (this.#ids = ids);
  }

  get length(): number {
    return this.ids.length;
  }

  /** The values of ids[from..to). */
  slice(from: number, to: number): V[] {
    const ids = this.ids;
    const out: V[] = [];
    for (let k = from; k < Math.min(to, ids.length); k++) out.push(this.byId[ids[k] as number] as V);
    return out;
  }
}
