// Dgraph's table of @search arguments (REFERENCE §5.1): search arg → GraphQL type it applies to,
// stored index, generated filter input. Defaults apply when @search has no argument.
import type { IndexKind } from './model.js';

export interface SearchSpec {
  /** The GraphQL scalar the argument applies to (`Float` for hnsw vectors). */
  readonly gqlType: string;
  readonly index: IndexKind;
  /** Filter input for the field; empty when the index adds no filter (hnsw). */
  readonly filter: string;
}

export const SUPPORTED_SEARCHES: Readonly<Record<string, SearchSpec>> = {
  int: { gqlType: 'Int', index: 'int', filter: 'IntFilter' },
  int64: { gqlType: 'Int64', index: 'int', filter: 'Int64Filter' },
  float: { gqlType: 'Float', index: 'float', filter: 'FloatFilter' },
  bool: { gqlType: 'Boolean', index: 'bool', filter: 'Boolean' },
  hash: { gqlType: 'String', index: 'hash', filter: 'StringHashFilter' },
  exact: { gqlType: 'String', index: 'exact', filter: 'StringExactFilter' },
  term: { gqlType: 'String', index: 'term', filter: 'StringTermFilter' },
  fulltext: { gqlType: 'String', index: 'fulltext', filter: 'StringFullTextFilter' },
  trigram: { gqlType: 'String', index: 'trigram', filter: 'StringRegExpFilter' },
  regexp: { gqlType: 'String', index: 'trigram', filter: 'StringRegExpFilter' },
  ngram: { gqlType: 'String', index: 'ngram', filter: 'StringNgramFilter' },
  year: { gqlType: 'DateTime', index: 'year', filter: 'DateTimeFilter' },
  month: { gqlType: 'DateTime', index: 'month', filter: 'DateTimeFilter' },
  day: { gqlType: 'DateTime', index: 'day', filter: 'DateTimeFilter' },
  hour: { gqlType: 'DateTime', index: 'hour', filter: 'DateTimeFilter' },
  point: { gqlType: 'Point', index: 'geo', filter: 'PointGeoFilter' },
  polygon: { gqlType: 'Polygon', index: 'geo', filter: 'PolygonGeoFilter' },
  multiPolygon: { gqlType: 'MultiPolygon', index: 'geo', filter: 'PolygonGeoFilter' },
  hnsw: { gqlType: 'Float', index: 'hnsw', filter: '' },
};

/** Index used by a bare `@search` (enums default to hash). */
export const DEFAULT_SEARCHES: Readonly<Record<string, string>> = {
  Boolean: 'bool',
  Int: 'int',
  Int64: 'int64',
  Float: 'float',
  String: 'term',
  DateTime: 'year',
  Point: 'point',
  Polygon: 'polygon',
  MultiPolygon: 'multiPolygon',
};

/** Search arguments allowed on enum fields. */
export const ENUM_SEARCHES: ReadonlySet<string> = new Set(['hash', 'exact', 'trigram', 'regexp', 'ngram']);

/** GraphQL types usable in `order` and as aggregate min/max. */
export const ORDERABLE_TYPES: ReadonlySet<string> = new Set(['Int', 'Float', 'String', 'DateTime', 'Int64']);
/** GraphQL types that get aggregate sum/avg. */
export const NUMERIC_TYPES: ReadonlySet<string> = new Set(['Int', 'Float', 'Int64']);

/** Dgraph's inbuiltTypeToDgraph: scalar-like names never treated as references. */
export const INBUILT_TYPES: Readonly<Record<string, string>> = {
  ID: 'uid',
  Boolean: 'bool',
  Int: 'int',
  Int64: 'int',
  Float: 'float',
  String: 'string',
  DateTime: 'dateTime',
  Password: 'password',
  Point: 'geo',
  Polygon: 'geo',
  MultiPolygon: 'geo',
};
