// Schema uploads, one at a time: compile, check remote GraphQL endpoints, log the upload durably, deploy.
// On any failure nothing changes.

import type { SchemaError, SchemaUpdateResult } from '../api.js';
import { validateRemoteGraphql, type IntrospectionOptions } from '../custom/remote-introspection.js';
import { DurabilityError, type Persistence } from '../persist/persistence.js';
import type { SchemaLifecycle } from './schema-lifecycle.js';

export class SchemaDeployQueue {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly schema: SchemaLifecycle,
    private readonly introspection: () => IntrospectionOptions,
    private readonly persistence: () => Persistence | undefined,
  ) {}

  /** Queues one upload behind those before it. */
  update(sdl: string): Promise<SchemaUpdateResult> {
    const next = this.#queue.then(() => this.#deploy(sdl));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Validates a schema (remote GraphQL endpoints included) without deploying it. */
  async validate(sdl: string): Promise<readonly SchemaError[]> {
    const result = this.schema.compile(sdl);
    return result.ok ? await validateRemoteGraphql(result.compiled, this.introspection()) : result.errors;
  }

  /** Resolves once every queued upload has finished. */
  idle(): Promise<unknown> {
    return this.#queue;
  }

  async #deploy(sdl: string): Promise<SchemaUpdateResult> {
    const result = this.schema.compile(sdl);
    if (!result.ok) return { ok: false, errors: result.errors };
    const compiled = result.compiled;
    const remoteErrors = await validateRemoteGraphql(compiled, this.introspection());
    if (remoteErrors.length > 0) return { ok: false, errors: remoteErrors };
    // The key is read and every JWKS fetched now (bounded): an unusable one fails the upload.
    const auth = this.schema.verifierFor(compiled);
    if (typeof auth === 'string') return { ok: false, errors: [{ message: auth }] };
    const jwksFailure = await auth?.loadKeys();
    if (jwksFailure !== undefined) return { ok: false, errors: [{ message: jwksFailure }] };
    const persistence = this.persistence();
    if (persistence === undefined) return this.schema.install(compiled, auth);
    try {
      // Applied right after its record is written: the log's last LSN is the upload's.
      return await persistence.schema(sdl, () => ({ ...this.schema.install(compiled, auth), lsn: persistence.lastLsn }));
    } catch (error) {
      if (!(error instanceof DurabilityError)) throw error;
      return { ok: false, errors: [{ message: error.message.replace('the mutation', 'the schema upload') }] };
    }
  }
}
