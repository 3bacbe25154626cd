// Automatic persisted queries (Apollo's APQ, Dgraph's edgraph.ProcessPersistedQuery): a request whose
// `extensions.persistedQuery.sha256Hash` is set either registers its query under that hash (when the
// hash is the query's SHA-256) or, sent without a query, runs the query registered under it.
// Registered queries are logged (engine/persist) so they survive a restart, as Dgraph keeps them in
// its own graph. The decision is pure here; the engine makes a registration durable. Unlike Dgraph,
// at most `max` are kept (--max-persisted-queries): each costs memory and log space for good, so an
// unbounded store lets any client grow the process without end.

export const defaultMaxPersistedQueries = 10_000;

import { createHash } from 'node:crypto';
import type { GraphQLRequest } from '../api.js';
import { messages } from '../errors/messages.js';

export type PersistedLookup =
  /** No hash: an ordinary request. */
  | { readonly kind: 'none' }
  /** Run this request (the registered query filled in). */
  | { readonly kind: 'run'; readonly request: GraphQLRequest }
  /** A new hash with its matching query: register, then run. */
  | { readonly kind: 'register'; readonly sha256: string; readonly query: string }
  | { readonly kind: 'refused'; readonly message: string };

const none: PersistedLookup = { kind: 'none' };

/** The hash a request names, if any (Dgraph reads only `persistedQuery.sha256Hash`; `version` is not checked). */
function persistedQueryHash(extensions: unknown): string | undefined {
  if (typeof extensions !== 'object' || extensions === null) return undefined;
  const persisted = (extensions as Record<string, unknown>)['persistedQuery'];
  if (typeof persisted !== 'object' || persisted === null) return undefined;
  const hash = (persisted as Record<string, unknown>)['sha256Hash'];
  return typeof hash === 'string' && hash !== '' ? hash : undefined;
}

export class PersistedQueries {
  readonly #bySha = new Map<string, string>();
  /** Hashes allowed to register whose (durable) registration is still under way: they count against the cap. */
  readonly #pending = new Set<string>();

  /** `max` = 0: no limit. Queries restored from disk are all kept even past it; only new ones are refused. */
  constructor(private readonly max: number = defaultMaxPersistedQueries) {}

  get size(): number {
    return this.#bySha.size;
  }

  /** Dgraph's waterfall: unknown hash without a query, a query that does not hash to it, a query other than the registered one. */
  lookup(request: GraphQLRequest): PersistedLookup {
    if (request.extensions === undefined || request.extensions === null) return none;
    const sha256 = persistedQueryHash(request.extensions);
    if (sha256 === undefined) return none;
    const query = request.query ?? '';
    const registered = this.#bySha.get(sha256);
    if (registered === undefined) {
      if (query === '') return { kind: 'refused', message: messages.persistedQueryNotFound };
      if (createHash('sha256').update(query).digest('hex') !== sha256) return { kind: 'refused', message: messages.persistedQueryShaMismatch };
      if (this.max > 0 && !this.#pending.has(sha256) && this.#bySha.size + this.#pending.size >= this.max) {
        return { kind: 'refused', message: messages.persistedQueriesFull(this.max) };
      }
      this.#pending.add(sha256);
      return { kind: 'register', sha256, query };
    }
    if (query !== '' && query !== registered) return { kind: 'refused', message: messages.persistedQueryMismatch };
    return { kind: 'run', request: query === '' ? { ...request, query: registered } : request };
  }

  register(sha256: string, query: string): void {
    this.#pending.delete(sha256);
    this.#bySha.set(sha256, query);
  }

  /** A registration that failed (the log write did not succeed): it no longer counts against the cap. */
  abandon(sha256: string): void {
    this.#pending.delete(sha256);
  }

  entries(): [string, string][] {
    return [...this.#bySha];
  }
}
