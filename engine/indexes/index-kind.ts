// Index kind names as the store and exec speak them (the same strings as the schema model's IndexKind,
// defined here so that indexes/ and store/ need nothing from schema/).

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
