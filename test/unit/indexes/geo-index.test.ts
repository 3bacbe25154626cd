import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { GeoIndex } from '../../../engine/indexes/geo-index.js';
import { capInnerBox, haversineMeters } from '../../../engine/indexes/geo-geometry.js';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { distance } from '@turf/distance';
import type { GeoMultiPolygon, GeoPoint, GeoPolygon, GeoValue } from '../../../engine/indexes/value-index.js';

const pt = (lng: number, lat: number): GeoPoint => ({ type: 'Point', coordinates: [lng, lat] });
const rect = (x0: number, y0: number, x1: number, y1: number): [number, number][] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
const poly = (...rings: [number, number][][]): GeoPolygon => ({ type: 'Polygon', coordinates: rings });

function indexOf(values: readonly GeoValue[]): GeoIndex {
  const idx = new GeoIndex();
  values.forEach((v, i) => idx.add(v, i + 1));
  return idx;
}

describe('GeoIndex', () => {
  // A 10x10 square with a 4x4 hole in the middle.
  const donut = poly(rect(0, 0, 10, 10), rect(3, 3, 7, 7));
  const values: GeoValue[] = [
    pt(1, 1), // 1: in the donut
    pt(5, 5), // 2: in the hole
    pt(20, 20), // 3: far away
    donut, // 4
    poly(rect(4, 4, 6, 6)), // 5: inside the hole
    poly(rect(1, 1, 2, 2)), // 6: inside the donut's ring
    poly(rect(8, 8, 12, 12)), // 7: overlaps the donut's corner
    { type: 'MultiPolygon', coordinates: [[rect(30, 30, 31, 31)], [rect(1, 8, 2, 9)]] }, // 8
  ];
  const idx = indexOf(values);

  it('near: points by great-circle distance, shapes by distance to the shape', () => {
    const d = haversineMeters([1, 1], [1.01, 1]);
    expect(idx.near(pt(1.01, 1), d + 1)).toEqual([1, 4, 6]);
    expect(idx.near(pt(1.01, 1), d - 1)).toEqual([4, 6]);
    expect(idx.near(pt(20, 20.001), 200)).toEqual([3]);
    expect(idx.near(pt(5, 5), 1)).toEqual([2, 5]); // inside the hole: the donut is ~222 km away
    expect(idx.near(pt(5, 5), 230_000)).toEqual([2, 4, 5]); // hole edge 2° away
    expect(idx.near(pt(5, 5), 500_000)).toEqual([2, 4, 5, 6, 7, 8]); // corners ~471 km, (1,1) ~628 km
    expect(idx.near(pt(0, 0), -1)).toEqual([]);
  });
  it('within: stored geometry entirely inside; holes excluded', () => {
    expect(idx.within(donut)).toEqual([1, 4, 6]); // the donut lies within itself; 2 and 5 sit in the hole
    expect(idx.within(poly(rect(-1, -1, 11, 11)))).toEqual([1, 2, 4, 5, 6]);
    expect(idx.within(poly(rect(-1, -1, 13, 13), rect(4.5, 4.5, 5.5, 5.5)))).toEqual([1, 4, 6, 7]);
  });
  it('contains: polygons containing a point or polygon, respecting holes', () => {
    expect(idx.contains(pt(1, 1))).toEqual([4, 6]);
    expect(idx.contains(pt(5, 5))).toEqual([5]);
    expect(idx.contains(pt(1.5, 8.5))).toEqual([4, 8]);
    expect(idx.contains(poly(rect(1.2, 1.2, 1.8, 1.8)))).toEqual([4, 6]);
    expect(idx.contains(poly(rect(2, 2, 8, 8)))).toEqual([]); // covers the hole
    expect(idx.contains(pt(10, 5))).toEqual([4]); // boundary counts
  });
  it('intersects: shared points, including edges; not through holes', () => {
    expect(idx.intersects(poly(rect(4.5, 4.5, 5.5, 5.5)))).toEqual([2, 5]);
    expect(idx.intersects(poly(rect(9, 9, 9.5, 9.5)))).toEqual([4, 7]);
    expect(idx.intersects(poly(rect(10, 0, 11, 1)))).toEqual([4]);
    const mp: GeoMultiPolygon = { type: 'MultiPolygon', coordinates: [[rect(19, 19, 21, 21)], [rect(30.5, 30.5, 40, 40)]] };
    expect(idx.intersects(mp)).toEqual([3, 8]);
  });
  it('near across the antimeridian and at the poles', () => {
    const i = indexOf([pt(179.999, 0), pt(-179.999, 0), pt(0, 89.9999), pt(180, 89.9999)]);
    expect(i.near(pt(-179.9995, 0), 200)).toEqual([1, 2]);
    expect(i.near(pt(90, 90), 100)).toEqual([3, 4]);
  });
  it('remove and update', () => {
    const i = indexOf([pt(1, 1), donut]);
    i.remove(pt(1, 1), 1);
    i.add(pt(50, 50), 1);
    expect(i.near(pt(1, 1), 10)).toEqual([2]);
    expect(i.near(pt(50, 50), 10)).toEqual([1]);
    i.remove(poly(rect(0, 0, 10, 10), rect(3, 3, 7, 7)), 2);
    expect(i.contains(pt(1, 1))).toEqual([]);
    expect(i.entryCount).toBe(1);
  });

  // Differential tests against a naive scan with Turf (not the code under test), on Dgraph's sphere of 6371 km.
  const meters = (a: [number, number], b: [number, number]): number => distance(a, b, { units: 'radians' }) * 6_371_000;
  const coord = fc.tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true }));
  const points = fc.array(coord, { maxLength: 60 });

  it('near agrees with a naive great-circle scan', () => {
    fc.assert(
      fc.property(points, coord, fc.double({ min: 0, max: 2_000_000, noNaN: true }), (ps, [x, y], d) => {
        const i = indexOf(ps.map(([a, b]) => pt(a, b)));
        const expected = ps.flatMap(([a, b], k) => (meters([x, y], [a, b]) <= d ? [k + 1] : []));
        expect(i.near(pt(x, y), d)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
  // Coordinates on a 1e-5 grid: Turf's point-in-polygon is not exact for subnormal offsets from an edge
  // (it puts [-5e-324, 0] inside a box whose edge is x = 0).
  const gridCoord = fc.tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: -1_000_000, max: 1_000_000 })).map(([a, b]): [number, number] => [a / 1e5, b / 1e5]);
  const gridBox = fc.tuple(gridCoord, fc.integer({ min: 1, max: 800_000 }), fc.integer({ min: 1, max: 800_000 }))
    .map(([[x, y], w, h]) => rect(x, y, x + w / 1e5, y + h / 1e5));
  it('within agrees with a naive point-in-polygon scan (with a hole)', () => {
    fc.assert(
      fc.property(fc.array(gridCoord, { maxLength: 60 }), gridBox, (ps, outer) => {
        const [[x0, y0], , [x1, y1]] = outer as [[number, number], unknown, [number, number]];
        const hole = rect(x0 + (x1 - x0) / 4, y0 + (y1 - y0) / 4, x1 - (x1 - x0) / 4, y1 - (y1 - y0) / 4);
        const q = poly(outer, hole);
        const i = indexOf(ps.map(([a, b]) => pt(a, b)));
        const expected = ps.flatMap(([a, b], k) => (booleanPointInPolygon([a, b], { type: 'Polygon', coordinates: [outer, hole] }) ? [k + 1] : []));
        expect(i.within(q)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
  it('points over the whole globe, some removed and re-added elsewhere: near, within and intersects agree with naive scans', () => {
    // Points sit in the typed-array buckets of the point grid: candidates cross cell, antimeridian and pole boundaries.
    // Half of them clustered in a few cells, so buckets hold many points (swap-removal inside a bucket).
    const spread = fc.tuple(fc.integer({ min: -18_000, max: 18_000 }), fc.integer({ min: -9_000, max: 9_000 })).map(([a, b]): [number, number] => [a / 100, b / 100]);
    const clustered = fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 })).map(([a, b]): [number, number] => [a / 100, b / 100]);
    const world = fc.oneof(spread, clustered);
    fc.assert(
      fc.property(
        fc.array(world, { minLength: 1, maxLength: 300 }),
        fc.array(fc.tuple(fc.nat(), world), { maxLength: 40 }),
        world,
        fc.double({ min: 0, max: 21_000_000, noNaN: true }),
        gridBox,
        (ps, moves, [x, y], d, box) => {
          const live = ps.slice();
          const i = indexOf(ps.map(([a, b]) => pt(a, b)));
          for (const [k, to] of moves) {
            const at = k % live.length;
            i.remove(pt(...(live[at] as [number, number])), at + 1);
            i.add(pt(...to), at + 1);
            live[at] = to;
          }
          const near = live.flatMap(([a, b], k) => (meters([x, y], [a, b]) <= d ? [k + 1] : []));
          expect(i.near(pt(x, y), d)).toEqual(near);
          // The per-node test answers the same for every id (ids past the last and 0 hold no point).
          const check = i.nearCheck(pt(x, y), d);
          expect(check).toBeDefined();
          const tested = Array.from({ length: live.length + 2 }, (_, k) => k).filter((k) => check?.test(k));
          expect(tested).toEqual(near);
          expect(check?.upper).toBeGreaterThanOrEqual(near.length);
          const inBox = live.flatMap(([a, b], k) => (booleanPointInPolygon([a, b], { type: 'Polygon', coordinates: [box] }) ? [k + 1] : []));
          expect(i.within(poly(box))).toEqual(inBox);
          expect(i.intersects(poly(box))).toEqual(inBox);
          expect(i.entryCount).toBe(live.length);
        },
      ),
      { numRuns: 200 },
    );
  });
  it('near checks each node in place only while every node holds one point and no polygon', () => {
    const i = indexOf([pt(1, 1), pt(1.001, 1)]);
    expect([0, 1, 2, 3].filter((id) => i.nearCheck(pt(1, 1), 200)?.test(id))).toEqual([1, 2]);
    expect(i.nearCheck(pt(1, 1), -1)?.test(1)).toBe(false);
    i.add(pt(2, 2), 1); // a second point of node 1
    expect(i.nearCheck(pt(1, 1), 200)).toBeUndefined();
    expect(indexOf([pt(1, 1), poly(rect(0, 0, 2, 2))]).nearCheck(pt(1, 1), 200)).toBeUndefined();
  });
  it('estimates near matches from bucket sizes: about the points inside the cap, at most the points of its buckets', () => {
    const points: GeoValue[] = [];
    for (let k = 0; k < 40_000; k++) points.push(pt(-30 + ((k * 7919) % 60_000) / 1000, 20 + ((k * 104_729) % 40_000) / 1000));
    const i = indexOf(points);
    const check = i.nearCheck(pt(0, 40), 150_000);
    const exact = i.near(pt(0, 40), 150_000).length;
    expect(check?.upper).toBeGreaterThanOrEqual(exact);
    expect(check?.estimate).toBeGreaterThan(exact * 0.8);
    expect(check?.estimate).toBeLessThan(exact * 1.25);
  });
  it("the cap's inner box (points accepted without their distance) lies inside the cap, and covers most of it", () => {
    fc.assert(
      fc.property(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -89, max: 89, noNaN: true }), fc.double({ min: 1, max: 9_000_000, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (lng, lat, d, u, v) => {
        const box = capInnerBox([lng, lat], d);
        if (box === undefined) return;
        const [w, s, e, n] = box;
        // Corners, edge midpoints and one random point of the box: all within d by the exact formula.
        for (const [x, y] of [[w, s], [w, n], [e, s], [e, n], [(w + e) / 2, s], [(w + e) / 2, n], [w, (s + n) / 2], [e, (s + n) / 2], [w + u * (e - w), s + v * (n - s)]] as [number, number][]) {
          expect(haversineMeters([lng, lat], [x, y])).toBeLessThanOrEqual(d);
        }
      }),
      { numRuns: 2000 },
    );
    // Away from the poles it is nearly the inscribed square (2/π of the cap): corners just inside the circle.
    const box = capInnerBox([10, 45], 150_000);
    expect(box).toBeDefined();
    const [w, s, e, n] = box as [number, number, number, number];
    expect(haversineMeters([10, 45], [e, n])).toBeGreaterThan(145_000);
    expect(haversineMeters([10, 45], [w, s])).toBeGreaterThan(145_000);
  });
  it('answers near on 100k points quickly', () => {
    const i = new GeoIndex();
    const grid = (k: number): [number, number] => [-10 + (k % 400) * 0.05, 40 + Math.floor(k / 400) * 0.05];
    for (let k = 0; k < 100_000; k++) i.add(pt(...grid(k)), k);
    const t0 = performance.now();
    const r = i.near(pt(0, 45), 10_000);
    expect(performance.now() - t0).toBeLessThan(200);
    expect(r).toEqual(Array.from({ length: 100_000 }, (_, k) => k).filter((k) => meters([0, 45], grid(k)) <= 10_000));
  });
});
