// The engine facade: the only module server/ imports. Every method resolves (never rejects):
// failures come back as GraphQL errors in the response body.

import { randomUUID } from 'node:crypto';
import { execute as runGraphql } from 'graphql';
import type {
  EngineOptions,
  EngineResponse,
  GraphQLRequest,
  HealthInfo,
  Probe,
  ProbeStatus,
  SchemaError,
  SchemaUpdateResult,
  SnapshotResult,
  EngineLogger,
  AdminHost,
  CorsPolicy,
} from './api.js';
import { adminRootValue, renderSchemaErrors } from './admin/admin-api.js';
import { adminSchema } from './admin/admin-schema.js';
import { TaskList } from './admin/task-list.js';
import { answerWhileDraining } from './request/draining.js';
import { messages } from './errors/messages.js';
import { wireError } from './errors/wire-error.js';
import { Executor } from './exec/executor.js';
import { Graph } from './exec/graph.js';
import { serializeResponse } from './exec/serialize-response.js';
import { defaultBudgetLimits, QueryBudget, type BudgetLimits } from './exec/query-budget.js';
import { RequestPreparer, toWireError } from './request/prepare-request.js';
import { compileSchema, type CompiledSchema } from './schema/compile-schema.js';
import { answerWithoutSchema, noSchemaApi } from './request/no-schema.js';
import { DurabilityError, Persistence, type RestorePlan } from './persist/persistence.js';
import { KIND_MUTATION, KIND_PERSISTED_QUERY } from './persist/log-format.js';
import { PersistedQueries, defaultMaxPersistedQueries } from './request/persisted-queries.js';
import { cacheMaxAgeOf } from './request/cache-control.js';
import { corsPolicyOf, openCorsPolicy } from './schema/cors-policy.js';
import type { PreparedOperation } from './request/prepare-request.js';
import { selfAddress } from './custom/address-guard.js';
import { CallRunner } from './custom/call-runner.js';
import { CustomStage } from './custom/custom-stage.js';
import { defaultCallLimits, type CallLimits } from './custom/outbound.js';
import { validateRemoteGraphql, type IntrospectionOptions } from './custom/remote-introspection.js';
import { customFieldInSubscription } from './custom/subscription-check.js';
import { fireWebhooks, webhookOperations, type WebhookSender } from './custom/webhooks.js';
import { readsRequestHeaders } from './custom/request-headers.js';
import type { ExecutionResult } from './exec/executor.js';

export type * from './api.js';
export { renderSchemaErrors } from './admin/admin-api.js';
/** Request JSON parsing that keeps float-written integers apart (Dgraph refuses them for Int64). */
export { parseRequestJson } from './request/json-numbers.js';
export { RestoreError } from './persist/persistence.js';
export { DATA_DIR_MODE, DATA_FILE_MODE, nodeFileIo } from './persist/file-io.js';
export { faultyFileIo, type FaultRule } from './persist/faulty-file-io.js';

/** Everything that serves requests for one schema version; swapped atomically on upload. */
interface ServingState {
  readonly version: number;
  readonly compiled: CompiledSchema | null;
  /** Custom logic of this schema reads request headers (custom/request-headers.ts). */
  readonly readsRequestHeaders: boolean;
  /** Allow-Origin list and extra allowed headers of /graphql (schema/cors-policy.ts). */
  readonly cors: CorsPolicy;
  readonly preparer: RequestPreparer;
  readonly executor: Executor | null;
}

const serviceVersion = 'v25.0.0-ts';

export class Engine {
  #state: ServingState;
  #status: ProbeStatus = 'init';
  #schemaUpdateCounter = 0;
  readonly #graph = new Graph();
  readonly #startedAt = Date.now();
  #schemaQueue: Promise<unknown> = Promise.resolve();
  /** Undefined when `dataDir` is '' (a purely in-memory engine). */
  #persistence: Persistence | undefined;
  /** Outgoing @custom/@lambda calls (worker pool + pooled HTTP client), shared by every schema version. */
  readonly #calls: CallRunner;
  /** `@lambdaOnMutate` webhooks (fired after commit, never awaited). */
  readonly #webhooks: WebhookSender;
  /** commitTs of in-memory engines (with a log, the log position is used). */
  #commits = 0;
  /** /admin `draining(enable: true)`: /graphql refuses queries and mutations. */
  #draining = false;
  readonly #adminPreparer: RequestPreparer;
  /** /admin `task` ids (exports). */
  readonly #tasks = new TaskList();
  /** Automatic persisted queries, by SHA-256 (kept across schema uploads, as Dgraph keeps them in its graph). */
  readonly #persistedQueries: PersistedQueries;

  private constructor(private readonly options: EngineOptions) {
    this.#calls = new CallRunner({
      limits: callLimits(options),
      workers: options.custom?.workers ?? 2,
      inlineMaxCalls: options.custom?.inlineMaxCalls ?? 8,
      maxPerHost: options.custom?.maxConcurrencyPerHost ?? 16,
    });
    const log = options.log ?? consoleLogger;
    this.#webhooks = { runner: this.#calls, lambdaUrl: options.lambdaUrl, warn: (message, fields) => log.warn(message, fields) };
    this.#adminPreparer = new RequestPreparer(adminSchema, options);
    this.#persistedQueries = new PersistedQueries(options.maxPersistedQueries ?? defaultMaxPersistedQueries);
    this.#state = { version: 0, compiled: null, readsRequestHeaders: false, cors: openCorsPolicy, preparer: new RequestPreparer(noSchemaApi, { ...options, validate: false }), executor: null };
  }

  /**
   * Opens the engine; with a data directory, restores the newest valid snapshot plus the log after it.
   * Rejects (RestoreError) when the data directory is damaged and `recover` is not set.
   */
  static async open(options: EngineOptions): Promise<Engine> {
    const engine = new Engine(options);
    if (options.dataDir !== '') await engine.#openPersistence(options);
    engine.#status = 'up';
    return engine;
  }

  async #openPersistence(options: EngineOptions): Promise<void> {
    const log = options.log ?? consoleLogger;
    const everySeconds = options.snapshotIntervalSeconds ?? 300;
    const { persistence, plan } = await Persistence.open(
      {
        dataDir: options.dataDir,
        fsync: options.fsync ?? 'everysec',
        recover: options.recover ?? false,
        snapshotEveryRecords: options.snapshotEveryMutations ?? 100_000,
        snapshotIntervalMs: everySeconds * 1000,
        keepSnapshots: options.keepSnapshots ?? 2,
        log,
        ...(options.fileIo === undefined ? {} : { io: options.fileIo }),
      },
      this.#graph.store,
    );
    const started = performance.now();
    this.#restore(plan);
    if (!plan.fresh) {
      const stats = this.#graph.store.stats();
      log.info('restored', {
        snapshotLsn: plan.snapshot?.header.lsn ?? 0,
        replayed: plan.records.length,
        lastLsn: plan.lastLsn,
        nodes: stats.nodes,
        ms: Math.round(performance.now() - started),
      });
    }
    await persistence.start(() => ({ schema: this.#state.compiled?.sdl ?? null, store: this.#graph.store, persistedQueries: this.#persistedQueries.entries() }));
    this.#persistence = persistence;
  }

  /** Loads the snapshot, then replays the log records (physical redo; schema records are redeployed). */
  #restore(plan: RestorePlan): void {
    const snapshot = plan.snapshot?.content;
    if (snapshot !== undefined) {
      this.#graph.store.importSnapshot(snapshot.store);
      for (const [sha256, query] of snapshot.persistedQueries) this.#persistedQueries.register(sha256, query);
      if (snapshot.schema !== null) this.#deployOrThrow(snapshot.schema, `snapshot ${snapshot.lsn}`);
    }
    for (const record of plan.records) {
      if (record.kind === KIND_MUTATION) this.#graph.store.applyRedo(record.ops);
      else if (record.kind === KIND_PERSISTED_QUERY) this.#persistedQueries.register(record.sha256, record.query);
      else this.#deployOrThrow(record.sdl, `log record ${record.lsn}`);
    }
  }

  #deployOrThrow(sdl: string, where: string): void {
    const result = compileSchema(sdl, this.#compileOptions());
    if (!result.ok) throw new Error(`the schema in ${where} no longer compiles: ${renderSchemaErrors(result.errors)}`);
    this.#install(result.compiled);
  }

  /** Writes a snapshot now (POST /admin/snapshot). */
  async snapshot(): Promise<SnapshotResult> {
    if (this.#persistence === undefined) return { ok: false, message: 'snapshots need a data directory' };
    try {
      const info = await this.#persistence.snapshot();
      return { ok: true, ...info };
    } catch (error) {
      return { ok: false, message: `snapshot failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /** Runs one /graphql request; `internal` reads (the /admin export) are not refused while draining. */
  async execute(incoming: GraphQLRequest, internal = false): Promise<EngineResponse> {
    let request = incoming;
    if (incoming.extensions !== undefined && incoming.extensions !== null) {
      const persisted = await this.#resolvePersistedQuery(incoming);
      if ('kind' in persisted) return persisted;
      request = persisted.request;
    }
    const state = this.#state;
    let requestId: string | undefined;
    try {
      const prepared = state.preparer.prepare(request);
      if (!prepared.ok) return { kind: prepared.kind, body: serializeResponse({ errors: prepared.errors }) };
      if (prepared.prepared.operation.operation === 'mutation') requestId = randomUUID();
      const running = this.#run(state, prepared.prepared, request, requestId, internal);
      // Awaited only when it is a promise: a directly written answer needs no extra turn.
      const response = running instanceof Promise ? await running : running;
      const cacheMaxAge = cacheMaxAgeOf(prepared.prepared.operation, prepared.prepared.variables);
      return cacheMaxAge === undefined ? response : withCacheControl(response, cacheMaxAge);
    } catch (error) {
      // Internal failures never leak details: the client gets an id to quote, the log gets the rest.
      const id = requestId ?? randomUUID();
      console.error(`request ${id} failed:`, error);
      return { kind: 'ok', body: serializeResponse({ errors: [wireError(messages.internal(id))], data: null }) };
    }
  }

  /**
   * `extensions.persistedQuery`: the request with its registered query filled in (a new one registered,
   * durably, first), or the refusal (Dgraph answers these before parsing, without `data`).
   */
  async #resolvePersistedQuery(request: GraphQLRequest): Promise<{ readonly request: GraphQLRequest } | EngineResponse> {
    const lookup = this.#persistedQueries.lookup(request);
    switch (lookup.kind) {
      case 'none':
        return { request };
      case 'run':
        return { request: lookup.request };
      case 'refused':
        return { kind: 'request-error', body: serializeResponse({ errors: [wireError(lookup.message)] }) };
      case 'register':
        break;
    }
    const { sha256, query } = lookup;
    const persistence = this.#persistence;
    if (persistence === undefined) this.#persistedQueries.register(sha256, query);
    else {
      try {
        await persistence.persistedQuery(sha256, query, () => this.#persistedQueries.register(sha256, query));
      } catch (error) {
        this.#persistedQueries.abandon(sha256);
        if (!(error instanceof DurabilityError)) throw error;
        return { kind: 'ok', body: serializeResponse({ errors: [wireError(error.message.replace('the mutation', 'the persisted query'))] }) };
      }
    }
    return { request };
  }

  /** Runs a prepared operation: the direct JSON writer for most queries (synchronously), else the general path. */
  #run(state: ServingState, prepared: PreparedOperation, request: GraphQLRequest, requestId: string | undefined, internal: boolean): EngineResponse | Promise<EngineResponse> {
    if (state.executor === null) {
      return { kind: 'ok', body: serializeResponse({ ...answerWithoutSchema(prepared), ...extensionsFor(requestId) }) };
    }
    if (this.#draining && !internal) {
      const apiSchema = state.compiled?.apiSchema ?? noSchemaApi;
      return { kind: 'ok', body: serializeResponse({ ...answerWhileDraining(prepared, apiSchema), ...extensionsFor(requestId) }) };
    }
    if (prepared.operation.operation === 'subscription' && state.compiled !== null) {
      const { operation, checked } = prepared;
      const refused = customFieldInSubscription(state.compiled.apiSchema, state.compiled.model, operation.selectionSet, checked.fragments);
      if (refused !== undefined) return { kind: 'ok', body: serializeResponse({ errors: [refused], data: null }) };
    }
    if (requestId !== undefined && this.#persistence !== undefined) {
      return this.#mutateDurably(this.#persistence, state, prepared, request, requestId);
    }
    // Queries run under a budget (cost checked now; size and time while they run); mutations do not.
    const budget = requestId === undefined ? state.executor.admit(prepared) : undefined;
    if (budget !== undefined && !(budget instanceof QueryBudget)) return { kind: 'request-error', body: serializeResponse({ errors: [budget] }) };
    // Most queries are written directly, with no await in between.
    const direct = budget === undefined ? undefined : state.executor.writeDirect(prepared, request, budget);
    if (direct !== undefined) return new BytesResponse(direct, state.executor.directTouched);
    return this.#runGeneral(state, state.executor, prepared, request, requestId, budget);
  }

  async #runGeneral(
    state: ServingState,
    executor: Executor,
    prepared: PreparedOperation,
    request: GraphQLRequest,
    requestId: string | undefined,
    budget: QueryBudget | undefined,
  ): Promise<EngineResponse> {
    const { events, touchedUids = 0, ...result } = await executor.run(prepared, request, budget);
    if (events !== undefined) this.#fireWebhooks(state, events, ++this.#commits, request);
    const extensions = { ...result.extensions, ...extensionsFor(requestId).extensions };
    const body = serializeResponse({ ...result, ...(Object.keys(extensions).length > 0 ? { extensions } : {}) });
    return { kind: 'ok', touchedUids, body: budget === undefined ? body : executor.capAnswer(body, result.data, prepared) };
  }

  /** A mutation through the commit queue: answered only once its log record is written (and fsynced for `always`). */
  async #mutateDurably(
    persistence: Persistence,
    state: ServingState,
    prepared: PreparedOperation,
    request: GraphQLRequest,
    requestId: string,
  ): Promise<EngineResponse> {
    let committed: { state: ServingState; events: ExecutionResult['events'] } | undefined;
    try {
      const response = await persistence.mutate(async (): Promise<EngineResponse> => {
        let current = state;
        let operation = prepared;
        if (this.#state !== state) {
          // The schema changed while this waited in the queue: prepare again against the new one.
          current = this.#state;
          const again = current.preparer.prepare(request);
          if (!again.ok) return { kind: again.kind, body: serializeResponse({ errors: again.errors }) };
          operation = again.prepared;
        }
        if (current.executor === null) return { kind: 'ok', body: serializeResponse({ ...answerWithoutSchema(operation), ...extensionsFor(requestId) }) };
        const { events, touchedUids = 0, ...result } = await current.executor.run(operation, request);
        committed = { state: current, events };
        return { kind: 'ok', touchedUids, body: serializeResponse({ ...result, extensions: { ...result.extensions, requestID: requestId } }) };
      });
      // Durable now: the webhooks may go out (after the response is on its way).
      if (committed?.events !== undefined) this.#fireWebhooks(committed.state, committed.events, persistence.lastLsn, request);
      return response;
    } catch (error) {
      if (!(error instanceof DurabilityError)) throw error;
      const fields = rootResponseNames(prepared);
      const errors = fields.length === 0 ? [wireError(error.message)] : fields.map((name) => ({ ...wireError(error.message), path: [name] }));
      const data = fields.length === 0 ? null : Object.fromEntries(fields.map((name) => [name, null]));
      return { kind: 'ok', body: serializeResponse({ errors, data, ...extensionsFor(requestId) }) };
    }
  }

  #fireWebhooks(state: ServingState, events: NonNullable<ExecutionResult['events']>, commitTs: number, request: GraphQLRequest): void {
    const compiled = state.compiled;
    if (compiled === null || this.#webhooks.lambdaUrl === undefined) return;
    // Keep (and schedule) only what a @lambdaOnMutate asks for: holding every mutation's input until
    // the next turn would pin bulk loads in memory.
    const wanted = events.filter((e) => e.rootIds.length > 0 && webhookOperations(compiled.apiSchema, e.type).has(e.operation));
    if (wanted.length === 0) return;
    setImmediate(() => fireWebhooks(this.#webhooks, compiled, wanted, commitTs, request));
  }

  /** Runs one /admin GraphQL request (admin/admin-schema.ts); `host` does what needs the process around the engine. */
  async executeAdmin(request: GraphQLRequest, host: AdminHost): Promise<EngineResponse> {
    const prepared = this.#adminPreparer.prepare(request);
    if (!prepared.ok) return { kind: prepared.kind, body: serializeResponse({ errors: prepared.errors }) };
    const { checked, operation } = prepared.prepared;
    const result = await runGraphql({
      schema: adminSchema,
      document: checked.document,
      operationName: operation.name?.value,
      rootValue: adminRootValue(this, host, this.#tasks),
      variableValues: prepared.prepared.variables,
    });
    // Dgraph's admin resolver errors carry the field's location but no path (resolve.EmptyResult).
    const errors = result.errors?.map((error) => {
      const { path: _path, ...rest } = toWireError(error);
      return rest;
    });
    return { kind: 'ok', body: serializeResponse({ ...(errors === undefined ? {} : { errors }), data: result.data ?? null }) };
  }

  /** Draining mode: /graphql refuses queries and mutations (Dgraph's wording) until it is turned off. */
  setDraining(enable: boolean): void {
    this.#draining = enable;
  }

  /** What /admin `state` reports: the schema's stored predicates, the highest node id, the last commit. */
  storeState(): { readonly predicates: readonly string[]; readonly maxUid: number; readonly lastCommit: number } {
    const predicates = new Set(['dgraph.type']);
    for (const type of this.#state.compiled?.model.types.values() ?? []) {
      if (type.remote) continue;
      for (const field of type.fields.values()) {
        if (field.kind !== 'id' && field.custom === undefined && field.reverseOf === undefined) predicates.add(field.predicate);
      }
    }
    return { predicates: [...predicates].sort(), maxUid: this.#graph.store.maxNodeId, lastCommit: this.#persistence?.lastLsn ?? this.#commits };
  }

  /** Compiles and deploys a schema; on failure nothing changes. Uploads are serialised. */
  updateSchema(sdl: string): Promise<SchemaUpdateResult> {
    const next = this.#schemaQueue.then(() => this.#deployLogged(sdl));
    this.#schemaQueue = next.catch(() => undefined);
    return next;
  }

  /** Validates a schema (remote GraphQL endpoints included) without deploying it. */
  async validateSchema(sdl: string): Promise<readonly SchemaError[]> {
    const result = compileSchema(sdl, this.#compileOptions());
    return result.ok ? await validateRemoteGraphql(result.compiled, this.#introspectionOptions()) : result.errors;
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
    const compiled = this.#state.compiled;
    return compiled === null ? null : { schema: compiled.sdl, generatedSchema: compiled.generatedSchema };
  }

  /** Who may call /graphql from a browser under the deployed schema. */
  get corsPolicy(): CorsPolicy {
    return this.#state.cors;
  }

  /** Whether requests must bring all their headers (`GraphQLRequest.headers`): false when the schema's custom logic reads none. */
  get readsRequestHeaders(): boolean {
    return this.#state.readsRequestHeaders;
  }

  probe(): Probe {
    return { status: this.#status, schemaUpdateCounter: this.#schemaUpdateCounter };
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
    await this.#schemaQueue;
    await this.#persistence?.close();
    await this.#calls.close();
  }

  /** Compiles; on success logs the upload (durably) and deploys it. */
  async #deployLogged(sdl: string): Promise<SchemaUpdateResult> {
    const result = compileSchema(sdl, this.#compileOptions());
    if (!result.ok) return { ok: false, errors: result.errors };
    const compiled = result.compiled;
    const remoteErrors = await validateRemoteGraphql(compiled, this.#introspectionOptions());
    if (remoteErrors.length > 0) return { ok: false, errors: remoteErrors };
    const persistence = this.#persistence;
    if (persistence === undefined) return this.#install(compiled);
    try {
      return await persistence.schema(sdl, () => this.#install(compiled));
    } catch (error) {
      if (!(error instanceof DurabilityError)) throw error;
      return { ok: false, errors: [{ message: error.message.replace('the mutation', 'the schema upload') }] };
    }
  }

  #install(compiled: CompiledSchema): SchemaUpdateResult {
    const previous = this.#status;
    this.#status = 'updating schema';
    try {
      this.#graph.applySchema(compiled.model);
      this.#state = {
        version: this.#state.version + 1,
        compiled,
        readsRequestHeaders: readsRequestHeaders(compiled),
        cors: corsPolicyOf(compiled.model),
        preparer: new RequestPreparer(compiled.apiSchema, this.options),
        executor: new Executor(
          compiled,
          this.#graph,
          this.options.debug,
          new CustomStage(compiled, this.#calls),
          this.options.directJson ?? true,
          budgetLimits(this.options),
        ),
      };
      this.#schemaUpdateCounter++;
      return { ok: true, schema: compiled.sdl, generatedSchema: compiled.generatedSchema };
    } finally {
      this.#status = previous === 'init' ? 'up' : previous;
    }
  }

  #compileOptions(): { lambdaUrl?: string } {
    return this.options.lambdaUrl === undefined ? {} : { lambdaUrl: this.options.lambdaUrl };
  }
}

function callLimits(options: EngineOptions): CallLimits {
  const custom = options.custom;
  return {
    timeoutMs: custom?.timeoutMs ?? defaultCallLimits.timeoutMs,
    maxResponseBytes: custom?.maxResponseBytes ?? defaultCallLimits.maxResponseBytes,
    maxConcurrency: custom?.maxConcurrency ?? defaultCallLimits.maxConcurrency,
    denyPrivate: custom?.denyPrivateAddresses ?? defaultCallLimits.denyPrivate,
  };
}

function budgetLimits(options: EngineOptions): BudgetLimits {
  const budget = options.budget;
  return {
    maxQueryCost: budget?.maxQueryCost ?? defaultBudgetLimits.maxQueryCost,
    maxResultBytes: budget?.maxResultBytes ?? defaultBudgetLimits.maxResultBytes,
    queryTimeoutMs: budget?.queryTimeoutMs ?? defaultBudgetLimits.queryTimeoutMs,
  };
}

const consoleLogger: EngineLogger = {
  info: (message, fields) => console.log(message, fields ?? ''),
  warn: (message, fields) => console.warn(message, fields ?? ''),
};

/** Response names of the operation's root fields (for the all-null answer of a refused mutation). */
function rootResponseNames(prepared: PreparedOperation): string[] {
  const names: string[] = [];
  for (const selection of prepared.operation.selectionSet.selections) {
    if (selection.kind === 'Field') names.push(selection.alias?.value ?? selection.name.value);
  }
  return names;
}

function extensionsFor(requestId: string | undefined): { extensions?: Record<string, unknown> } {
  return requestId === undefined ? {} : { extensions: { requestID: requestId } };
}

/** The response with its `@cacheControl` maxAge (BytesResponse keeps its lazy body). */
function withCacheControl(response: EngineResponse, cacheMaxAge: number): EngineResponse {
  if (response.kind !== 'ok') return response;
  if (response instanceof BytesResponse) {
    response.cacheMaxAge = cacheMaxAge;
    return response;
  }
  return { ...response, cacheMaxAge };
}

/** A response written directly as UTF-8 bytes; `body` decodes them only when read (tests, the admin API). */
class BytesResponse implements EngineResponse {
  readonly kind = 'ok';
  #text: string | undefined;
  cacheMaxAge?: number;

  constructor(
    readonly bytes: Buffer,
    readonly touchedUids: number,
  ) {}

  get body(): string {
    return (this.#text ??= this.bytes.toString('utf8'));
  }
}
