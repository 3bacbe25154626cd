// Conversions between GraphQL values and stored values (REFERENCE §2: Int64 is full precision,
// DateTime is kept as Dgraph answers it (RFC 3339, `2000-01-01` → `2000-01-01T00:00:00Z`), geo values are GeoJSON-like, embeddings are Float32Array).

import { formatDateTime, storedDateTimeKey } from '../indexes/datetime-key.js';
import type { GeoMultiPolygon, GeoPoint, GeoPolygon, GeoValue, RangeBounds, ScalarValue } from '../indexes/value-index.js';
import type { FieldModel } from '../schema/model.js';
import { FieldError } from './exec-context.js';
import { messages } from '../errors/messages.js';

/** A GraphQL input value (already coerced by graphql-js) as the store keeps it. */
export function toStoredValue(field: FieldModel, value: unknown): ScalarValue {
  if (typeof value === 'string' && field.typeName === 'String') return value; // the commonest case first
  // An embedding's typeName is Float: it must be caught before the Float case below.
  if (field.kind === 'embedding') return Float32Array.from(value as number[]);
  switch (field.typeName) {
    case 'Int64':
      return toInt64(value);
    case 'Int':
    case 'Float':
      return Number(value);
    case 'Boolean':
      return Boolean(value);
    case 'DateTime':
      return formatDateTime(String(value)) ?? String(value);
    case 'Point':
      return geoPoint(value as PointInput);
    case 'Polygon':
      return geoPolygon(value as PolygonInput);
    case 'MultiPolygon':
      return geoMultiPolygon(value as MultiPolygonInput);
    default:
      return String(value);
  }
}

/** A stored value as it appears in a response (before the sub-selection of geo objects). */
export function toOutputValue(value: ScalarValue): unknown {
  if (typeof value !== 'object') return value;
  if (value instanceof Float32Array) return Array.from(value);
  return geoOutput(value);
}

function toInt64(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new FieldError(messages.int64Mismatch(String(value)));
}

/** The geo input shapes of the generated API (`PointRef`, `PolygonRef`, `MultiPolygonRef`). */
export interface PointInput {
  readonly longitude: number;
  readonly latitude: number;
}
export interface PolygonInput {
  readonly coordinates: readonly { readonly points: readonly PointInput[] }[];
}
export interface MultiPolygonInput {
  readonly polygons: readonly PolygonInput[];
}

export function geoPoint(p: PointInput): GeoPoint {
  return { type: 'Point', coordinates: [p.longitude, p.latitude] };
}

export function geoPolygon(p: PolygonInput): GeoPolygon {
  return { type: 'Polygon', coordinates: p.coordinates.map((ring) => ring.points.map((pt) => [pt.longitude, pt.latitude] as const)) };
}

export function geoMultiPolygon(m: MultiPolygonInput): GeoMultiPolygon {
  return { type: 'MultiPolygon', coordinates: m.polygons.map((p) => geoPolygon(p).coordinates) };
}

function geoOutput(value: GeoValue): unknown {
  const ring = (points: readonly (readonly [number, number])[]) => ({
    points: points.map(([longitude, latitude]) => ({ longitude, latitude })),
  });
  switch (value.type) {
    case 'Point':
      return { longitude: value.coordinates[0], latitude: value.coordinates[1] };
    case 'Polygon':
      return { coordinates: value.coordinates.map(ring) };
    case 'MultiPolygon':
      return { polygons: value.coordinates.map((polygon) => ({ coordinates: polygon.map(ring) })) };
  }
}

/**
 * The bounds of a range function (`le`, `lt`, `ge`, `gt`, `between`) or of `eq` (one value), as stored
 * values; a DateTime bound as its index key (epoch ms, what the index reads the stored text as), so a
 * request's bounds are parsed here once, not by each index call that takes them (estimates, walks, checks).
 */
export function rangeBounds(field: FieldModel, op: string, arg: unknown): RangeBounds<ScalarValue> {
  if (op === 'between') {
    const { min, max } = arg as { min: unknown; max: unknown };
    return { lower: { value: boundValue(field, min), inclusive: true }, upper: { value: boundValue(field, max), inclusive: true } };
  }
  const bound = { value: boundValue(field, arg), inclusive: op !== 'lt' && op !== 'gt' };
  if (op === 'eq') return { lower: bound, upper: bound };
  return op === 'le' || op === 'lt' ? { upper: bound } : { lower: bound };
}

function boundValue(field: FieldModel, value: unknown): ScalarValue {
  if (field.typeName !== 'DateTime') return toStoredValue(field, value);
  // Text that is no DateTime stays text (toStoredValue's answer): the index finds it no key, as before.
  const text = String(value);
  return storedDateTimeKey(text) ?? text;
}
