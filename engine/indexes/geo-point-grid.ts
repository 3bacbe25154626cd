// The points of a geo index, in a one-level lng/lat grid of GRID_LEVEL cells (1.40625° × 0.703125°,
// about 156 km × 78 km at the equator; levels 9 and 10 measured slower for 150 km circles at 100k–1M
// points: more buckets to look up and less cache locality) whose buckets hold coordinates and ids in typed arrays. A query
// box visits the buckets of the cells it meets (or every bucket, when fewer), tests each point against
// the box with two comparisons and only then runs the exact test: no object, set or array per
// candidate. Points are never shapes spanning cells, so each (id, point) sits in exactly one bucket.
// (Polygons keep the multi-level cells of geo-index.ts.)

import type { BBox, CapRelation } from './geo-geometry.js';

const GRID_LEVEL = 8;
const CELLS = 2 ** GRID_LEVEL;
/** Points per layout cell, at most: a bucket is split 2×2, 4×4, ... until its cells hold about this many on average. */
const CELL_POINTS = 128;

/**
 * A cell of the layout an ordered `near` page merges (exec/near-page.ts): some of one bucket's points
 * (a bucket split by density) and the bounds of their coordinates. A new object whenever its bucket
 * changes, so what is kept per cell (its order by a field) is dropped with it.
 */
export interface GeoCell {
  readonly box: BBox;
  readonly ids: Int32Array;
  /** What an ordered page keeps for the cell (exec/near-page.ts: its keys per column), on the cell itself: a WeakMap lookup per cell met was a cache miss more at 1M. */
  memo: unknown;
}

/**
 * The layout cells meeting a cap's boxes, and where each lies against the cap, found only when asked
 * (a merge asks for the cells it reaches: the others cost a box test, not six distances).
 */
export interface NearCells {
  readonly cells: readonly GeoCell[];
  /** Points in `cells`. */
  readonly points: number;
  /** Cell `c` against the cap: 0 wholly outside, 1 crossing its edge (points to test), 2 wholly inside (none to test). */
  place(c: number): 0 | 1 | 2;
}

class Bucket {
  n = 0;
  /** Changes with every write (the layout cells are rebuilt from it). */
  version = 0;
  private layout: { readonly version: number; readonly cells: readonly GeoCell[] } | undefined;
  private single: { readonly version: number; readonly cell: GeoCell } | undefined;
  /**
   * Per point its longitude, latitude and id (exact in a double), side by side: a query reading ~20
   * buckets met a cache miss per array of each, three arrays were most of a collected `near`.
   */
  points = new Float64Array(3 * 8);

  push(lng: number, lat: number, id: number): void {
    const at = 3 * this.n;
    if (at === this.points.length) {
      const points = new Float64Array(2 * at);
      points.set(this.points);
      this.points = points;
    }
    this.points[at] = lng;
    this.points[at + 1] = lat;
    this.points[at + 2] = id;
    this.n++;
    this.version++;
  }

  /** The ids of the bucket's points, in their order. */
  private ids(): Int32Array {
    const ids = new Int32Array(this.n);
    for (let i = 0; i < this.n; i++) ids[i] = this.points[3 * i + 2] as number;
    return ids;
  }

  /** The bucket's points as one cell (their bounds and ids), for caps spanning many buckets; kept until the next write. */
  whole(): GeoCell {
    // Unsplit, the one layout cell (and what is kept for it) serves.
    if (this.n <= CELL_POINTS) return this.cells()[0] as GeoCell;
    if (this.single?.version === this.version) return this.single.cell;
    const [west, south, east, north] = this.bounds();
    const cell: GeoCell = { box: [west, south, east, north], ids: this.ids(), memo: undefined };
    this.single = { version: this.version, cell };
    return cell;
  }

  /** West, south, east, north of the bucket's points. */
  private bounds(): readonly [number, number, number, number] {
    const { n, points } = this;
    let west = Infinity;
    let south = Infinity;
    let east = -Infinity;
    let north = -Infinity;
    for (let at = 0; at < 3 * n; at += 3) {
      west = Math.min(west, points[at] as number);
      east = Math.max(east, points[at] as number);
      south = Math.min(south, points[at + 1] as number);
      north = Math.max(north, points[at + 1] as number);
    }
    return [west, south, east, north];
  }

  /** The bucket's points split into s × s equal parts (s a power of two, about CELL_POINTS points each), the empty ones left out; kept until the next write. */
  cells(): readonly GeoCell[] {
    if (this.layout?.version === this.version) return this.layout.cells;
    const { n, points } = this;
    const [west, south, east, north] = this.bounds();
    let s = 1;
    while (n > CELL_POINTS * s * s) s *= 2;
    const w = (east - west) / s;
    const h = (north - south) / s;
    const part = new Int32Array(n);
    const counts = new Int32Array(s * s);
    for (let i = 0; i < n; i++) {
      const px = w > 0 ? Math.min(s - 1, Math.floor(((points[3 * i] as number) - west) / w)) : 0;
      const py = h > 0 ? Math.min(s - 1, Math.floor(((points[3 * i + 1] as number) - south) / h)) : 0;
      const c = py * s + px;
      part[i] = c;
      counts[c] = (counts[c] as number) + 1;
    }
    // Counting sort by part; each part's box is its points' bounds (exact, and as tight as can be).
    const starts = new Int32Array(s * s + 1);
    for (let c = 0; c < s * s; c++) starts[c + 1] = (starts[c] as number) + (counts[c] as number);
    const at = starts.slice(0, s * s);
    const sorted = new Int32Array(n);
    const bounds = new Float64Array(4 * s * s).fill(NaN);
    for (let i = 0; i < n; i++) {
      const c = part[i] as number;
      sorted[at[c] as number] = points[3 * i + 2] as number;
      at[c] = (at[c] as number) + 1;
      const x = points[3 * i] as number;
      const y = points[3 * i + 1] as number;
      const b = 4 * c;
      // NaN compares false: the first point sets each bound.
      if (!((bounds[b] as number) <= x)) bounds[b] = x;
      if (!((bounds[b + 1] as number) <= y)) bounds[b + 1] = y;
      if (!((bounds[b + 2] as number) >= x)) bounds[b + 2] = x;
      if (!((bounds[b + 3] as number) >= y)) bounds[b + 3] = y;
    }
    const cells: GeoCell[] = [];
    for (let c = 0; c < s * s; c++) {
      if (counts[c] === 0) continue;
      const b = 4 * c;
      cells.push({ box: [bounds[b] as number, bounds[b + 1] as number, bounds[b + 2] as number, bounds[b + 3] as number], ids: sorted.subarray(starts[c], starts[c + 1]), memo: undefined });
    }
    this.layout = { version: this.version, cells };
    return cells;
  }

  /** Swap-removes one entry of (lng, lat, id); false if none. */
  remove(lng: number, lat: number, id: number): boolean {
    const points = this.points;
    for (let at = 0; at < 3 * this.n; at += 3) {
      if (points[at + 2] !== id || !Object.is(points[at], lng) || !Object.is(points[at + 1], lat)) continue;
      const last = 3 * --this.n;
      points.copyWithin(at, last, last + 3);
      this.version++;
      return true;
    }
    return false;
  }
}

function cellX(lng: number): number {
  return Math.min(CELLS - 1, Math.max(0, Math.floor(((lng + 180) / 360) * CELLS)));
}

function cellY(lat: number): number {
  return Math.min(CELLS - 1, Math.max(0, Math.floor(((lat + 90) / 180) * CELLS)));
}

export class GeoPointGrid {
  private readonly buckets = new Map<number, Bucket>();
  /** The buckets by cell key too, looked up by index (a query reads ~20: a Map lookup each was a fifth of the scan); made with the first point. */
  private grid: (Bucket | undefined)[] | undefined;
  size = 0;

  add(lng: number, lat: number, id: number): void {
    const key = cellY(lat) * CELLS + cellX(lng);
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = new Bucket();
      this.buckets.set(key, bucket);
      (this.grid ??= new Array<Bucket | undefined>(CELLS * CELLS).fill(undefined))[key] = bucket;
    }
    bucket.push(lng, lat, id);
    this.size++;
  }

  remove(lng: number, lat: number, id: number): void {
    const key = cellY(lat) * CELLS + cellX(lng);
    const bucket = this.buckets.get(key);
    if (bucket === undefined || !bucket.remove(lng, lat, id)) return;
    this.size--;
    if (bucket.n === 0) {
      this.buckets.delete(key);
      (this.grid as (Bucket | undefined)[])[key] = undefined;
    }
  }

  private bucketAt(key: number): Bucket | undefined {
    return this.grid?.[key];
  }

  /**
   * Points in the buckets `boxes` meet (every point inside them is there: an upper bound of any
   * selection) and about how many lie inside the boxes (each bucket's count times the share of its
   * cell the box covers) and how many buckets hold them, read from bucket sizes only: for choosing an access path.
   */
  count(boxes: readonly BBox[]): { readonly upper: number; readonly inside: number; readonly buckets: number } {
    let upper = 0;
    let inside = 0;
    let buckets = 0;
    const w = 360 / CELLS;
    const h = 180 / CELLS;
    for (const box of boxes) {
      const [west, south, east, north] = box;
      const [x0, x1, y0, y1] = cellsOf(box);
      if ((x1 - x0 + 1) * (y1 - y0 + 1) > this.buckets.size) return { upper: this.size, inside: this.size, buckets: this.buckets.size };
      for (let y = y0; y <= y1; y++) {
        const cs = y * h - 90;
        const dy = Math.max(0, Math.min(north, cs + h) - Math.max(south, cs)) / h;
        for (let x = x0; x <= x1; x++) {
          const n = this.bucketAt(y * CELLS + x)?.n ?? 0;
          const cw = x * w - 180;
          upper += n;
          if (n > 0) buckets++;
          inside += n * dy * (Math.max(0, Math.min(east, cw + w) - Math.max(west, cw)) / w);
        }
      }
    }
    return { upper, inside, buckets };
  }

  /**
   * The layout cells (cells(), or with `whole` each bucket as one cell) of the buckets `boxes` meet
   * whose bounds meet a box, each placed against the cap by `relation` when asked: an ordered page
   * merges their orders (exec/near-page.ts).
   */
  nearCells(boxes: readonly BBox[], relation: (box: BBox) => CapRelation, whole: boolean): NearCells {
    const cells: GeoCell[] = [];
    const met: BBox[] = [];
    let points = 0;
    const seen = boxes.length > 1 ? new Set<Bucket>() : undefined;
    const visit = (bucket: Bucket | undefined, box: BBox): void => {
      if (bucket === undefined || seen?.has(bucket) === true) return;
      seen?.add(bucket);
      if (whole) meet(bucket.whole(), box);
      else for (const cell of bucket.cells()) meet(cell, box);
    };
    const meet = (cell: GeoCell, box: BBox): void => {
      const [w, s, e, n] = cell.box;
      if (n < box[1] || s > box[3] || e < box[0] || w > box[2]) return;
      cells.push(cell);
      met.push(box);
      points += cell.ids.length;
    };
    for (const box of boxes) {
      const [x0, x1, y0, y1] = cellsOf(box);
      if ((x1 - x0 + 1) * (y1 - y0 + 1) <= this.buckets.size) {
        for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) visit(this.bucketAt(y * CELLS + x), box);
      } else for (const bucket of this.buckets.values()) visit(bucket, box);
    }
    const place = (c: number): 0 | 1 | 2 => {
      const cell = cells[c] as GeoCell;
      const at = relation(cell.box);
      if (at === 'outside') return 0;
      // Inside the cap and the box the test checks first (capBoxes' slack keeps this true in practice).
      const [w, s, e, n] = cell.box;
      const box = met[c] as BBox;
      return at === 'inside' && w >= box[0] && e <= box[2] && s >= box[1] && n <= box[3] ? 2 : 1;
    };
    return { cells, points, place };
  }

  /** Pushes onto `out` the id of every point inside one of `boxes` (edges included) that passes `test`. */
  select(boxes: readonly BBox[], test: (lng: number, lat: number) => boolean, out: number[]): void {
    for (const box of boxes) {
      const [x0, x1, y0, y1] = cellsOf(box);
      if ((x1 - x0 + 1) * (y1 - y0 + 1) <= this.buckets.size) {
        for (let y = y0; y <= y1; y++) {
          for (let x = x0; x <= x1; x++) {
            const bucket = this.bucketAt(y * CELLS + x);
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
  const { n, points } = bucket;
  for (let at = 0; at < 3 * n; at += 3) {
    const x = points[at] as number;
    const y = points[at + 1] as number;
    if (y < south || y > north || x < west || x > east) continue;
    if (test(x, y)) out.push(points[at + 2] as number);
  }
}

/** The cells a box covers: first and last column, first and last row. */
function cellsOf(box: BBox): readonly [number, number, number, number] {
  const [west, south, east, north] = box;
  return [cellX(west), cellX(east), cellY(south), cellY(north)];
}
