// Geo index (`@search` on Point / Polygon / MultiPolygon → near / within / contains / intersects).
// Points live in a one-level grid of typed-array buckets (./geo-point-grid.ts). Polygons come from
// a multi-level lng/lat grid (level L: cells of 360/2^L by 180/2^L degrees, L = 0..13, the finest
// ≈ 4.9 km × 2.4 km at the equator), filed at the finest level where the bounding box spans at most
// four cells. A query box visits, per occupied level, either the cells it covers or — when that is
// fewer — the occupied cells. Every candidate is then tested exactly (./geo-geometry.ts). Dgraph
// uses S2 cells; the answers here are geometric truths rather than S2 cover parity.
//
// Semantics (the product brief's, broader than Dgraph's, which only lets points match near/within
// and only polygons match contains):
//   near(p, d)      stored geometry within d meters (great-circle) of p; polygons by distance to
//                   the shape (0 inside it)
//   within(poly)    stored geometry entirely inside poly
//   contains(shape) stored polygon / multipolygon contains the point or polygon
//   intersects(s)   stored geometry shares a point with s

import type { GeoMultiPolygon, GeoPoint, GeoPolygon, GeoValue, ScalarValue, ValueIndex } from './value-index.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { GeoPointGrid, type NearCells } from './geo-point-grid.js';
import { sortedDistinctArray } from '../util/id-sort.js';
import {
  type BBox,
  type CapRelation,
  bboxInside,
  bboxOf,
  bboxesOverlap,
  capBoxes,
  capInnerBox,
  capRelation,
  distanceToShapeMeters,
  haversineLngLat,
  pointInShape,
  polygonWithin,
  polygonsOf,
  shapeWithinPolygon,
  shapesIntersect,
} from './geo-geometry.js';

const MAX_GEO_LEVEL = 13;
const LEVEL_SHIFT = 2 ** 26;
const ROW_SHIFT = 2 ** 13;
const MAX_CELLS_PER_SHAPE = 4;

interface GeoItem {
  readonly id: number;
  readonly value: GeoValue;
  readonly key: string;
  readonly bbox: BBox;
  readonly cells: readonly number[];
}

function isGeoValue(v: ScalarValue): v is GeoValue {
  return typeof v === 'object' && !(v instanceof Float32Array) && (v.type === 'Point' || v.type === 'Polygon' || v.type === 'MultiPolygon');
}

function keyOf(v: GeoValue): string {
  return `${v.type}:${JSON.stringify(v.coordinates)}`;
}

function cellRange(box: BBox, level: number): [number, number, number, number] {
  const n = 2 ** level;
  const clamp = (c: number): number => Math.min(n - 1, Math.max(0, c));
  return [
    clamp(Math.floor(((box[0] + 180) / 360) * n)),
    clamp(Math.floor(((box[1] + 90) / 180) * n)),
    clamp(Math.floor(((box[2] + 180) / 360) * n)),
    clamp(Math.floor(((box[3] + 90) / 180) * n)),
  ];
}

function cellKey(level: number, x: number, y: number): number {
  return level * LEVEL_SHIFT + y * ROW_SHIFT + x;
}

function levelFor(box: BBox): number {
  for (let level = MAX_GEO_LEVEL; level > 0; level--) {
    const [x0, y0, x1, y1] = cellRange(box, level);
    if ((x1 - x0 + 1) * (y1 - y0 + 1) <= MAX_CELLS_PER_SHAPE) return level;
  }
  return 0;
}

/** `near` tested per node (GeoIndex.nearCheck). */
export interface NearCheck {
  readonly test: (id: number) => boolean;
  readonly upper: number;
  readonly estimate: number;
  /** Non-empty buckets met: the layout has at least one cell per bucket. */
  readonly buckets: number;
  /** With `whole`, each bucket as one cell, placed only against the inner box (inside: no point to test; else crossing). */
  readonly cells: (whole: boolean) => NearCells;
}

export class GeoIndex implements ValueIndex {
  private readonly levels: Map<number, GeoItem[]>[] = Array.from({ length: MAX_GEO_LEVEL + 1 }, () => new Map());
  private readonly byId = new Map<number, GeoItem[]>();
  private readonly points = new GeoPointGrid();
  private entries = 0;
  /**
   * Each node's point by id, interleaved (lng, lat; NaN: none), while every node holds at most one
   * point and no node holds a polygon: a near filter is then checked per node in place.
   */
  private coords: Float64Array | undefined = new Float64Array(0);

  get entryCount(): number {
    return this.entries + this.points.size;
  }

  /** Each node's one Point as (longitude, latitude) at 2·id, NaN where none (or past the end); undefined once a node holds a polygon or two points. */
  pointsById(): Float64Array | undefined {
    return this.coords;
  }

  add(value: ScalarValue, id: number): void {
    if (!isGeoValue(value)) throw new TypeError('geo index expects Point, Polygon or MultiPolygon values');
    if (value.type === 'Point') {
      const [lng, lat] = value.coordinates;
      if (Number.isFinite(lng) && Number.isFinite(lat)) {
        this.points.add(lng, lat, id);
        this.keepPoint(id, lng, lat);
      }
      return;
    }
    this.coords = undefined; // polygons are not checked in place
    const bbox = bboxOf(value);
    if (!bbox.every(Number.isFinite)) return; // empty shape: nothing to find
    const level = levelFor(bbox);
    const [x0, y0, x1, y1] = cellRange(bbox, level);
    const cells: number[] = [];
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) cells.push(cellKey(level, x, y));
    const item: GeoItem = { id, value, key: keyOf(value), bbox, cells };
    const map = this.levels[level] as Map<number, GeoItem[]>;
    for (const c of cells) {
      const list = map.get(c);
      if (list === undefined) map.set(c, [item]);
      else list.push(item);
    }
    this.entries += cells.length;
    const own = this.byId.get(id);
    if (own === undefined) this.byId.set(id, [item]);
    else own.push(item);
  }

  remove(value: ScalarValue, id: number): void {
    if (!isGeoValue(value)) return;
    if (value.type === 'Point') {
      this.points.remove(value.coordinates[0], value.coordinates[1], id);
      const coords = this.coords;
      if (coords !== undefined && 2 * id < coords.length && Object.is(coords[2 * id], value.coordinates[0]) && Object.is(coords[2 * id + 1], value.coordinates[1])) coords[2 * id] = coords[2 * id + 1] = NaN;
      return;
    }
    const own = this.byId.get(id);
    if (own === undefined) return;
    const key = keyOf(value);
    const pos = own.findIndex((it) => it.key === key);
    if (pos < 0) return;
    const item = own[pos] as GeoItem;
    own.splice(pos, 1);
    if (own.length === 0) this.byId.delete(id);
    const level = Math.floor((item.cells[0] ?? 0) / LEVEL_SHIFT);
    const map = this.levels[level] as Map<number, GeoItem[]>;
    for (const c of item.cells) {
      const list = map.get(c);
      if (list === undefined) continue;
      const at = list.indexOf(item);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) map.delete(c);
    }
    this.entries -= item.cells.length;
  }

  private keepPoint(id: number, lng: number, lat: number): void {
    let coords = this.coords;
    if (coords === undefined) return;
    if (2 * id + 1 >= coords.length) {
      const next = new Float64Array(Math.max(2 * id + 2, Math.ceil(coords.length * 1.5), 2048)).fill(NaN);
      next.set(coords);
      coords = this.coords = next;
    }
    if (!Number.isNaN(coords[2 * id] as number)) this.coords = undefined; // a second point: no longer one per node
    else {
      coords[2 * id] = lng;
      coords[2 * id + 1] = lat;
    }
  }

  /**
   * `near` as a test of one node's point (the same boxes and distance test as `near`), with the
   * points of the buckets it reads (an upper bound of the matches), about how many it matches, and
   * the layout cells meeting the cap (`cells`: those inside need no test, the others are tested with
   * `test`); undefined when the index holds polygons or nodes with several points.
   */
  nearCheck(point: GeoPoint, distanceMeters: number): NearCheck | undefined {
    const coords = this.coords;
    if (coords === undefined) return undefined;
    if (!(distanceMeters >= 0)) return { test: () => false, upper: 0, estimate: 0, buckets: 0, cells: () => ({ cells: [], points: 0, place: () => 0 }) };
    const [lng, lat] = point.coordinates;
    const boxes = capBoxes(point.coordinates, distanceMeters);
    const { upper, inside, buckets } = this.points.count(boxes);
    const [w, s, e, n] = capInnerBox(point.coordinates, distanceMeters) ?? [0, 0, -1, -1];
    // capBoxes gives one box, or two split at the antimeridian; the absent second one holds nothing.
    const [w0, s0, e0, n0] = boxes[0] as BBox;
    const [w1, s1, e1, n1] = boxes[1] ?? [1, 1, 0, 0];
    const test = (id: number): boolean => {
      const x = coords[2 * id] as number; // NaN (no point) and undefined (past the end) fail every comparison
      const y = coords[2 * id + 1] as number;
      if (!((y >= s0 && y <= n0 && x >= w0 && x <= e0) || (y >= s1 && y <= n1 && x >= w1 && x <= e1))) return false;
      return (x >= w && x <= e && y >= s && y <= n) || haversineLngLat(lng, lat, x, y) <= distanceMeters;
    };
    // A whole bucket is rarely wholly inside or outside a cap it meets: four comparisons, not six distances, place it.
    const innerRelation = ([bw, bs, be, bn]: BBox): CapRelation => (bw >= w && be <= e && bs >= s && bn <= n ? 'inside' : 'crossing');
    const cells = (whole: boolean): NearCells => this.points.nearCells(boxes, whole ? innerRelation : (box) => capRelation(lng, lat, distanceMeters, box), whole);
    // A cap fills about π/4 of its bounding box.
    return { test, upper, estimate: Math.min(upper, (inside * Math.PI) / 4), buckets, cells };
  }

  /** Nodes with a geometry within `distanceMeters` of `point` (none for a negative distance). */
  near(point: GeoPoint, distanceMeters: number): SortedIds {
    if (!(distanceMeters >= 0)) return [];
    const p = point.coordinates;
    const [lng, lat] = p;
    const boxes = capBoxes(p, distanceMeters);
    const ids: number[] = [];
    // Points in the cap's inner box are within the distance without computing it.
    const [w, s, e, n] = capInnerBox(p, distanceMeters) ?? [0, 0, -1, -1];
    this.points.select(boxes, (x, y) => (x >= w && x <= e && y >= s && y <= n) || haversineLngLat(lng, lat, x, y) <= distanceMeters, ids);
    return this.select(boxes, ids, (it) => distanceToShapeMeters(p, it.value) <= distanceMeters);
  }

  /** Nodes with a geometry entirely inside `polygon`. */
  within(polygon: GeoPolygon): SortedIds {
    const box = bboxOf(polygon);
    const rings = polygon.coordinates;
    const ids: number[] = [];
    this.points.select([box], (x, y) => pointInShape([x, y], polygon), ids);
    return this.select([box], ids, (it) => {
      if (!bboxInside(it.bbox, box)) return false;
      const v = it.value;
      return v.type === 'Point' ? pointInShape(v.coordinates, polygon) : shapeWithinPolygon(v, rings);
    });
  }

  /** Nodes with a polygon / multipolygon containing `shape`. */
  contains(shape: GeoPoint | GeoPolygon): SortedIds {
    const box = bboxOf(shape);
    return this.select([box], [], (it) => {
      const v = it.value;
      if (v.type === 'Point' || !bboxInside(box, it.bbox)) return false;
      if (shape.type === 'Point') return pointInShape(shape.coordinates, v);
      return polygonsOf(v).some((rings) => polygonWithin(shape.coordinates, rings));
    });
  }

  /** Nodes with a geometry sharing at least one point with `shape`. */
  intersects(shape: GeoPolygon | GeoMultiPolygon): SortedIds {
    const box = bboxOf(shape);
    const ids: number[] = [];
    this.points.select([box], (x, y) => pointInShape([x, y], shape), ids);
    return this.select([box], ids, (it) => {
      if (!bboxesOverlap(it.bbox, box)) return false;
      const v = it.value;
      return v.type === 'Point' ? pointInShape(v.coordinates, shape) : shapesIntersect(v, shape);
    });
  }

  /** Polygon items whose cells meet any of `boxes`, filtered by `test`, added to `ids` (the points' matches): sorted distinct node ids. */
  private select(boxes: readonly BBox[], ids: number[], test: (it: GeoItem) => boolean): SortedIds {
    const seen = new Set<GeoItem>();
    const visit = (list: readonly GeoItem[] | undefined): void => {
      if (list === undefined) return;
      for (const it of list) {
        if (seen.has(it)) continue;
        seen.add(it);
        if (test(it)) ids.push(it.id);
      }
    };
    for (let level = 0; level <= MAX_GEO_LEVEL; level++) {
      const map = this.levels[level] as Map<number, GeoItem[]>;
      if (map.size === 0) continue;
      for (const box of boxes) {
        const [x0, y0, x1, y1] = cellRange(box, level);
        if ((x1 - x0 + 1) * (y1 - y0 + 1) <= map.size) {
          for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) visit(map.get(cellKey(level, x, y)));
        } else {
          for (const [key, list] of map) {
            const rest = key - level * LEVEL_SHIFT;
            const y = Math.floor(rest / ROW_SHIFT);
            const x = rest - y * ROW_SHIFT;
            if (x >= x0 && x <= x1 && y >= y0 && y <= y1) visit(list);
          }
        }
      }
    }
    return sortedDistinctArray(ids);
  }
}

