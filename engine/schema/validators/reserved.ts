// Names the generated API or DQL reserves (REFERENCE §4.7).
import { INBUILT_TYPES } from '../search-table.js';

const RESERVED_TYPE_NAMES = new Set(['uid', 'Subscription', 'Point']);

export function isReservedKeyWord(name: string): boolean {
  return (
    name in INBUILT_TYPES ||
    name === 'Query' ||
    name === 'Mutation' ||
    RESERVED_TYPE_NAMES.has(name) ||
    name.toLowerCase() === 'as'
  );
}

export function isReservedArgument(name: string): boolean {
  return name === 'first' || name === 'offset' || name === 'filter' || name === 'order';
}

/** Built-in type names no user definition may take. */
export const FORBIDDEN_TYPE_NAMES: readonly string[] = [
  'Int64',
  'DateTime',
  'DgraphIndex',
  'AuthRule',
  'HTTPMethod',
  'Mode',
  'CustomHTTP',
  'IntFilter',
  'Int64Filter',
  'FloatFilter',
  'DateTimeFilter',
  'StringTermFilter',
  'StringRegExpFilter',
  'StringFullTextFilter',
  'StringExactFilter',
  'StringHashFilter',
  'PointGeoFilter',
  'PointRef',
  'NearFilter',
];
