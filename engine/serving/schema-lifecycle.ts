// The deployed schema and everything built from it, swapped atomically on each deploy; the probe status
// and the deploy counter go with it.

import type { CorsPolicy, EngineOptions, ProbeStatus, SchemaUpdateResult } from '../api.js';
import { renderSchemaErrors } from '../admin/admin-api.js';
import { authConfigOf } from '../auth/auth-config.js';
import { defaultJwksOptions } from '../auth/jwks.js';
import { TokenVerifier } from '../auth/token-verifier.js';
import type { CallRunner } from '../custom/call-runner.js';
import { CustomStage } from '../custom/custom-stage.js';
import { readsRequestHeaders } from '../custom/request-headers.js';
import { Executor } from '../exec/executor.js';
import type { Graph } from '../exec/graph.js';
import { noSchemaApi } from '../request/no-schema.js';
import { RequestPreparer } from '../request/prepare-request.js';
import { compileSchema, type CompiledSchema, type CompileResult } from '../schema/compile-schema.js';
import { corsPolicyOf, openCorsPolicy } from '../schema/cors-policy.js';
import { budgetLimits } from './limits-from-options.js';

/** Everything that serves requests for one schema version. */
export interface ServingState {
  readonly version: number;
  readonly compiled: CompiledSchema | null;
  /** Custom logic of this schema reads request headers (custom/request-headers.ts). */
  readonly readsRequestHeaders: boolean;
  /** The schema's custom logic forwards request headers (`@custom` forwardHeaders, `@lambda`, webhooks). */
  readonly forwardsHeaders: boolean;
  /** Verifies the tokens of `# Service.Authorization` (auth/); null when the schema has none. */
  readonly auth: TokenVerifier | null;
  /** Allow-Origin list and extra allowed headers of /graphql (schema/cors-policy.ts). */
  readonly cors: CorsPolicy;
  readonly preparer: RequestPreparer;
  readonly executor: Executor | null;
}

export class SchemaLifecycle {
  #state: ServingState;
  status: ProbeStatus = 'init';
  #updateCounter = 0;

  constructor(
    private readonly graph: Graph,
    private readonly calls: CallRunner,
    private readonly options: EngineOptions,
  ) {
    this.#state = { version: 0, compiled: null, readsRequestHeaders: false, forwardsHeaders: false, auth: null, cors: openCorsPolicy, preparer: new RequestPreparer(noSchemaApi, { ...options, validate: false }), executor: null };
  }

  get state(): ServingState {
    return this.#state;
  }

  get updateCounter(): number {
    return this.#updateCounter;
  }

  compile(sdl: string): CompileResult {
    return compileSchema(sdl, this.options.lambdaUrl === undefined ? {} : { lambdaUrl: this.options.lambdaUrl });
  }

  /** Deploys a schema found in the snapshot or the log; it compiled when it was uploaded, so failing is damage. */
  deployOrThrow(sdl: string, where: string): void {
    const result = this.compile(sdl);
    if (!result.ok) throw new Error(`the schema in ${where} no longer compiles: ${renderSchemaErrors(result.errors)}`);
    const auth = this.verifierFor(result.compiled);
    if (typeof auth === 'string') throw new Error(`the schema in ${where} no longer compiles: ${auth}`);
    auth?.loadInBackground();
    this.install(result.compiled, auth);
  }

  /** The schema's token verifier (JWKS not loaded yet), null without authorization, or why its key is unusable. */
  verifierFor(compiled: CompiledSchema): TokenVerifier | null | string {
    const config = authConfigOf(compiled.model.authorization);
    if (config === undefined) return null;
    const custom = this.options.custom;
    const built = TokenVerifier.build(config, {
      ...defaultJwksOptions,
      timeoutMs: custom?.jwksTimeoutMs ?? defaultJwksOptions.timeoutMs,
      minRefreshMs: custom?.jwksRefreshMs ?? defaultJwksOptions.minRefreshMs,
    });
    return built.ok ? built.value : built.message;
  }

  /** Told after each schema is installed: live subscriptions end. */
  installed: () => void = () => undefined;

  install(compiled: CompiledSchema, auth: TokenVerifier | null = null): SchemaUpdateResult {
    const previous = this.status;
    this.status = 'updating schema';
    try {
      this.graph.applySchema(compiled.model);
      const forwardsHeaders = readsRequestHeaders(compiled);
      this.#state = {
        version: this.#state.version + 1,
        compiled,
        // The token header must reach the engine: the edge then copies every header.
        readsRequestHeaders: auth !== null || forwardsHeaders,
        forwardsHeaders,
        auth,
        cors: corsPolicyOf(compiled.model),
        preparer: new RequestPreparer(compiled.apiSchema, this.options),
        executor: new Executor(
          compiled,
          this.graph,
          this.options.debug,
          new CustomStage(compiled, this.calls),
          this.options.directJson ?? true,
          budgetLimits(this.options),
        ),
      };
      this.#updateCounter++;
      this.installed();
      return { ok: true, schema: compiled.sdl, generatedSchema: compiled.generatedSchema };
    } finally {
      this.status = previous === 'init' ? 'up' : previous;
    }
  }
}
