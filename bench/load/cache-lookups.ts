// The service's cache lookups (GET /metrics, `graphdb_cache_lookups_total`) around a timed run, so each
// shape's record says how often every cache it relied on hit. Peers and the ceiling expose none.

export type CacheLookups = Readonly<Record<string, { readonly hits: number; readonly misses: number }>>;

const line = /^graphdb_cache_lookups_total\{cache="(\w+)",result="(hit|miss)"\} (\d+)$/gm;

export async function readCacheLookups(graphqlUrl: string): Promise<CacheLookups> {
  const response = await fetch(new URL('/metrics', graphqlUrl));
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /metrics: HTTP ${response.status}: ${text.slice(0, 200)}`);
  const found: Record<string, { hits: number; misses: number }> = {};
  for (const [, cache, result, value] of text.matchAll(line)) {
    const entry = (found[cache as string] ??= { hits: 0, misses: 0 });
    if (result === 'hit') entry.hits = Number(value);
    else entry.misses = Number(value);
  }
  return found;
}

/** The lookups between two readings, only caches that were consulted. */
export function lookupsBetween(before: CacheLookups, after: CacheLookups): CacheLookups {
  const out: Record<string, { hits: number; misses: number }> = {};
  for (const [name, now] of Object.entries(after)) {
    const hits = now.hits - (before[name]?.hits ?? 0);
    const misses = now.misses - (before[name]?.misses ?? 0);
    if (hits + misses > 0) out[name] = { hits, misses };
  }
  return out;
}
