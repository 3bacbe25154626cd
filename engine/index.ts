// The engine facade: the only module server/ imports. Every method resolves (never rejects):
// failures come back as GraphQL errors in the response body.

import { Kind, type OperationDefinitionNode } from 'graphql';
import { randomUUID } from 'node:crypto';
import type {
  EngineOptions,
  EngineResponse,
  GraphQLRequest,
  HealthInfo,
  Probe,
  SchemaError,
  SchemaUpdateResult,
  SnapshotResult,
  ReplicateResult,
  EngineLogger,
  AdminHost,
  CorsPolicy,
} from './api.js';
import { Acl } from './acl/acl.js';
import { accessToken, gateGraphql, guardianRefusal, storedRootsRefusal } from './acl/acl-gate.js';
import { onlyRemoteRoots } from './custom/remote-roots.js';
import { withAcl } from './admin/acl-admin-api.js';
import { adminRootValue } from './admin/admin-api.js';
import { aclAdminSchema, adminSchema } from './admin/admin-schema.js';
import { executeAdmin } from './admin/execute-admin.js';
import { withAudit } from './admin/admin-audit.js';
import { TaskList } from './admin/task-list.js';
import { authenticate, refuseForAuth, type AuthOutcome } from './auth/request-auth.js';
import { ANONYMOUS } from './auth/rule-eval.js';
import type { TokenVerifier } from './auth/token-verifier.js';
import { answerWhileDraining, refuseExecution } from './request/draining.js';
import { messages } from './errors/messages.js';
import { wireError, type WireError } from './errors/wire-error.js';
import { SubscriptionHub, type SubscriptionEvent, type SubscriptionFigures } from './subscriptions/subscription-hub.js';
import { subscriptionReads, type SubscriptionReads } from './subscriptions/reads.js';
import type { Touched } from './store/graph-store.js';
import type { Executor } from './exec/executor.js';
import { Graph } from './exec/graph.js';
import { serializeResponse } from './exec/serialize-response.js';
import { QueryBudget } from './exec/query-budget.js';
import { RequestPreparer } from './request/prepare-request.js';
import { answerRootFields, answerWithoutSchema, noSchemaApi } from './request/no-schema.js';
import { PersistedQueries, defaultMaxPersistedQueries } from './request/persisted-queries.js';
import { cacheMaxAgeOf } from './request/cache-control.js';
import type { PreparedOperation } from './request/prepare-request.js';
import { selfAddress } from './custom/address-guard.js';
import { CallRunner } from './custom/call-runner.js';
import type { StoreFigures } from './store/graph-store.js';
import type { IntrospectionOptions } from './custom/remote-introspection.js';
import { customFieldInSubscription } from './custom/subscription-check.js';
import { BytesResponse, withCacheControl } from './serving/bytes-response.js';
import { CommitPath, requestExtensions } from './serving/commit-path.js';
import { callLimits } from './serving/limits-from-options.js';
import { consoleLogger } from './util/console-logger.js';
import { openPersistence, seedFromFiles } from './serving/open-persistence.js';
import { nodeFileIo } from './persist/file-io.js';
import { LogApplier } from './serving/log-applier.js';
import { ReadAfter, consistencyHeader, readAfterHeader, readGate, readRefusal } from './serving/read-after.js';
import { stateDigest } from './serving/state-digest.js';
import { KIND_MUTATION, readFrames, type LogRecord } from './persist/log-format.js';
import { ReadWaitExpired, type CaptureState, type SnapshotIdentity } from './persist/persistence.js';
import { SchemaDeployQueue } from './serving/schema-deploy-queue.js';
import { RegistrationLog } from './serving/registration-log.js';
import { SchemaLifecycle, type ServingState } from './serving/schema-lifecycle.js';

export type * from './api.js';
export { renderSchemaErrors } from './admin/admin-api.js';
/** Request JSON parsing that keeps float-written integers apart (Dgraph refuses them for Int64). */
export { FloatText, hasFloatText, parseRequestJson } from './request/json-numbers.js';
export type { SubscriptionEvent, SubscriptionFigures } from './subscriptions/subscription-hub.js';
export type { WireError } from './errors/wire-error.js';
export { cacheStats, type CacheStat } from './util/cache-stats.js';
export { customCallFigures, latencyBuckets, LatencyTally, persistFigures } from './util/figures.js';
export { progressThrottle, type ProgressFigures, type ProgressThrottle } from './util/progress-throttle.js';
export type { StoreFigures } from './store/graph-store.js';
export { RestoreError, type LocalTail, type SharedLog, type SnapshotIdentity } from './persist/persistence.js';
export { SeedBaseMismatch } from './serving/open-persistence.js';
export { DATA_DIR_MODE, DATA_FILE_MODE, nodeFileIo } from './persist/file-io.js';
export { adoptSnapshotFile, newestSnapshotFile, type SnapshotFileInfo } from './persist/snapshot-transfer.js';
export { snapshotFileName } from './persist/data-dir.js';
export { clusterGuardianToken } from './acl/acl-tokens.js';

const serviceVersion = 'v25.0.0-ts';

/**
 * The headers that can change a subscription's answers: the `@auth` token header and the ACL's access
 * tokens, or every header when the schema's custom logic forwards headers (then all of them count).
 */
function subscriptionView(state: ServingState, headers: Readonly<Record<string, string>>): string {
  if (state.forwardsHeaders) return JSON.stringify(Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const header = state.auth?.config.header;
  return JSON.stringify([header === undefined ? null : (headers[header] ?? null), accessToken(headers) ?? null]);
}

/** Operation types as /metrics numbers them (0: none: the request did not get as far as a valid operation). */
const operationNumbers = { query: 1, mutation: 2, subscription: 3 } as const;

/** A forwarded mutation that failed: every root field null with the reason, as a failed commit answers. */
function failedForward(prepared: PreparedOperation, error: unknown): EngineResponse {
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'ok', body: serializeResponse(answerRootFields(prepared, noSchemaApi, (_field, name) => wireError(message, undefined, [name]))) };
}

/** /admin `task` reads the writer's task list (exports run there): a replica asks the writer. */
function asksWriterState(operation: OperationDefinitionNode): boolean {
  return operation.selectionSet.selections.some((selection) => selection.kind === Kind.FIELD && selection.name.value === 'task');
}

export class Engine {
  /**
   * The operation type of the last request `execute` prepared (`operationNumbers`; 0 none), read by the
   * server right after `execute` returns for its per-request figures: a number, so nothing is allocated.
   */
  lastOperation = 0;
  readonly #graph = new Graph();
  readonly #startedAt = Date.now();
  readonly #schema: SchemaLifecycle;
  readonly #deploys: SchemaDeployQueue;
  readonly #commit: CommitPath;
  /** Outgoing @custom/@lambda calls (worker pool + pooled HTTP client), shared by every schema version. */
  readonly #calls: CallRunner;
  /** /admin `draining(enable: true)`: /graphql refuses queries and mutations. */
  #draining = false;

  /** A replica thread reads the writer's flag (shared memory), so /admin `draining` through any thread holds on all. */
  get #isDraining(): boolean {
    return this.options.writer?.draining() ?? this.#draining;
  }

  readonly #adminPreparer: RequestPreparer;
  /** Dgraph's ACL (--acl-secret-file); undefined when off. */
  readonly #acl: Acl | undefined;
  /** /admin `task` ids (exports). */
  readonly #tasks = new TaskList();
  /** Automatic persisted queries, by SHA-256 (kept across schema uploads, as Dgraph keeps them in its graph). */
  readonly #persistedQueries: PersistedQueries;
  readonly #log: EngineLogger;
  readonly #registrations: RegistrationLog;
  /** Live subscriptions (WebSocket): answers pushed after commits. */
  readonly #subscriptions = new SubscriptionHub(
    (request) => this.execute(request),
    (on) => {
      // Commits say what they wrote only while someone is subscribed (it costs a pass over their log).
      const store = this.#graph.store;
      store.onCommit = on ? (touched) => this.#wrote(touched) : undefined;
    },
  );

  private constructor(private readonly options: EngineOptions) {
    this.#persistedQueries = new PersistedQueries(options.maxPersistedQueries ?? defaultMaxPersistedQueries);
    this.#log = options.log ?? consoleLogger;
    this.#registrations = new RegistrationLog(this.#log, () => this.#persistedQueries.size);
    this.#calls = new CallRunner({
      limits: callLimits(options),
      workers: options.custom?.workers ?? 2,
      inlineMaxCalls: options.custom?.inlineMaxCalls ?? 8,
      maxPerHost: options.custom?.maxConcurrencyPerHost ?? 16,
    });
    this.#schema = new SchemaLifecycle(this.#graph, this.#calls, options);
    const log = this.#log;
    const webhooks = { runner: this.#calls, lambdaUrl: options.lambdaUrl, warn: (message: string, fields?: Parameters<EngineLogger['warn']>[1]) => log.warn(message, fields) };
    this.#commit = new CommitPath(this.#schema, webhooks, this.#persistedQueries);
    this.#commit.afterCommit = () => {
      this.#subscriptions.committed();
      this.#readAfter.advanced();
    };
    this.#commit.onRegistered = () => this.#registrations.registered();
    const writer = options.writer;
    if (writer !== undefined) this.#commit.forwardRegistration = (request) => this.#forwarded(writer.execute(request));
    this.#schema.installed = () => this.#subscriptions.endAll();
    this.#deploys = new SchemaDeployQueue(this.#schema, () => this.#introspectionOptions(), () => this.#commit.persistence);
    this.#acl = options.acl === undefined ? undefined : new Acl(options.acl);
    // Group rules apply to tokens already issued, so every live answer is evaluated again under them.
    if (this.#acl !== undefined) this.#acl.changed = () => this.#subscriptions.committed(false);
    this.#adminPreparer = new RequestPreparer(this.#adminSchema, options);
    this.#applier = new LogApplier({ graph: this.#graph, persistedQueries: this.#persistedQueries, schema: this.#schema, acl: this.#acl });
    this.#readAfter = new ReadAfter(() => this.lsn, options.readAfterTimeoutMs ?? 10_000);
  }

  readonly #readAfter: ReadAfter;

  /** Loads snapshots and applies log records: a restart's restore and `replicate`. */
  readonly #applier: LogApplier;

  /** The logical state: what a snapshot holds and the digest hashes. */
  #logicalState(): ReturnType<CaptureState> {
    return {
      schema: this.#schema.state.compiled?.sdl ?? null,
      store: this.#graph.store,
      persistedQueries: this.#persistedQueries.entries(),
      acl: this.#applier.aclState,
    };
  }

  get #adminSchema(): typeof adminSchema {
    return this.#acl === undefined ? adminSchema : aclAdminSchema;
  }

  /**
   * Opens the engine; with a data directory, restores the newest valid snapshot plus the log after it.
   * Rejects (RestoreError) when the data directory is damaged and `recover` is not set.
   */
  static async open(options: EngineOptions): Promise<Engine> {
    if (options.sharedLog !== undefined && options.dataDir === '') throw new Error('a shared log needs a data directory');
    const engine = new Engine(options);
    if (options.dataDir !== '') {
      engine.#commit.persistence = await openPersistence(options, engine.#log, engine.#applier, () => engine.#logicalState());
    } else if (options.seedFrom !== undefined) {
      await seedFromFiles(options.fileIo ?? nodeFileIo, options.seedFrom, engine.#log, engine.#applier, options.seedBase);
    }
    // A replica's ACL comes from the writer's records (its defaults included, with their password hash).
    if (options.replica !== true && options.writer === undefined) await engine.#acl?.ensureDefaults();
    engine.#schema.status = 'up';
    return engine;
  }

  /**
   * Writes the ACL's defaults (groot, guardians) where missing. `open` does it, except for a replica
   * (`EngineOptions.replica`): a cluster node calls this once it joined, so they go through the shared
   * log, written once (a node that loses to another's finds them there).
   */
  async ensureAclDefaults(): Promise<void> {
    await this.#acl?.ensureDefaults();
  }

  /** The snapshot this engine's start restored from (null: none, or no data directory). */
  get restoredFrom(): SnapshotIdentity {
    return this.#commit.persistence?.restoredFrom ?? null;
  }

  /** Writes a snapshot now (POST /admin/snapshot). */
  async snapshot(): Promise<SnapshotResult> {
    if (this.options.writer !== undefined) return this.options.writer.snapshot();
    const persistence = this.#commit.persistence;
    if (persistence === undefined) return { ok: false, message: 'snapshots need a data directory' };
    try {
      const info = await persistence.snapshot();
      return { ok: true, ...info };
    } catch (error) {
      return { ok: false, message: `snapshot failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /**
   * Runs one /graphql request; `internal` reads (the /admin export) are not refused while draining.
   * Answers synchronously when nothing waits (most queries: the direct writer), so the server can reply
   * from inside the transport's callback; a promise otherwise (mutations, custom logic, persisted queries).
   */
  execute(incoming: GraphQLRequest, internal = false): EngineResponse | Promise<EngineResponse> {
    if (internal) return this.#executeNow(incoming, internal);
    this.lastOperation = 0;
    const answer = this.#whenCaughtUp(() => this.#executeNow(incoming, internal));
    // One that waits before it is prepared (behind the writer, X-Service-Read-After, registering a persisted
    // query) is labelled now: the server reads the operation type for /metrics as this returns.
    if (answer instanceof Promise && this.lastOperation === 0) {
      const prepared = this.#schema.state.preparer.prepare(incoming);
      if (prepared.ok) this.lastOperation = operationNumbers[prepared.prepared.operation.operation];
    }
    return answer;
  }

  #executeNow(incoming: GraphQLRequest, internal: boolean): EngineResponse | Promise<EngineResponse> {
    this.lastOperation = 0;
    const gated = this.#readGated(incoming, (request) => this.execute(request, internal));
    if (gated !== undefined) return gated;
    if (incoming.extensions !== undefined && incoming.extensions !== null) {
      const persisted = this.#commit.resolvePersistedQuery(incoming);
      if (persisted instanceof Promise) {
        return persisted.then((resolved) => ('kind' in resolved ? resolved : this.#execute(resolved.request, internal)));
      }
      return 'kind' in persisted ? persisted : this.#execute(persisted.request, internal);
    }
    return this.#execute(incoming, internal);
  }

  /**
   * `X-Service-Read-After` / `X-Service-Consistency`: undefined without them; else `run`'s answer for the
   * request without them once what they ask is applied here, or the refusal.
   */
  #readGated(incoming: GraphQLRequest, run: (request: GraphQLRequest) => EngineResponse | Promise<EngineResponse>): EngineResponse | Promise<EngineResponse> | undefined {
    if (incoming.headers[readAfterHeader] === undefined && incoming.headers[consistencyHeader] === undefined) return undefined;
    const shared = this.#commit.persistence?.shared;
    const gate = readGate(incoming.headers, this.#readAfter, shared === undefined ? undefined : () => shared.sync());
    const { [readAfterHeader]: _after, [consistencyHeader]: _consistency, ...headers } = incoming.headers;
    if (gate instanceof Promise) return gate.then((refused) => refused ?? run({ ...incoming, headers }));
    return gate ?? run({ ...incoming, headers });
  }

  #execute(request: GraphQLRequest, internal: boolean): EngineResponse | Promise<EngineResponse> {
    const state = this.#schema.state;
    let requestId: string | undefined;
    try {
      const prepared = state.preparer.prepare(request);
      if (!prepared.ok) return { kind: prepared.kind, body: serializeResponse({ errors: prepared.errors }) };
      this.lastOperation = operationNumbers[prepared.prepared.operation.operation];
      if (prepared.prepared.operation.operation === 'mutation') {
        const writer = this.options.writer;
        if (writer !== undefined && !internal) return this.#forwarded(writer.execute(request));
        // A draining node refuses writes itself; one that writes nothing stored (remote roots only) proposes nothing.
        const forwarded = internal || this.#isDraining || onlyRemoteRoots(prepared.prepared.operation, state.compiled?.model) ? undefined : this.options.forwardWrite?.(request);
        if (forwarded !== undefined) return forwarded.catch((error: unknown) => failedForward(prepared.prepared, error));
        requestId = randomUUID();
      } else {
        // A write being made durable (an fsync, a proposal) is in the store: a read waits for a point without one.
        const readable = this.#commit.persistence?.readable();
        if (readable !== undefined) {
          const { prepared: operation } = prepared;
          return readable.then(
            () => this.#execute(request, internal),
            (error: unknown) => {
              if (!(error instanceof ReadWaitExpired)) throw error;
              const refused = refuseExecution(operation, state.compiled?.apiSchema ?? noSchemaApi, messages.readWaitExpired(error.waitedMs / 1000), messages.drainingMutation);
              return { kind: 'ok' as const, body: serializeResponse({ ...refused, ...requestExtensions(requestId) }) };
            },
          );
        }
      }
      const running = this.#acl === undefined || internal || state.executor === null || this.#isDraining ? this.#start(state, prepared.prepared, request, requestId, internal) : this.#gated(this.#acl, state, prepared.prepared, request, requestId);
      const cacheMaxAge = cacheMaxAgeOf(prepared.prepared.operation, prepared.prepared.variables);
      if (!(running instanceof Promise)) return withCacheControl(running, cacheMaxAge);
      const id = requestId;
      return running.then(
        (response) => withCacheControl(response, cacheMaxAge),
        (error: unknown) => this.#internalFailure(error, request.requestId ?? id),
      );
    } catch (error) {
      return this.#internalFailure(error, request.requestId ?? requestId);
    }
  }

  #start(state: ServingState, prepared: PreparedOperation, request: GraphQLRequest, requestId: string | undefined, internal: boolean): EngineResponse | Promise<EngineResponse> {
    return state.auth === null || internal ? this.#run(state, prepared, request, requestId, internal) : this.#authenticated(state, state.auth, prepared, request, requestId);
  }

  /** With ACL on, the access token is checked first (Dgraph's refusal reads as a failed execution). */
  #gated(acl: Acl, state: ServingState, prepared: PreparedOperation, request: GraphQLRequest, requestId: string | undefined): EngineResponse | Promise<EngineResponse> {
    const gate = gateGraphql(acl, prepared, state.compiled?.apiSchema ?? noSchemaApi, state.compiled?.model, request);
    const decide = (refused: Awaited<typeof gate>): EngineResponse | Promise<EngineResponse> =>
      refused === undefined ? this.#start(state, prepared, request, requestId, false) : { kind: 'ok', body: serializeResponse({ ...refused, ...requestExtensions(requestId) }) };
    return gate instanceof Promise ? gate.then(decide) : decide(gate);
  }

  /**
   * Verifies the request's token before it runs (synchronously when the token was seen before). The
   * claims are what `@auth` rules read (auth/rule-eval.ts), for queries and mutations.
   */
  #authenticated(state: ServingState, auth: TokenVerifier, prepared: PreparedOperation, request: GraphQLRequest, requestId: string | undefined): EngineResponse | Promise<EngineResponse> {
    const outcome = authenticate(auth, request.headers);
    return outcome instanceof Promise ? outcome.then((o) => this.#runAs(o, state, prepared, request, requestId)) : this.#runAs(outcome, state, prepared, request, requestId);
  }

  #runAs(outcome: AuthOutcome, state: ServingState, prepared: PreparedOperation, request: GraphQLRequest, requestId: string | undefined): EngineResponse | Promise<EngineResponse> {
    if (outcome.kind === 'request-error') return { kind: 'request-error', body: serializeResponse({ errors: [outcome.error] }) };
    if (outcome.kind === 'refused' && state.compiled !== null && !this.#isDraining) {
      const { model, apiSchema } = state.compiled;
      const refused = refuseForAuth(prepared, apiSchema, outcome.message, (name) => model.mutations.get(name)?.kind === 'add', this.options.debug);
      return { kind: 'ok', body: serializeResponse({ ...refused, ...requestExtensions(requestId) }) };
    }
    return this.#run(state, prepared, request, requestId, false, outcome.kind === 'claims' ? outcome.claims.variables : ANONYMOUS);
  }

  /** Internal failures never leak details: the client gets an id to quote (the HTTP request's, else the mutation's), the log gets the rest. */
  #internalFailure(error: unknown, requestId: string | undefined): EngineResponse {
    const id = requestId ?? randomUUID();
    this.#log.error('request failed', { requestId: id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    return { kind: 'ok', body: serializeResponse({ errors: [wireError(messages.internal(id))], data: null }) };
  }

  /** Runs a prepared operation: the direct JSON writer for most queries (synchronously), else the general path. */
  /** `claims`: what `@auth` query rules read (`ANONYMOUS` without a token); internal reads pass none and see everything. */
  #run(
    state: ServingState,
    prepared: PreparedOperation,
    request: GraphQLRequest,
    requestId: string | undefined,
    internal: boolean,
    claims: Readonly<Record<string, unknown>> | undefined = internal ? undefined : ANONYMOUS,
  ): EngineResponse | Promise<EngineResponse> {
    if (state.executor === null) {
      return { kind: 'ok', body: serializeResponse({ ...answerWithoutSchema(prepared), ...requestExtensions(requestId) }) };
    }
    if (this.#isDraining && !internal) {
      const apiSchema = state.compiled?.apiSchema ?? noSchemaApi;
      return { kind: 'ok', body: serializeResponse({ ...answerWhileDraining(prepared, apiSchema), ...requestExtensions(requestId) }) };
    }
    if (prepared.operation.operation === 'subscription' && state.compiled !== null) {
      const { operation, checked } = prepared;
      const refused = customFieldInSubscription(state.compiled.apiSchema, state.compiled.model, operation.selectionSet, checked.fragments);
      if (refused !== undefined) return { kind: 'ok', body: serializeResponse({ errors: [refused], data: null }) };
    }
    const persistence = this.#commit.persistence;
    if (requestId !== undefined && persistence !== undefined && !onlyRemoteRoots(prepared.operation, state.compiled?.model) && storedRootsRefusal(request) === undefined) {
      return this.#commit.mutateDurably(persistence, state, prepared, request, requestId, claims);
    }
    // Queries run under a budget (cost checked now; size and time while they run); mutations do not.
    const budget = requestId === undefined ? state.executor.admit(prepared) : undefined;
    if (budget !== undefined && !(budget instanceof QueryBudget)) return { kind: 'request-error', body: serializeResponse({ errors: [budget] }) };
    // Most queries are written directly, with no await in between.
    const direct = budget === undefined ? undefined : state.executor.writeDirect(prepared, request, budget, claims);
    if (direct !== undefined) return new BytesResponse(direct, state.executor.directTouched);
    return this.#runGeneral(state, state.executor, prepared, request, requestId, budget, claims);
  }

  async #runGeneral(
    state: ServingState,
    executor: Executor,
    prepared: PreparedOperation,
    request: GraphQLRequest,
    requestId: string | undefined,
    budget: QueryBudget | undefined,
    claims: Readonly<Record<string, unknown>> | undefined,
  ): Promise<EngineResponse> {
    const commit = requestId === undefined ? undefined : this.#commit.inMemory(state, request);
    const { touchedUids = 0, ...result } = await executor.run(prepared, request, budget, claims, commit);
    const extensions = { ...result.extensions, ...requestExtensions(requestId).extensions };
    const body = serializeResponse({ ...result, ...(Object.keys(extensions).length > 0 ? { extensions } : {}) });
    return { kind: 'ok', touchedUids, body: budget === undefined ? body : executor.capAnswer(body, result.data, prepared) };
  }

  /**
   * A live subscription (the WebSocket protocols): `push` gets the first answer at once, then each answer a
   * commit changed, and `complete` when the schema changes; `stop` ends it. A request that is not a valid
   * subscription operation is refused with its errors instead (Dgraph's ValidateSubscription).
   */
  async subscribe(request: GraphQLRequest, push: (event: SubscriptionEvent) => void): Promise<{ readonly stop: () => void } | { readonly refused: readonly WireError[] }> {
    const late = await this.#behindWriter();
    if (late !== undefined) return { refused: [wireError(late)] };
    const state = this.#schema.state;
    const prepared = state.preparer.prepare(request);
    if (!prepared.ok) return { refused: prepared.errors };
    const { operation, checked } = prepared.prepared;
    if (operation.operation !== 'subscription') return { refused: [wireError(messages.notSubscription)] };
    const executor = state.executor;
    // Computed only when the subscription forms a new group (a member of an existing one reads the same).
    const reads = (): SubscriptionReads =>
      state.compiled === null || executor === null ? 'all' : subscriptionReads(state.compiled.model, operation.selectionSet, checked.fragments, (type) => executor.hasQueryRules(type));
    // A token with `exp` ends the subscription when it expires (Dgraph terminates it then too).
    const outcome = state.auth === null ? undefined : await authenticate(state.auth, request.headers);
    // So does the ACL's access token (a subscription outliving it would read on without a valid login).
    const access = this.#acl === undefined ? undefined : await this.#acl.check(accessToken(request.headers));
    const expiresAt = Math.min(outcome?.kind === 'claims' ? outcome.claims.expiresAt : Infinity, access?.ok === true ? (access.caller.expiresAt ?? Infinity) : Infinity);
    return { stop: this.#subscriptions.add(request, subscriptionView(state, request.headers), reads, push, expiresAt) };
  }

  /** Live subscription groups (subscriptions alike in document, variables and view share one), evaluations, fan-out times: for /metrics. */
  get subscriptionFigures(): SubscriptionFigures {
    return this.#subscriptions.figures;
  }

  /** For /metrics when scraped: store sizes (a walk), log records since the last snapshot, the custom-call worker pool. */
  storeFigures(): StoreFigures {
    return this.#graph.store.figures();
  }

  get logRecordsSinceSnapshot(): number | undefined {
    return this.#commit.persistence?.recordsSinceSnapshot;
  }

  get callPoolFigures(): CallRunner['poolFigures'] {
    return this.#calls.poolFigures;
  }

  #wrote(touched: Touched): void {
    if (this.#schema.state.compiled === null) this.#subscriptions.committed(false);
    else this.#subscriptions.wrote(touched);
  }

  /** Runs one /admin GraphQL request (admin/admin-schema.ts); `host` does what needs the process around the engine. */
  executeAdmin(request: GraphQLRequest, host: AdminHost): Promise<EngineResponse> {
    const gated = this.#readGated(request, (ungated) => this.executeAdmin(ungated, host));
    if (gated !== undefined) return Promise.resolve(gated);
    const prepared = this.#adminPreparer.prepare(request);
    this.lastOperation = prepared.ok ? operationNumbers[prepared.prepared.operation.operation] : 0;
    const writer = this.options.writer;
    if (writer !== undefined) {
      if (prepared.ok && (prepared.prepared.operation.operation === 'mutation' || asksWriterState(prepared.prepared.operation))) return this.#forwarded(writer.executeAdmin(request));
      return Promise.resolve(this.#whenCaughtUp(() => this.#executeAdminNow(prepared, request, host)));
    }
    return this.#executeAdminNow(prepared, request, host);
  }

  #executeAdminNow(prepared: ReturnType<RequestPreparer['prepare']>, request: GraphQLRequest, host: AdminHost): Promise<EngineResponse> {
    const root = adminRootValue(this, host, this.#tasks);
    const guarded = this.#acl === undefined ? root : withAcl(root, this.#acl, request.headers);
    return executeAdmin(prepared, this.#adminSchema, withAudit(guarded, this.#log, () => this.adminCaller(request.headers, host)));
  }

  /** Who an admin request is, for the log (never a secret): the ACL user of its token, else the host's `caller`. */
  async adminCaller(headers: Readonly<Record<string, string>>, host: AdminHost): Promise<string> {
    if (this.#acl === undefined) return host.caller;
    const checked = await this.#acl.check(accessToken(headers));
    return checked.ok ? checked.caller.userId : host.caller;
  }

  /** With ACL on, why the request may not act as a guardian (Dgraph's wording; /admin/schema reads and uploads); undefined when it may. */
  async guardianRefusal(headers: Readonly<Record<string, string>>): Promise<string | undefined> {
    return this.#acl === undefined ? undefined : guardianRefusal(await this.#acl.check(accessToken(headers)));
  }

  /** Draining mode: /graphql refuses queries and mutations (Dgraph's wording) until it is turned off. */
  setDraining(enable: boolean): void {
    this.#draining = enable;
    this.drainingChanged?.(enable);
  }

  /** Whether /graphql refuses queries and mutations now (draining mode). */
  get draining(): boolean {
    return this.#isDraining;
  }

  /** Told when draining mode is turned on or off (a writer's replicas follow it: server/threads/). */
  drainingChanged: ((enable: boolean) => void) | undefined;

  /** What /admin `state` reports: the schema's stored predicates, the highest node id, the last commit. */
  storeState(): { readonly predicates: readonly string[]; readonly maxUid: number; readonly lastCommit: number } {
    const predicates = new Set(['dgraph.type']);
    for (const type of this.#schema.state.compiled?.model.types.values() ?? []) {
      if (type.remote) continue;
      for (const field of type.fields.values()) {
        if (field.kind !== 'id' && field.custom === undefined && field.reverseOf === undefined) predicates.add(field.predicate);
      }
    }
    return { predicates: [...predicates].sort(), maxUid: this.#graph.store.maxNodeId, lastCommit: this.#commit.lastCommit };
  }

  /** LSN of the last log record applied (written by this engine, or replicated into it); 0 without a log. */
  get lsn(): number {
    return this.#commit.persistence?.lastLsn ?? this.#applier.lsn;
  }

  /** The state digest (serving/state-digest.ts): engines that applied the same records agree on it. */
  digest(): string {
    return stateDigest(this.#logicalState());
  }

  /**
   * A writer's side of replication: `listener` gets the framed bytes of each batch of records once they
   * are durable and applied, in LSN order (undefined stops it). Needs a data directory.
   */
  onLogRecords(listener: ((frames: Uint8Array) => void) | undefined): void {
    const persistence = this.#commit.persistence;
    if (persistence === undefined) throw new Error('log records need a data directory');
    persistence.published = listener;
  }

  #replicating: Promise<unknown> = Promise.resolve();

  /**
   * A replica's side: applies records another engine published (`onLogRecords`, or read from its log
   * files), through the same code a restart's restore uses; with a data directory they are logged here
   * too, under the same LSNs. Records already applied are skipped; a gap is refused (nothing after it
   * is applied). Calls are applied one after another.
   */
  replicate(frames: Uint8Array): Promise<ReplicateResult> {
    const run = this.#replicating.then(() => this.#replicate(frames));
    this.#replicating = run;
    return run;
  }

  async #replicate(frames: Uint8Array): Promise<ReplicateResult> {
    const persistence = this.#commit.persistence;
    let applied = 0;
    // Live answers follow replicated writes as local commits do: a mutation record is applied as a
    // transaction while anyone is subscribed, so its commit says what it wrote; other records re-run all.
    let unspecific = false;
    const store = this.#graph.store;
    const applyOne = (record: LogRecord): void => {
      if (record.kind !== KIND_MUTATION || store.onCommit === undefined || store.inTransaction) unspecific = true;
      else {
        const txn = store.begin();
        try {
          this.#applier.apply(record);
        } catch (error) {
          txn.rollback();
          throw error;
        }
        txn.commit();
        return;
      }
      this.#applier.apply(record);
    };
    try {
      for (const record of readFrames(Buffer.from(frames.buffer, frames.byteOffset, frames.byteLength))) {
        const at = this.lsn;
        if (record.lsn <= at) continue;
        if (record.lsn !== at + 1) return { ok: false, message: `log record ${record.lsn} cannot follow ${at}: LSN ${at + 1} is missing` };
        if (persistence === undefined) applyOne(record);
        else await persistence.replicate(record, () => applyOne(record));
        applied++;
      }
      return { ok: true, lsn: this.lsn };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    } finally {
      if (applied > 0) {
        this.#subscriptions.committed(!unspecific);
        this.#readAfter.advanced();
      }
    }
  }

  /**
   * With a writer (server/threads/): undefined when this replica has applied everything the writer had
   * published by now (one shared-memory read), else a promise of the same once it has — or, when it did
   * not within the read-after bound, of the message saying so. A client that got a write's answer
   * therefore sees it on every thread.
   */
  #behindWriter(): Promise<string | undefined> | undefined {
    const writer = this.options.writer;
    if (writer === undefined) return undefined;
    const needed = writer.visibleLsn();
    if (needed <= this.lsn) return undefined;
    return this.#readAfter.until(needed).then((reached) =>
      reached ? undefined : `this thread's copy of the data did not apply log sequence number ${needed} of the writer within ${this.#readAfter.timeoutMs} ms (it is at ${this.lsn}): try again`,
    );
  }

  /** `run` at once when this replica is not behind its writer (or has none), else once it caught up; or the refusal. */
  #whenCaughtUp(run: () => EngineResponse | Promise<EngineResponse>): EngineResponse | Promise<EngineResponse> {
    const behind = this.#behindWriter();
    if (behind === undefined) return run();
    return behind.then((late) => (late === undefined ? run() : readRefusal(late)));
  }

  /**
   * A write the writer answered: answered here once this replica applied it too (read-your-writes). If it
   * does not catch up, the answer still goes out: the write is durable, and failing it would invite a
   * duplicate; the next read on this thread is refused instead.
   */
  async #forwarded<T>(answer: Promise<T>): Promise<T> {
    const result = await answer;
    await this.#behindWriter();
    return result;
  }

  /** Compiles and deploys a schema; on failure nothing changes. Uploads are serialised. */
  updateSchema(sdl: string): Promise<SchemaUpdateResult> {
    const writer = this.options.writer;
    if (writer !== undefined) return this.#forwarded(writer.updateSchema(sdl));
    return this.#deploys.update(sdl);
  }

  /** Validates a schema (remote GraphQL endpoints included) without deploying it. */
  validateSchema(sdl: string): Promise<readonly SchemaError[]> {
    return this.#deploys.validate(sdl);
  }

  #introspectionOptions(): IntrospectionOptions {
    const limits = this.#calls.limits;
    return {
      timeoutMs: this.options.custom?.introspectionTimeoutMs ?? 5_000,
      maxResponseBytes: limits.maxResponseBytes,
      denyPrivate: limits.denyPrivate,
      ...(limits.self === undefined ? {} : { self: limits.self }),
    };
  }

  /**
   * Tells the engine where the server listens, so that `@custom` calls and remote introspection never
   * reach the service itself (a client-built body could otherwise call /admin and read the secrets back).
   */
  listeningOn(host: string, port: number): void {
    this.#calls.refuseSelf(selfAddress(host, port));
  }

  currentSchema(): { readonly schema: string; readonly generatedSchema: string } | null {
    const compiled = this.#schema.state.compiled;
    return compiled === null ? null : { schema: compiled.sdl, generatedSchema: compiled.generatedSchema };
  }

  /** Who may call /graphql from a browser under the deployed schema. */
  get corsPolicy(): CorsPolicy {
    return this.#schema.state.cors;
  }

  /** Whether requests must bring all their headers (`GraphQLRequest.headers`): false when the schema's custom logic reads none. */
  get readsRequestHeaders(): boolean {
    return this.#schema.state.readsRequestHeaders;
  }

  probe(): Probe {
    return { status: this.#schema.status, schemaUpdateCounter: this.#schema.updateCounter };
  }

  health(address: string): HealthInfo {
    return {
      instance: 'alpha',
      address,
      status: 'healthy',
      group: '1',
      version: serviceVersion,
      uptime: Math.floor((Date.now() - this.#startedAt) / 1000),
      lastEcho: Math.floor(Date.now() / 1000),
      ongoing: [],
      indexing: [],
      ee_features: [],
    };
  }

  /** Waits for queued work, writes a final snapshot when anything changed since the last one, closes the log. */
  async close(): Promise<void> {
    await this.#deploys.idle();
    this.#registrations.flush();
    await this.#commit.persistence?.close();
    await this.#calls.close();
  }
}
