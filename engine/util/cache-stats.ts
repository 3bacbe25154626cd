// Hit and miss counts of the caches requests rely on, process-wide: GET /metrics reports them and the
// bench reports each shape's hit rates from them. Plain number fields: a hit costs one increment.

export class CacheCounter {
  hits = 0;
  misses = 0;
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
}

export const cacheCounters = {
  document: new CacheCounter('document', 'parsed and validated documents, by query text'),
  documentShape: new CacheCounter('document_shape', 'validated document shapes (text with string and number literals blanked), on a document miss'),
  plan: new CacheCounter('plan', 'query plans of root lists, get lookups and edge filters, by field occurrence and argument shape'),
  admission: new CacheCounter('admission', 'cost admissions of documents whose page sizes are literals, until the store changes'),
  arguments: new CacheCounter('arguments', "a field's coerced arguments, within one request"),
  orderPrefix: new CacheCounter('order_prefix', 'first k of an index posting in one column order, until the column changes'),
} as const;

export type CacheStat = Pick<CacheCounter, 'name' | 'help' | 'hits' | 'misses'>;

export function cacheStats(): readonly CacheStat[] {
  return Object.values(cacheCounters).map(({ name, help, hits, misses }) => ({ name, help, hits, misses }));
}
