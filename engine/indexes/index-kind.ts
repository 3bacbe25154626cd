// Index kind names (DgraphIndex, REFERENCE §5.1) as store, indexes and exec speak them; the schema
// model re-exports this type, so the lower layers need nothing from schema/.

export type IndexKindName =
  | 'int'
  | 'int64'
  | 'float'
  | 'bool'
  | 'hash'
  | 'exact'
  | 'term'
  | 'fulltext'
  | 'trigram'
  | 'ngram'
  | 'year'
  | 'month'
  | 'day'
  | 'hour'
  | 'geo'
  | 'hnsw';
