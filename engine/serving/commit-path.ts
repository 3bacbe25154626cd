// Everything that changes state for a client: mutations through the durable commit queue (answered only
// once their log record is written, and fsynced for `always`), newly registered persisted queries, and
// the `@lambdaOnMutate` webhooks fired once a commit is durable.

import type { EngineResponse, GraphQLRequest } from '../api.js';
import { webhookOperations, fireWebhooks, type WebhookSender } from '../custom/webhooks.js';
import { wireError } from '../errors/wire-error.js';
import type { CommitTurn } from '../exec/executor.js';
import type { MutationEvent } from '../exec/exec-context.js';
import { serializeResponse } from '../exec/serialize-response.js';
import { DurabilityError, type Persistence } from '../persist/persistence.js';
import { answerWithoutSchema } from '../request/no-schema.js';
import type { PersistedQueries } from '../request/persisted-queries.js';
import type { PreparedOperation } from '../request/prepare-request.js';
import type { SchemaLifecycle, ServingState } from './schema-lifecycle.js';

/** Thrown inside a turn to prepare the request again (mutateDurably). */
const schemaChanged = new Error('the schema changed');

export class CommitPath {
  /** commitTs of in-memory engines (with a log, the log position is used). */
  #commits = 0;
  /** Set once the data directory is open; undefined for a purely in-memory engine. */
  persistence: Persistence | undefined;

  constructor(
    private readonly schema: SchemaLifecycle,
    private readonly webhooks: WebhookSender,
    private readonly persistedQueries: PersistedQueries,
  ) {}

  /** The last commit: the log position, or the in-memory count. */
  get lastCommit(): number {
    return this.persistence?.lastLsn ?? this.#commits;
  }

  /** Told of every persisted query a request registered (the log counts them). */
  onRegistered: () => void = () => undefined;
  /** Told of every commit once it is visible (and durable, with a data directory): live subscriptions. */
  afterCommit: () => void = () => undefined;

  /**
   * Commits without the log: each segment in place, counted, then its webhooks (an engine without a data
   * directory; with one, only mutations writing nothing here come this way: engine/index.ts).
   */
  inMemory(state: ServingState, request: GraphQLRequest): CommitTurn {
    return (segment) => {
      const events = segment();
      if (events.length > 0) this.#committed(state, events, ++this.#commits, request);
      return Promise.resolve(undefined);
    };
  }

  /**
   * A mutation through the commit queue, one turn per segment (exec/executor.ts CommitTurn): remote
   * fields run between turns, so a lambda's own writes back into the service do not wait behind it.
   * `persistence` is this.persistence, checked by the caller.
   * `claims`: what the `@auth` rules read (engine/auth/rule-eval.ts); undefined: none apply.
   */
  async mutateDurably(
    persistence: Persistence,
    state: ServingState,
    prepared: PreparedOperation,
    request: GraphQLRequest,
    requestId: string,
    claims?: Readonly<Record<string, unknown>>,
  ): Promise<EngineResponse> {
    for (let current = state, operation = prepared; ; ) {
      if (current.executor === null) return { kind: 'ok', body: serializeResponse({ ...answerWithoutSchema(operation), ...requestExtensions(requestId) }) };
      // The answer is written once its last segment is durable: that record's LSN goes in `extensions`.
      let lsn: number | undefined;
      const turn: CommitTurn = async (segment, fresh) => {
        let events: readonly MutationEvent[];
        try {
          ({ value: events, lsn } = await persistence.mutate(() => {
            if (fresh && this.schema.state !== current) throw schemaChanged;
            return segment();
          }));
        } catch (error) {
          if (!(error instanceof DurabilityError)) throw error;
          return error.message;
        }
        // Durable now: the webhooks may go out, subscriptions read it.
        this.#committed(current, events, persistence.lastLsn, request);
        return undefined;
      };
      try {
        const { touchedUids = 0, ...result } = await current.executor.run(operation, request, undefined, claims, turn);
        return { kind: 'ok', touchedUids, body: serializeResponse({ ...result, extensions: { ...result.extensions, requestID: requestId, ...(lsn === undefined ? {} : { lsn }) } }) };
      } catch (error) {
        if (error !== schemaChanged) throw error;
        // The schema changed while this waited in the queue, before anything ran: prepare again against the new one.
        current = this.schema.state;
        const again = current.preparer.prepare(request);
        if (!again.ok) return { kind: again.kind, body: serializeResponse({ errors: again.errors }) };
        operation = again.prepared;
      }
    }
  }

  /**
   * `extensions.persistedQuery`: the request with its registered query filled in (a new one registered,
   * durably, first: only then a promise), or the refusal (Dgraph answers these before parsing, without `data`).
   */
  /** A replica's registrations are its writer's to make (EngineOptions.writer): the whole request goes there. */
  forwardRegistration: ((request: GraphQLRequest) => Promise<EngineResponse>) | undefined;

  resolvePersistedQuery(request: GraphQLRequest): { readonly request: GraphQLRequest } | EngineResponse | Promise<{ readonly request: GraphQLRequest } | EngineResponse> {
    const lookup = this.persistedQueries.lookup(request);
    switch (lookup.kind) {
      case 'none':
        return { request };
      case 'run':
        return { request: lookup.request };
      case 'refused':
        return { kind: 'request-error', body: serializeResponse({ errors: [wireError(lookup.message)] }) };
      case 'register':
        if (this.forwardRegistration !== undefined) {
          this.persistedQueries.abandon(lookup.sha256);
          return this.forwardRegistration(request);
        }
        return this.#register(request, lookup.sha256, lookup.query);
    }
  }

  async #register(request: GraphQLRequest, sha256: string, query: string): Promise<{ readonly request: GraphQLRequest } | EngineResponse> {
    const persistence = this.persistence;
    if (persistence === undefined) this.persistedQueries.register(sha256, query);
    else {
      try {
        await persistence.persistedQuery(sha256, query, () => this.persistedQueries.register(sha256, query));
      } catch (error) {
        this.persistedQueries.abandon(sha256);
        if (!(error instanceof DurabilityError)) throw error;
        return { kind: 'ok', body: serializeResponse({ errors: [wireError(error.message.replace('the mutation', 'the persisted query'))] }) };
      }
    }
    this.onRegistered();
    return { request };
  }

  /** A committed segment (durable, with a data directory): its webhooks, and live subscriptions told. */
  #committed(state: ServingState, events: readonly MutationEvent[], commitTs: number, request: GraphQLRequest): void {
    if (events.length === 0) return;
    this.#fireWebhooks(state, events, commitTs, request);
    this.afterCommit();
  }

  #fireWebhooks(state: ServingState, events: readonly MutationEvent[], commitTs: number, request: GraphQLRequest): void {
    const compiled = state.compiled;
    if (compiled === null || this.webhooks.lambdaUrl === undefined) return;
    // Keep (and schedule) only what a @lambdaOnMutate asks for: holding every mutation's input until
    // the next turn would pin bulk loads in memory.
    const wanted = events.filter((e) => e.rootIds.length > 0 && webhookOperations(compiled.apiSchema, e.type).has(e.operation));
    if (wanted.length === 0) return;
    setImmediate(() => fireWebhooks(this.webhooks, compiled, wanted, commitTs, request));
  }
}

/** `extensions.requestID` of a mutation's answer. */
export function requestExtensions(requestId: string | undefined): { extensions?: Record<string, unknown> } {
  return requestId === undefined ? {} : { extensions: { requestID: requestId } };
}
