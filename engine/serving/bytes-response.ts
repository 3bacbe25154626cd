// The answer of the direct JSON writer: UTF-8 bytes, decoded to text only when someone reads `body`.

import type { EngineResponse } from '../api.js';

export class BytesResponse implements EngineResponse {
  readonly kind = 'ok';
  #text: string | undefined;
  cacheMaxAge?: number;

  constructor(
    readonly bytes: Buffer,
    readonly touchedUids: number,
  ) {}

  /** Decoded only when read (tests, the admin API). */
  get body(): string {
    return (this.#text ??= this.bytes.toString('utf8'));
  }
}

/** The response with its `@cacheControl` maxAge, if the query has one (a BytesResponse keeps its lazy body). */
export function withCacheControl(response: EngineResponse, cacheMaxAge: number | undefined): EngineResponse {
  if (cacheMaxAge === undefined || response.kind !== 'ok') return response;
  if (response instanceof BytesResponse) {
    response.cacheMaxAge = cacheMaxAge;
    return response;
  }
  return { ...response, cacheMaxAge };
}
