// Geo filters (near, within, contains, intersects) over HTTP, on a seeded random data set, against an
// oracle that is not the code under test: Turf. Distances are great-circle distances on a sphere of
// Dgraph's radius (types/earth.go: EarthRadiusMeters = 6371 km; Turf's own default is 6371.0088 km),
// so the oracle takes Turf's central angle (units: radians) times that radius. Polygon edges are
// straight lines in longitude/latitude and boundaries count as inside, as in Turf's predicates.

import { booleanContains } from '@turf/boolean-contains';
import { booleanIntersects } from '@turf/boolean-intersects';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { booleanWithin } from '@turf/boolean-within';
import { distance } from '@turf/distance';
import { earthRadius as turfEarthRadius } from '@turf/helpers';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng } from '../crash/crash-helpers.js';
import { postGraphql } from './helpers/http.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

const earthRadiusMeters = 6_371_000;
const schema = 'type Place { name: String! @id loc: Point @search area: Polygon @search }';

interface Place {
  readonly name: string;
  readonly loc: Position;
  /** What the rings were drawn around (inside the hole, when there is one). */
  readonly center: Position;
  /** Outer ring, then holes; rings closed. */
  readonly area: Position[][];
}

const random = rng(20_251_125);
const between = (low: number, high: number): number => low + random() * (high - low);

/** A star-shaped ring around `center` (so never self-intersecting), closed, counter-clockwise. */
function starRing(center: Position, minRadius: number, maxRadius: number, corners: number): Position[] {
  const [x = 0, y = 0] = center;
  const ring = Array.from({ length: corners }, (_, i) => {
    const angle = ((i + between(0.1, 0.9)) / corners) * 2 * Math.PI;
    const r = between(minRadius, maxRadius);
    return [x + r * Math.cos(angle), y + r * Math.sin(angle)];
  });
  return [...ring, ring[0] as Position];
}

function randomPlace(i: number): Place {
  const center = [between(-20, 20), between(-15, 15)];
  // Every third area has a hole around its centre. With six or more corners every edge of the outer
  // ring stays over 0.35 from the centre, so the hole (at most 0.3) lies inside it: a valid polygon.
  const withHole = i % 3 === 0;
  const outer = starRing(center, 0.6, 3, (withHole ? 6 : 3) + Math.floor(random() * 6));
  const area = withHole ? [outer, starRing(center, 0.1, 0.3, 4).reverse()] : [outer];
  return { name: `p${String(i).padStart(3, '0')}`, loc: [between(-22, 22), between(-17, 17)], center, area };
}

const places = Array.from({ length: 300 }, (_, i) => randomPlace(i));

const pointRef = ([longitude, latitude]: Position): Record<string, unknown> => ({ longitude, latitude });
const polygonRef = (rings: Position[][]): Record<string, unknown> => ({ coordinates: rings.map((ring) => ({ points: ring.map(pointRef) })) });
const polygon = (rings: Position[][]): Polygon => ({ type: 'Polygon', coordinates: rings });

/** A place's outer ring scaled by `factor` around its centre (holds the area when the ring is star-shaped around it and factor > 1). */
function scaledRing(p: Place, factor: number): Position[] {
  const [cx = 0, cy = 0] = p.center;
  return (p.area[0] as Position[]).map(([x = 0, y = 0]) => [cx + factor * (x - cx), cy + factor * (y - cy)]);
}

/** The place's area holds polygon `q`: its outer ring contains q and q meets none of its holes. */
function holdsPolygon(p: Place, q: Position[][]): boolean {
  return booleanContains(polygon([p.area[0] as Position[]]), polygon(q)) && p.area.slice(1).every((hole) => !booleanIntersects(polygon([hole]), polygon(q)));
}

let server: ServerProcess;

beforeAll(async () => {
  server = await startWithSchema(schema);
  const input = places.map((p) => ({ name: p.name, loc: pointRef(p.loc), area: polygonRef(p.area) }));
  const added = (await postGraphql(server.url, { query: 'mutation($input: [AddPlaceInput!]!) { addPlace(input: $input) { numUids } }', variables: { input } })).json() as { data?: unknown };
  expect(added.data).toEqual({ addPlace: { numUids: places.length } });
});
afterAll(async () => {
  await server?.stop();
});

/** Names of the places matching `filter`, in name order, as the server answers over HTTP. */
async function matching(filter: Record<string, unknown>): Promise<string[]> {
  const answer = (await postGraphql(server.url, { query: 'query($f: PlaceFilter) { queryPlace(filter: $f, order: { asc: name }) { name } }', variables: { f: filter } })).json() as {
    data?: { queryPlace: { name: string }[] };
    errors?: unknown;
  };
  expect(answer.errors).toBeUndefined();
  return (answer.data?.queryPlace ?? []).map((p) => p.name);
}

const expected = (keep: (p: Place) => boolean): string[] => places.filter(keep).map((p) => p.name);

/** Runs `cases` queries; every answer must equal the oracle's, and the cases together must hit both sides. */
async function compare(cases: number, make: () => { filter: Record<string, unknown>; keep: (p: Place) => boolean }): Promise<void> {
  let hits = 0;
  for (let c = 0; c < cases; c++) {
    const { filter, keep } = make();
    const want = expected(keep);
    expect(await matching(filter), JSON.stringify(filter)).toEqual(want);
    hits += want.length;
  }
  // A data set on which every answer is empty (or everything) would prove nothing.
  expect(hits).toBeGreaterThan(cases);
  expect(hits).toBeLessThan(cases * places.length);
}

describe('geo filters against a Turf oracle', () => {
  it('the data set is what was written (read back)', async () => {
    const answer = (await postGraphql(server.url, { query: '{ getPlace(name: "p007") { loc { longitude latitude } area { coordinates { points { longitude latitude } } } } }' })).json() as {
      data?: unknown;
    };
    const p = places[7] as Place;
    expect(answer.data).toEqual({ getPlace: { loc: pointRef(p.loc), area: polygonRef(p.area) } });
  });

  it('a Point is written with its sub-selection: aliases, __typename, @skip, repeated fields, in selection order', async () => {
    const query = 'query ($s: Boolean!) { queryPlace(filter: { name: { in: ["p001", "p002"] } }) { name loc { lat: latitude __typename longitude @skip(if: $s) latitude } } }';
    const point = (p: Place, skip: boolean): string => {
      const [longitude, latitude] = p.loc;
      return `{"lat":${JSON.stringify(latitude)},"__typename":"Point",${skip ? '' : `"longitude":${JSON.stringify(longitude)},`}"latitude":${JSON.stringify(latitude)}}`;
    };
    for (const skip of [false, true]) {
      const answer = await postGraphql(server.url, { query, variables: { s: skip } });
      const rows = [1, 2].map((i) => `{"name":"p00${i}","loc":${point(places[i] as Place, skip)}}`).join(',');
      // Compared as text: the members' order is the selection's.
      expect(JSON.stringify((answer.json() as { data: unknown }).data)).toBe(`{"queryPlace":[${rows}]}`);
    }
    const empty = await postGraphql(server.url, { query: '{ queryPlace(filter: { name: { eq: "p001" } }) { loc { latitude @skip(if: true) } } }' });
    expect((empty.json() as { data: unknown }).data).toEqual({ queryPlace: [{ loc: {} }] });
  });

  it('near on a Point: great-circle distance at most `distance` meters', async () => {
    await compare(25, () => {
      const center = [between(-20, 20), between(-15, 15)];
      const meters = between(50_000, 900_000);
      return {
        filter: { loc: { near: { coordinate: pointRef(center), distance: meters } } },
        keep: (p) => distance(center, p.loc, { units: 'radians' }) * earthRadiusMeters <= meters,
      };
    });
  });

  it("near uses Dgraph's radius: a place between the 6371 km and Turf's 6371.0088 km answers", async () => {
    // At a central angle θ the two radii put the place θ × 8.8 m apart; ask for the middle of that gap.
    for (const p of places.slice(0, 10)) {
      const center = [(p.loc[0] ?? 0) + between(-3, 3), (p.loc[1] ?? 0) + between(-3, 3)];
      const angle = distance(center, p.loc, { units: 'radians' });
      const meters = angle * (earthRadiusMeters + 4.4);
      expect(turfEarthRadius).toBe(6_371_008.8);
      expect(angle * turfEarthRadius).toBeGreaterThan(meters); // outside on Turf's default sphere
      const answer = await matching({ loc: { near: { coordinate: pointRef(center), distance: meters } } });
      expect(answer).toContain(p.name);
      expect(answer).toEqual(expected((q) => distance(center, q.loc, { units: 'radians' }) * earthRadiusMeters <= meters));
    }
  });

  it('within on a Point: the point lies in the polygon (holes excluded)', async () => {
    await compare(25, () => {
      const center = [between(-18, 18), between(-13, 13)];
      const withHole = random() < 0.5;
      const outer = starRing(center, 2, 9, (withHole ? 6 : 3) + Math.floor(random() * 6));
      const rings = withHole ? [outer, starRing(center, 0.3, 0.9, 5).reverse()] : [outer];
      return { filter: { loc: { within: { polygon: polygonRef(rings) } } }, keep: (p) => booleanPointInPolygon(p.loc, polygon(rings)) };
    });
  });

  it('contains a point on a Polygon: the stored polygon holds the point (holes excluded)', async () => {
    await compare(40, () => {
      // Half the points at a random place's centre, where holes are.
      const at = random() < 0.5 ? [between(-21, 21), between(-16, 16)] : (places[Math.floor(random() * places.length)] as Place).center;
      return { filter: { area: { contains: { point: pointRef(at) } } }, keep: (p) => booleanPointInPolygon(at, polygon(p.area)) };
    });
  });

  it('contains a polygon on a Polygon: the query polygon lies in the stored one and misses its holes', async () => {
    await compare(40, () => {
      // Half of them around a place's centre (in its hole, if it has one), half anywhere.
      const near = random() < 0.5;
      const base = near ? (places[Math.floor(random() * places.length)] as Place).center : [between(-20, 20), between(-15, 15)];
      const at = near ? [(base[0] ?? 0) + between(-0.5, 0.5), (base[1] ?? 0) + between(-0.5, 0.5)] : base;
      const q = [starRing(at, 0.02, between(0.05, near ? 0.4 : 1), 4)];
      return {
        filter: { area: { contains: { polygon: polygonRef(q) } } },
        keep: (p) => holdsPolygon(p, q),
      };
    });
  });

  it('contains a polygon on a Polygon: a polygon around a hole, inside the outer ring, is not contained', async () => {
    // Sixteen corners at 0.32-0.34 from the centre: every edge passes over 0.3 from it, around the hole
    // (at most 0.3), and every corner is under the outer ring's 0.35.
    const holed = places.filter((p) => p.area.length > 1).slice(0, 20);
    for (const p of holed) {
      const q = [starRing(p.center, 0.32, 0.34, 16)];
      expect(booleanContains(polygon([p.area[0] as Position[]]), polygon(q))).toBe(true);
      const answer = await matching({ area: { contains: { polygon: polygonRef(q) } } });
      expect(answer).not.toContain(p.name);
      expect(answer).toEqual(expected((o) => holdsPolygon(o, q)));
    }
  });

  it('within on a Polygon: the stored polygon lies entirely in the query polygon', async () => {
    await compare(25, () => {
      const q = [starRing([between(-18, 18), between(-13, 13)], 3, 10, 3 + Math.floor(random() * 6))];
      return { filter: { area: { within: { polygon: polygonRef(q) } } }, keep: (p) => booleanWithin(polygon(p.area), polygon(q)) };
    });
  });

  it('within on a Polygon: a notch in the query polygon that cuts one edge of the stored one excludes it', async () => {
    // Six corners or more: the ring is star-shaped around its centre (no gap between corners reaches 180°).
    for (const p of places.filter((o) => (o.area[0]?.length ?? 0) > 6).slice(0, 10)) {
      // The outer ring scaled by 1.5 around its centre holds the area ...
      const [cx = 0, cy = 0] = p.center;
      const corners = (p.area[0] as Position[]).slice(0, -1);
      const whole = [scaledRing(p, 1.5)];
      const scaled = whole[0] as Position[];
      // ... until a notch reaching 0.05 from the centre between the first two corners cuts the edge
      // between them; both corners stay inside.
      const unit = ([x = 0, y = 0]: Position): Position => [(x - cx) / Math.hypot(x - cx, y - cy), (y - cy) / Math.hypot(x - cx, y - cy)];
      const [ux = 0, uy = 0] = unit(corners[0] as Position);
      const [vx = 0, vy = 0] = unit(corners[1] as Position);
      const notch = [cx + (0.05 * (ux + vx)) / Math.hypot(ux + vx, uy + vy), cy + (0.05 * (uy + vy)) / Math.hypot(ux + vx, uy + vy)];
      const notched = [[scaled[0] as Position, notch, ...scaled.slice(1)]];
      expect([booleanWithin(polygon(p.area), polygon(whole)), booleanWithin(polygon(p.area), polygon(notched))]).toEqual([true, false]);
      for (const q of [whole, notched]) {
        expect(await matching({ area: { within: { polygon: polygonRef(q) } } })).toEqual(expected((o) => booleanWithin(polygon(o.area), polygon(q))));
      }
    }
  });

  it('intersects a polygon or a multi-polygon on a Polygon: they share at least one point', async () => {
    await compare(25, () => {
      const q = [starRing([between(-20, 20), between(-15, 15)], 0.2, 2.5, 3 + Math.floor(random() * 6))];
      return { filter: { area: { intersects: { polygon: polygonRef(q) } } }, keep: (p) => booleanIntersects(polygon(p.area), polygon(q)) };
    });
    // A query polygon around the whole area, and a tiny one at its centre (in the hole, if it has one).
    for (const p of places.filter((o) => (o.area[0]?.length ?? 0) > 6).slice(0, 12)) {
      const cases: [Position[][], boolean][] = [[[scaledRing(p, 1.5)], true], [[starRing(p.center, 0.01, 0.02, 5)], p.area.length === 1]];
      for (const [q, meets] of cases) {
        const answer = await matching({ area: { intersects: { polygon: polygonRef(q) } } });
        expect(answer.includes(p.name)).toBe(meets);
        expect(answer).toEqual(expected((o) => booleanIntersects(polygon(o.area), polygon(q))));
      }
    }
    await compare(15, () => {
      const parts = [0, 1, 2].map(() => [starRing([between(-20, 20), between(-15, 15)], 0.2, 1.5, 5)]);
      const multi: MultiPolygon = { type: 'MultiPolygon', coordinates: parts };
      return { filter: { area: { intersects: { multiPolygon: { polygons: parts.map(polygonRef) } } } }, keep: (p) => booleanIntersects(polygon(p.area), multi) };
    });
  });

  // Last in this block: it writes. A single Point is written from the geo index's coordinates by id
  // (exec/write-objects.ts writePointById): they must follow every write of the field, and a node
  // without a point falls back to the stored value (null).
  it('a Point read back after it is added, replaced and removed, on the list and the get path', async () => {
    const read = async (): Promise<unknown> => {
      const listed = (await postGraphql(server.url, { query: '{ queryPlace(filter: { name: { in: ["zz1", "zz2"] } }, order: { asc: name }) { name loc { longitude latitude } } }' })).json() as { data: unknown };
      const got = (await postGraphql(server.url, { query: '{ getPlace(name: "zz1") { loc { latitude longitude } } }' })).json() as { data: { getPlace: unknown } };
      return { listed: listed.data, got: got.data.getPlace };
    };
    // Sums that are no short decimal (17 significant digits in JSON).
    const first = [170 + 1 / 3, 45 + 0.1 + 0.2];
    const second = [-(170 + 2 / 7), -(60 + 1 / 3)];
    await postGraphql(server.url, { query: 'mutation($input: [AddPlaceInput!]!) { addPlace(input: $input) { numUids } }', variables: { input: [{ name: 'zz1', loc: pointRef(first) }, { name: 'zz2' }] } });
    expect(await read()).toEqual({ listed: { queryPlace: [{ name: 'zz1', loc: pointRef(first) }, { name: 'zz2', loc: null }] }, got: { loc: { latitude: first[1], longitude: first[0] } } });
    const update = 'mutation($p: PlacePatch) { updatePlace(input: { filter: { name: { eq: "zz1" } }, set: $p }) { numUids } }';
    await postGraphql(server.url, { query: update, variables: { p: { loc: pointRef(second) } } });
    expect(await read()).toEqual({ listed: { queryPlace: [{ name: 'zz1', loc: pointRef(second) }, { name: 'zz2', loc: null }] }, got: { loc: { latitude: second[1], longitude: second[0] } } });
    await postGraphql(server.url, { query: 'mutation($p: PlacePatch) { updatePlace(input: { filter: { name: { eq: "zz1" } }, remove: $p }) { numUids } }', variables: { p: { loc: pointRef(second) } } });
    expect(await read()).toEqual({ listed: { queryPlace: [{ name: 'zz1', loc: null }, { name: 'zz2', loc: null }] }, got: { loc: null } });
    await postGraphql(server.url, { query: 'mutation { deletePlace(filter: { name: { in: ["zz1", "zz2"] } }) { numUids } }' });
  });
});

describe('near, ordered and paged, EXPLAINed', () => {
  let debug: ServerProcess;
  beforeAll(async () => {
    debug = await startWithSchema(schema, { args: ['--debug', '--threads', '1'] });
    const input = places.map((p) => ({ name: p.name, loc: pointRef(p.loc), area: polygonRef(p.area) }));
    await postGraphql(debug.url, { query: 'mutation($input: [AddPlaceInput!]!) { addPlace(input: $input) { numUids } }', variables: { input } });
  });
  afterAll(async () => {
    await debug?.stop();
  });

  it('the point grid answers near, then the page is the top of its matches', async () => {
    const center = [3, -2];
    const meters = 700_000;
    const query = 'query($f: PlaceFilter) { queryPlace(filter: $f, order: { desc: name }, first: 5) { name } }';
    const answer = (await postGraphql(debug.url, { query, variables: { f: { loc: { near: { coordinate: pointRef(center), distance: meters } } } }, extensions: { explain: true } })).json() as {
      data?: { queryPlace: { name: string }[] };
      extensions?: { explain: string };
    };
    const all = expected((p) => distance(center, p.loc, { units: 'radians' }) * earthRadiusMeters <= meters);
    expect(all.length).toBeGreaterThan(5);
    expect(answer.data).toEqual({ queryPlace: all.reverse().slice(0, 5).map((name) => ({ name })) });
    // A geo index has no keys to estimate from: its estimate is 1 whatever the radius; the step that ran used the real count.
    expect(answer.extensions?.explain).toBe(
      ['queryPlace: Place', '  near loc via geo [1] got ' + String(all.length), '  order desc name by sort', '  page offset 0 first 5', `  ran top-k over ${all.length} candidates`].join('\n'),
    );
  });
});
