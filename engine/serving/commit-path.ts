// Everything that changes state for a client: mutations through the durable commit queue (answered only
// once their log record is written, and fsynced for `always`), newly registered persisted queries, and
// the `@lambdaOnMutate` webhooks fired once a commit is durable.

import type { EngineResponse, GraphQLRequest } from '../api.js';
import { webhookOperations, fireWebhooks, type WebhookSender } from '../custom/webhooks.js';
import { wireError } from '../errors/wire-error.js';
import type { ExecutionResult } from '../exec/executor.js';
import { serializeResponse } from '../exec/serialize-response.js';
import { DurabilityError, type Persistence } from '../persist/persistence.js';
import { answerWithoutSchema } from '../request/no-schema.js';
import type { PersistedQueries } from '../request/persisted-queries.js';
import type { PreparedOperation } from '../request/prepare-request.js';
import type { SchemaLifecycle, ServingState } from './schema-lifecycle.js';

type MutationEvents = NonNullable<ExecutionResult['events']>;

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

  /** Told of every commit once it is visible (and durable, with a data directory): live subscriptions. */
  afterCommit: () => void = () => undefined;

  /** After an in-memory mutation: counts the commit and fires its webhooks. */
  committedInMemory(state: ServingState, events: MutationEvents, request: GraphQLRequest): void {
    this.#fireWebhooks(state, events, ++this.#commits, request);
    this.afterCommit();
  }

  /** A mutation through the commit queue; `persistence` is this.persistence, checked by the caller. */
  /** `claims`: what the `@auth` rules read (engine/auth/rule-eval.ts); undefined: none apply. */
  async mutateDurably(
    persistence: Persistence,
    state: ServingState,
    prepared: PreparedOperation,
    request: GraphQLRequest,
    requestId: string,
    claims?: Readonly<Record<string, unknown>>,
  ): Promise<EngineResponse> {
    let committed: { state: ServingState; events: ExecutionResult['events'] } | undefined;
    try {
      // The answer is written once the record is durable: its LSN goes in `extensions`.
      const { value: outcome, lsn } = await persistence.mutate(async (): Promise<EngineResponse | { readonly ran: Omit<ExecutionResult, 'events'> }> => {
        let current = state;
        let operation = prepared;
        if (this.schema.state !== state) {
          // The schema changed while this waited in the queue: prepare again against the new one.
          current = this.schema.state;
          const again = current.preparer.prepare(request);
          if (!again.ok) return { kind: again.kind, body: serializeResponse({ errors: again.errors }) };
          operation = again.prepared;
        }
        if (current.executor === null) return { kind: 'ok', body: serializeResponse({ ...answerWithoutSchema(operation), ...requestExtensions(requestId) }) };
        const { events, ...ran } = await current.executor.run(operation, request, undefined, claims);
        committed = { state: current, events };
        return { ran };
      });
      // Durable now: the webhooks may go out (after the response is on its way).
      if (committed?.events !== undefined) {
        this.#fireWebhooks(committed.state, committed.events, persistence.lastLsn, request);
        this.afterCommit();
      }
      if (!('ran' in outcome)) return outcome;
      const { touchedUids = 0, ...result } = outcome.ran;
      return { kind: 'ok', touchedUids, body: serializeResponse({ ...result, extensions: { ...result.extensions, requestID: requestId, lsn } }) };
    } catch (error) {
      if (!(error instanceof DurabilityError)) throw error;
      const fields = rootResponseNames(prepared);
      const errors = fields.length === 0 ? [wireError(error.message)] : fields.map((name) => ({ ...wireError(error.message), path: [name] }));
      const data = fields.length === 0 ? null : Object.fromEntries(fields.map((name) => [name, null]));
      return { kind: 'ok', body: serializeResponse({ errors, data, ...requestExtensions(requestId) }) };
    }
  }

  /**
   * `extensions.persistedQuery`: the request with its registered query filled in (a new one registered,
   * durably, first: only then a promise), or the refusal (Dgraph answers these before parsing, without `data`).
   */
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
    return { request };
  }

  #fireWebhooks(state: ServingState, events: MutationEvents, commitTs: number, request: GraphQLRequest): void {
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

/** Response names of the operation's root fields (for the all-null answer of a refused mutation). */
function rootResponseNames(prepared: PreparedOperation): string[] {
  const names: string[] = [];
  for (const selection of prepared.operation.selectionSet.selections) {
    if (selection.kind === 'Field') names.push(selection.alias?.value ?? selection.name.value);
  }
  return names;
}
