// Geometry for the geo index. Shapes are GeoJSON-like [lng, lat] in degrees. Containment and
// intersection treat polygon edges as straight lines in lng/lat (no antimeridian crossing);
// distances are great-circle distances on a sphere of Dgraph's radius (6371 km), with polygon
// edges taken as great-circle arcs. Boundaries count as inside (closed shapes).

import type { GeoMultiPolygon, GeoPoint, GeoPolygon, GeoValue } from './value-index.js';

const EARTH_RADIUS_METERS = 6_371_000;

type Pt = readonly [number, number];
type Ring = readonly Pt[];
type Rings = GeoPolygon['coordinates'];

/** [minLng, minLat, maxLng, maxLat] */
export type BBox = readonly [number, number, number, number];

export function bboxOf(v: GeoValue): BBox {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const visit = (p: Pt): void => {
    if (p[0] < minX) minX = p[0];
    if (p[0] > maxX) maxX = p[0];
    if (p[1] < minY) minY = p[1];
    if (p[1] > maxY) maxY = p[1];
  };
  if (v.type === 'Point') visit(v.coordinates);
  else for (const rings of polygonsOf(v)) for (const p of rings[0] ?? []) visit(p);
  return [minX, minY, maxX, maxY];
}

export function polygonsOf(v: GeoPolygon | GeoMultiPolygon): readonly Rings[] {
  return v.type === 'Polygon' ? [v.coordinates] : v.coordinates;
}

export function bboxesOverlap(a: BBox, b: BBox): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

export function bboxInside(inner: BBox, outer: BBox): boolean {
  return inner[0] >= outer[0] && inner[2] <= outer[2] && inner[1] >= outer[1] && inner[3] <= outer[3];
}

// ---------------------------------------------------------------------------------------------
// Planar predicates

function orient(a: Pt, b: Pt, c: Pt): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

function onSegment(p: Pt, a: Pt, b: Pt): boolean {
  return (
    orient(a, b, p) === 0 &&
    Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) &&
    Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1])
  );
}

/** Closed segments ab and cd share a point. */
function segmentsIntersect(a: Pt, b: Pt, c: Pt, d: Pt): boolean {
  const d1 = orient(c, d, a);
  const d2 = orient(c, d, b);
  const d3 = orient(a, b, c);
  const d4 = orient(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return onSegment(a, c, d) || onSegment(b, c, d) || onSegment(c, a, b) || onSegment(d, a, b);
}

/** Segments ab and cd cross at a point interior to both (touching does not count). */
function segmentsCrossProperly(a: Pt, b: Pt, c: Pt, d: Pt): boolean {
  const d1 = orient(c, d, a);
  const d2 = orient(c, d, b);
  const d3 = orient(a, b, c);
  const d4 = orient(a, b, d);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

function* edges(ring: Ring): Generator<[Pt, Pt]> {
  const n = ring.length;
  for (let i = 0; i < n; i++) {
    const a = ring[i] as Pt;
    const b = ring[(i + 1) % n] as Pt;
    if (a[0] !== b[0] || a[1] !== b[1]) yield [a, b];
  }
}

/** 1 inside, 0 on the boundary, -1 outside (even-odd rule). */
function ringSide(p: Pt, ring: Ring): number {
  let inside = false;
  for (const [a, b] of edges(ring)) {
    if (onSegment(p, a, b)) return 0;
    if (a[1] > p[1] !== b[1] > p[1]) {
      const x = a[0] + ((p[1] - a[1]) * (b[0] - a[0])) / (b[1] - a[1]);
      if (p[0] < x) inside = !inside;
    }
  }
  return inside ? 1 : -1;
}

/** Point in polygon (outer ring minus holes; boundaries inclusive). */
export function pointInRings(p: Pt, rings: Rings): boolean {
  const outer = rings[0];
  if (outer === undefined || ringSide(p, outer) < 0) return false;
  for (let h = 1; h < rings.length; h++) if (ringSide(p, rings[h] as Ring) > 0) return false;
  return true;
}

export function pointInShape(p: Pt, shape: GeoPolygon | GeoMultiPolygon): boolean {
  return polygonsOf(shape).some((rings) => pointInRings(p, rings));
}

function ringsTouch(a: Rings, b: Rings): boolean {
  for (const ra of a) for (const [p, q] of edges(ra)) for (const rb of b) for (const [r, s] of edges(rb)) {
    if (segmentsIntersect(p, q, r, s)) return true;
  }
  return false;
}

/** Two polygons share at least one point. */
function polygonsIntersect(a: Rings, b: Rings): boolean {
  if (ringsTouch(a, b)) return true;
  const a0 = a[0]?.[0];
  const b0 = b[0]?.[0];
  return (a0 !== undefined && pointInRings(a0, b)) || (b0 !== undefined && pointInRings(b0, a));
}

export function shapesIntersect(a: GeoPolygon | GeoMultiPolygon, b: GeoPolygon | GeoMultiPolygon): boolean {
  const pb = polygonsOf(b);
  return polygonsOf(a).some((ra) => pb.some((rb) => polygonsIntersect(ra, rb)));
}

/** Polygon `inner` lies entirely inside polygon `outer` (boundaries may touch). */
export function polygonWithin(inner: Rings, outer: Rings): boolean {
  const ring = inner[0];
  if (ring === undefined) return false;
  for (const p of ring) if (!pointInRings(p, outer)) return false;
  for (const [a, b] of edges(ring)) {
    const mid: Pt = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    if (!pointInRings(mid, outer)) return false;
    for (const r of outer) for (const [c, d] of edges(r)) if (segmentsCrossProperly(a, b, c, d)) return false;
  }
  // A hole of `outer` strictly inside `inner` (and not inside one of inner's holes) is a gap.
  for (let h = 1; h < outer.length; h++) {
    for (const p of outer[h] as Ring) {
      if (ringSide(p, ring) > 0 && !inner.slice(1).some((hole) => ringSide(p, hole) >= 0)) return false;
    }
  }
  return true;
}

export function shapeWithinPolygon(inner: GeoPolygon | GeoMultiPolygon, outer: Rings): boolean {
  return polygonsOf(inner).every((rings) => polygonWithin(rings, outer));
}

// ---------------------------------------------------------------------------------------------
// Spherical distances

type Vec = [number, number, number];
const RAD = Math.PI / 180;

function toVec(p: Pt): Vec {
  const lng = p[0] * RAD;
  const lat = p[1] * RAD;
  const c = Math.cos(lat);
  return [c * Math.cos(lng), c * Math.sin(lng), Math.sin(lat)];
}

function crossV(a: Vec, b: Vec): Vec {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function dot(a: Vec, b: Vec): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function norm(a: Vec): number {
  return Math.hypot(a[0], a[1], a[2]);
}

function angle(a: Vec, b: Vec): number {
  return Math.atan2(norm(crossV(a, b)), dot(a, b));
}

/** Great-circle distance in meters (haversine). */
export function haversineMeters(a: Pt, b: Pt): number {
  return haversineLngLat(a[0], a[1], b[0], b[1]);
}

/** haversineMeters over plain coordinates (no arrays: the point grid calls it per candidate). */
export function haversineLngLat(aLng: number, aLat: number, bLng: number, bLat: number): number {
  const dLat = (bLat - aLat) * RAD;
  const dLng = (bLng - aLng) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * RAD) * Math.cos(bLat * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Angular distance (radians) from p to the great-circle arc ab. */
function arcDistance(p: Vec, a: Vec, b: Vec): number {
  const n = crossV(a, b);
  const len = norm(n);
  if (len < 1e-15) return angle(p, a);
  const u: Vec = [n[0] / len, n[1] / len, n[2] / len];
  const s = dot(p, u);
  const foot: Vec = [p[0] - s * u[0], p[1] - s * u[1], p[2] - s * u[2]];
  if (norm(foot) > 1e-15 && dot(crossV(a, foot), u) >= 0 && dot(crossV(foot, b), u) >= 0) {
    return Math.asin(Math.min(1, Math.abs(s)));
  }
  return Math.min(angle(p, a), angle(p, b));
}

/** Distance in meters from a point to a shape (0 inside it). */
export function distanceToShapeMeters(p: Pt, shape: GeoValue): number {
  if (shape.type === 'Point') return haversineMeters(p, shape.coordinates);
  if (pointInShape(p, shape)) return 0;
  const pv = toVec(p);
  let best = Infinity;
  for (const rings of polygonsOf(shape)) {
    for (const ring of rings) for (const [a, b] of edges(ring)) best = Math.min(best, arcDistance(pv, toVec(a), toVec(b)));
  }
  return best * EARTH_RADIUS_METERS;
}

/**
 * A lng/lat box inside the spherical cap of `meters` around `center` with a relative margin of 1e-6,
 * or undefined (cap too large, or near a pole): a point in it is within `meters` without computing
 * its distance. Bound: for |Δlat| ≤ a and |Δlng| ≤ b (≤ π/2), haversine's h is at most
 * sin²(a/2) + cos(lat₀)·max cos(lat)·sin²(b/2), max cos(lat) taken over the box's latitudes.
 */
export function capInnerBox(center: GeoPoint['coordinates'], meters: number): BBox | undefined {
  const r = meters / EARTH_RADIUS_METERS;
  if (!(r > 0) || r >= Math.PI / 2) return undefined;
  const [lng, lat] = center;
  const lat0 = lat * RAD;
  const cos0 = Math.cos(lat0);
  // Start from the inscribed square (h ≈ a²/4 + a²/4 = r²/4), shrink a little until the bound holds.
  let a = r / Math.SQRT2;
  for (let tries = 0; tries < 8; tries++, a *= 0.98) {
    const south = lat0 - a;
    const north = lat0 + a;
    if (south <= -Math.PI / 2 || north >= Math.PI / 2) return undefined;
    const cosMax = south <= 0 && north >= 0 ? 1 : Math.max(Math.cos(south), Math.cos(north));
    const b = a / Math.sqrt(cos0 * cosMax);
    if (!(b < Math.PI / 2)) return undefined;
    const h = Math.sin(a / 2) ** 2 + cos0 * cosMax * Math.sin(b / 2) ** 2;
    if (2 * Math.asin(Math.min(1, Math.sqrt(h))) <= r * (1 - 1e-6)) return [lng - b / RAD, lat - a / RAD, lng + b / RAD, lat + a / RAD];
  }
  return undefined;
}

/** Boxes covering the spherical cap of `meters` around `center` (split at the antimeridian). */
export function capBoxes(center: GeoPoint['coordinates'], meters: number): BBox[] {
  const r = meters / EARTH_RADIUS_METERS;
  const rDeg = r / RAD + 1e-9;
  const [lng, lat] = center;
  const minLat = lat - rDeg;
  const maxLat = lat + rDeg;
  if (r >= Math.PI || maxLat >= 90 || minLat <= -90) return [[-180, Math.max(-90, minLat), 180, Math.min(90, maxLat)]];
  const s = Math.sin(r) / Math.cos(lat * RAD);
  if (s >= 1) return [[-180, minLat, 180, maxLat]];
  const dLng = Math.asin(s) / RAD + 1e-9;
  const west = lng - dLng;
  const east = lng + dLng;
  if (west < -180) return [[west + 360, minLat, 180, maxLat], [-180, minLat, east, maxLat]];
  if (east > 180) return [[west, minLat, 180, maxLat], [-180, minLat, east - 360, maxLat]];
  return [[west, minLat, east, maxLat]];
}

/** How a lng/lat box lies against the cap of `meters` around (lng, lat): wholly outside, crossing its edge, or wholly inside. */
export type CapRelation = 'outside' | 'crossing' | 'inside';

/**
 * Where `box` (west ≤ east, not across the antimeridian) lies against the cap, with a relative margin
 * of 1e-6 both ways (Inside and Outside are sure; the rest is Crossing). Along a parallel the distance
 * grows with the longitude difference, and along a meridian it is a sinusoid of the latitude with one
 * peak, so the farthest point of the box is a corner and the nearest lies on the meridian nearest the
 * centre, at that sinusoid's peak when it is inside the box's latitudes, else at an end.
 */
export function capRelation(lng: number, lat: number, meters: number, box: BBox): CapRelation {
  const [west, south, east, north] = box;
  const far = Math.max(haversineLngLat(lng, lat, west, south), haversineLngLat(lng, lat, west, north), haversineLngLat(lng, lat, east, south), haversineLngLat(lng, lat, east, north));
  if (far <= meters * (1 - 1e-6)) return 'inside';
  const wrapped = (x: number): number => Math.abs(((((x - lng) % 360) + 540) % 360) - 180);
  const nearLng = lng >= west && lng <= east ? lng : wrapped(west) <= wrapped(east) ? west : east;
  const peak = Math.atan2(Math.sin(lat * RAD), Math.cos(lat * RAD) * Math.cos((nearLng - lng) * RAD)) / RAD;
  const near = peak >= south && peak <= north ? haversineLngLat(lng, lat, nearLng, peak) : Math.min(haversineLngLat(lng, lat, nearLng, south), haversineLngLat(lng, lat, nearLng, north));
  return near > meters * (1 + 1e-6) ? 'outside' : 'crossing';
}
