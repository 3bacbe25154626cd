// The engine facade: the only module server/ imports. Every method resolves (never rejects):
// failures come back as GraphQL errors in the response body.

import { randomUUID } from 'node:crypto';
import { execute as runGraphql, getOperationAST, parse } from 'graphql';
import type {
  EngineOptions,
  EngineResponse,
  GraphQLRequest,
  HealthInfo,
  Probe,
  ProbeStatus,
  SchemaError,
  SchemaUpdateResult,
} from './api.js';
import { adminRootValue, adminSchema } from './admin/admin-api.js';
import { messages } from './errors/messages.js';
import { wireError, type WireError } from './errors/wire-error.js';
import { Executor } from './exec/executor.js';
import { Graph } from './exec/graph.js';
import { serializeResponse } from './exec/serialize-response.js';
import { RequestPreparer, toWireError } from './request/prepare-request.js';
import { compileSchema, type CompiledSchema } from './schema/compile-schema.js';
import { answerWithoutSchema, noSchemaApi } from './request/no-schema.js';

export type * from './api.js';
export { renderSchemaErrors } from './admin/admin-api.js';

/** Everything that serves requests for one schema version; swapped atomically on upload. */
interface ServingState {
  readonly version: number;
  readonly compiled: CompiledSchema | null;
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

  private constructor(private readonly options: EngineOptions) {
    this.#state = { version: 0, compiled: null, preparer: new RequestPreparer(noSchemaApi, { ...options, validate: false }), executor: null };
  }

  static async open(options: EngineOptions): Promise<Engine> {
    const engine = new Engine(options);
    engine.#status = 'up';
    return engine;
  }

  /** Runs one /graphql request. */
  async execute(request: GraphQLRequest): Promise<EngineResponse> {
    const state = this.#state;
    let requestId: string | undefined;
    try {
      const prepared = state.preparer.prepare(request);
      if (!prepared.ok) return { kind: prepared.kind, body: serializeResponse({ errors: prepared.errors }) };
      if (prepared.prepared.operation.operation === 'mutation') requestId = randomUUID();
      if (state.executor === null) {
        return { kind: 'ok', body: serializeResponse({ ...answerWithoutSchema(prepared.prepared), ...extensionsFor(requestId) }) };
      }
      const result = await state.executor.run(prepared.prepared, request);
      return { kind: 'ok', body: serializeResponse({ ...result, ...extensionsFor(requestId) }) };
    } catch (error) {
      // Internal failures never leak details: the client gets an id to quote, the log gets the rest.
      const id = requestId ?? randomUUID();
      console.error(`request ${id} failed:`, error);
      return { kind: 'ok', body: serializeResponse({ errors: [wireError(messages.internal(id))], data: null }) };
    }
  }

  /** Runs one /admin GraphQL request (getGQLSchema, updateGQLSchema, health). */
  async executeAdmin(request: GraphQLRequest): Promise<EngineResponse> {
    if (request.query === undefined || request.query.trim() === '') {
      return { kind: 'request-error', body: serializeResponse({ errors: [wireError(messages.noQuery)] }) };
    }
    let document;
    try {
      document = parse(request.query);
    } catch (error) {
      return { kind: 'request-error', body: serializeResponse({ errors: [toWireError(error)] }) };
    }
    const operation = getOperationAST(document, request.operationName ?? undefined);
    if (request.method === 'GET' && operation !== null && operation !== undefined && operation.operation !== 'query') {
      return { kind: 'method-not-allowed', body: serializeResponse({ errors: [wireError(messages.mutationOverGet)] }) };
    }
    const variables = isPlainObject(request.variables) ? request.variables : undefined;
    const result = await runGraphql({
      schema: adminSchema,
      document,
      rootValue: adminRootValue(this),
      variableValues: variables,
      operationName: request.operationName ?? undefined,
    });
    const errors = result.errors?.map(toWireError);
    const response: { errors?: readonly WireError[]; data?: unknown } = {};
    if (errors !== undefined) response.errors = errors;
    if (result.data !== undefined) response.data = result.data;
    return { kind: result.data === undefined ? 'request-error' : 'ok', body: serializeResponse(response) };
  }

  /** Compiles and deploys a schema; on failure nothing changes. Uploads are serialised. */
  updateSchema(sdl: string): Promise<SchemaUpdateResult> {
    const next = this.#schemaQueue.then(() => this.#deploy(sdl));
    this.#schemaQueue = next.catch(() => undefined);
    return next;
  }

  /** Validates a schema without deploying it. */
  validateSchema(sdl: string): readonly SchemaError[] {
    const result = compileSchema(sdl, this.#compileOptions());
    return result.ok ? [] : result.errors;
  }

  currentSchema(): { readonly schema: string; readonly generatedSchema: string } | null {
    const compiled = this.#state.compiled;
    return compiled === null ? null : { schema: compiled.sdl, generatedSchema: compiled.generatedSchema };
  }

  probe(): Probe {
    return { status: this.#status, schemaUpdateCounter: this.#schemaUpdateCounter };
  }

  health(address = ''): HealthInfo {
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

  async close(): Promise<void> {
    await this.#schemaQueue;
  }

  async #deploy(sdl: string): Promise<SchemaUpdateResult> {
    const result = compileSchema(sdl, this.#compileOptions());
    if (!result.ok) return { ok: false, errors: result.errors };
    const previous = this.#status;
    this.#status = 'updating schema';
    try {
      const compiled = result.compiled;
      this.#graph.applySchema(compiled.model);
      this.#state = {
        version: this.#state.version + 1,
        compiled,
        preparer: new RequestPreparer(compiled.apiSchema, this.options),
        executor: new Executor(compiled, this.#graph),
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

function extensionsFor(requestId: string | undefined): { extensions?: Record<string, unknown> } {
  return requestId === undefined ? {} : { extensions: { requestID: requestId } };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
