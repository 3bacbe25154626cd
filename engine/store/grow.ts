// Growth of dense per-node typed arrays.

/** A copy of `a` with room for index `id` (grows by 1.5×, at least 1024). */
export function grownInt32(a: Int32Array, id: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(newCapacity(a.length, id));
  next.set(a);
  return next;
}

export function grownUint8(a: Uint8Array, id: number): Uint8Array<ArrayBuffer> {
  const next = new Uint8Array(newCapacity(a.length, id));
  next.set(a);
  return next;
}

export function grownFloat64(a: Float64Array, id: number): Float64Array<ArrayBuffer> {
  const next = new Float64Array(newCapacity(a.length, id));
  next.set(a);
  return next;
}

function newCapacity(current: number, id: number): number {
  return Math.max(id + 1, Math.ceil(current * 1.5), 1024);
}
