// capRelation (indexes/geo-geometry.ts), what the near page's merge trusts: a box called inside a cap
// has every point within the distance (its points are merged untested), one called outside has none
// (its cell is skipped). Checked on random caps and boxes (near the poles and the antimeridian too)
// against points sampled over each box, corners and edges included.

import { describe, expect, it } from 'vitest';
import { capRelation, haversineLngLat, type BBox } from '../../../engine/indexes/geo-geometry.js';

let seed = 11;
const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
const between = (low: number, high: number): number => low + random() * (high - low);

describe('capRelation', () => {
  it('inside: every sampled point within the distance; outside: none', () => {
    const seen = { inside: 0, outside: 0, crossing: 0 };
    for (let t = 0; t < 3_000; t++) {
      const lat = t % 10 === 0 ? between(-89, 89) : between(-60, 60);
      const lng = t % 7 === 0 ? between(170, 180) : between(-180, 180);
      const meters = 10 ** between(3, 6.5);
      const spanDeg = 10 ** between(-2, 1) * (meters / 111_000);
      const west = Math.max(-180, Math.min(180, lng + between(-2, 2) * spanDeg));
      const south = Math.max(-90, Math.min(90, lat + between(-2, 2) * spanDeg));
      const box: BBox = [west, south, Math.min(180, west + between(0, 2) * spanDeg), Math.min(90, south + between(0, 2) * spanDeg)];
      const relation = capRelation(lng, lat, meters, box);
      seen[relation]++;
      if (relation === 'crossing') continue;
      for (let i = 0; i <= 8; i++) {
        for (let j = 0; j <= 8; j++) {
          const x = box[0] + ((box[2] - box[0]) * i) / 8;
          const y = box[1] + ((box[3] - box[1]) * j) / 8;
          const within = haversineLngLat(lng, lat, x, y) <= meters;
          expect(within, `${relation} ${lng},${lat} ${meters} [${box.join(',')}] at ${x},${y}`).toBe(relation === 'inside');
        }
      }
    }
    expect(seen.inside).toBeGreaterThan(100);
    expect(seen.outside).toBeGreaterThan(100);
    expect(seen.crossing).toBeGreaterThan(100);
  });

  it('a box across from the centre of the antimeridian is near through it', () => {
    expect(capRelation(179.9, 0, 50_000, [-180, -0.1, -179.9, 0.1])).toBe('inside');
    expect(capRelation(179.9, 0, 50_000, [-179, -0.1, -178.9, 0.1])).toBe('outside');
    expect(capRelation(179.9, 0, 50_000, [-179.9, -0.1, -179.5, 0.1])).toBe('crossing');
  });
});
