// The points of a geo index, in a one-level lng/lat grid of GRID_LEVEL cells (1.40625° × 0.703125°,
// about 156 km × 78 km at the equator; levels 9 and 10 measured slower for 150 km circles at 100k–1M
// points: more buckets to look up and less cache locality) whose buckets hold coordinates and ids in typed arrays. A query
// box visits the buckets of the cells it meets (or every bucket, when fewer), tests each point against
// the box with two comparisons and only then runs the exact test: no object, set or array per
// candidate. Points are never shapes spanning cells, so each (id, point) sits in exactly one bucket.
// (Polygons keep the multi-level cells of geo-index.ts.)

import type { BBox } from './geo-geometry.js';

const GRID_LEVEL = 8;
const CELLS = 2 ** GRID_LEVEL;

class Bucket {
  n = 0;
  lng = new Float64Array(8);
  lat = new Float64Array(8);
  ids = new Int32Array(8);

  push(lng: number, lat: number, id: number): void {
    if (this.n === this.ids.length) {
      const size = this.n * 2;
      this.lng = grown(this.lng, size);
      this.lat = grown(this.lat, size);
      const ids = new Int32Array(size);
      ids.set(this.ids);
      this.ids = ids;
    }
    this.lng[this.n] = lng;
    this.lat[this.n] = lat;
    this.ids[this.n++] = id;
  }

  /** Swap-removes one entry of (lng, lat, id); false if none. */
  remove(lng: number, lat: number, id: number): boolean {
    for (let i = 0; i < this.n; i++) {
      if (this.ids[i] !== id || !Object.is(this.lng[i], lng) || !Object.is(this.lat[i], lat)) continue;
      const last = --this.n;
      this.lng[i] = this.lng[last] as number;
      this.lat[i] = this.lat[last] as number;
      this.ids[i] = this.ids[last] as number;
      return true;
    }
    return false;
  }
}

function grown(a: Float64Array, size: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(size);
  b.set(a);
  return b;
}

function cellX(lng: number): number {
  return Math.min(CELLS - 1, Math.max(0, Math.floor(((lng + 180) / 360) * CELLS)));
}

function cellY(lat: number): number {
  return Math.min(CELLS - 1, Math.max(0, Math.floor(((lat + 90) / 180) * CELLS)));
}

export class GeoPointGrid {
  private readonly buckets = new Map<number, Bucket>();
  size = 0;

  add(lng: number, lat: number, id: number): void {
    const key = cellY(lat) * CELLS + cellX(lng);
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = new Bucket();
      this.buckets.set(key, bucket);
    }
    bucket.push(lng, lat, id);
    this.size++;
  }

  remove(lng: number, lat: number, id: number): void {
    const key = cellY(lat) * CELLS + cellX(lng);
    const bucket = this.buckets.get(key);
    if (bucket === undefined || !bucket.remove(lng, lat, id)) return;
    this.size--;
    if (bucket.n === 0) this.buckets.delete(key);
  }

  /**
   * Points in the buckets `boxes` meet (every point inside them is there: an upper bound of any
   * selection) and about how many lie inside the boxes (each bucket's count times the share of its
   * cell the box covers), read from bucket sizes only: for choosing an access path.
   */
  count(boxes: readonly BBox[]): { readonly upper: number; readonly inside: number } {
    let upper = 0;
    let inside = 0;
    const w = 360 / CELLS;
    const h = 180 / CELLS;
    for (const box of boxes) {
      const [west, south, east, north] = box;
      const [x0, x1, y0, y1] = cellsOf(box);
      if ((x1 - x0 + 1) * (y1 - y0 + 1) > this.buckets.size) return { upper: this.size, inside: this.size };
      for (let y = y0; y <= y1; y++) {
        const cs = y * h - 90;
        const dy = Math.max(0, Math.min(north, cs + h) - Math.max(south, cs)) / h;
        for (let x = x0; x <= x1; x++) {
          const n = this.buckets.get(y * CELLS + x)?.n ?? 0;
          const cw = x * w - 180;
          upper += n;
          inside += n * dy * (Math.max(0, Math.min(east, cw + w) - Math.max(west, cw)) / w);
        }
      }
    }
    return { upper, inside };
  }

  /** Pushes onto `out` the id of every point inside one of `boxes` (edges included) that passes `test`. */
  select(boxes: readonly BBox[], test: (lng: number, lat: number) => boolean, out: number[]): void {
    for (const box of boxes) {
      const [x0, x1, y0, y1] = cellsOf(box);
      if ((x1 - x0 + 1) * (y1 - y0 + 1) <= this.buckets.size) {
        for (let y = y0; y <= y1; y++) {
          for (let x = x0; x <= x1; x++) {
            const bucket = this.buckets.get(y * CELLS + x);
            if (bucket !== undefined) scan(bucket, box, test, out);
          }
        }
      } else {
        for (const bucket of this.buckets.values()) scan(bucket, box, test, out);
      }
    }
  }
}

function scan(bucket: Bucket, box: BBox, test: (lng: number, lat: number) => boolean, out: number[]): void {
  const [west, south, east, north] = box;
  const { n, lng, lat, ids } = bucket;
  for (let i = 0; i < n; i++) {
    const x = lng[i] as number;
    const y = lat[i] as number;
    if (y < south || y > north || x < west || x > east) continue;
    if (test(x, y)) out.push(ids[i] as number);
  }
}

/** The cells a box covers: first and last column, first and last row. */
function cellsOf(box: BBox): readonly [number, number, number, number] {
  const [west, south, east, north] = box;
  return [cellX(west), cellX(east), cellY(south), cellY(north)];
}
