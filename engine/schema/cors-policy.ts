// The CORS facts of a deployed schema (Dgraph's `metaInfo.AllowedCorsOrigins` / `getAllowedHeaders`):
// the `# Service.Allow-Origin` list, and the request headers its logic reads — every local name of a
// `@custom` field's forwardHeaders, then the `# Service.Authorization` JWT header — which a browser
// must be allowed to send.

import type { CorsPolicy } from '../api.js';
import type { CustomFieldModel, SchemaModel } from './model.js';

export function corsPolicyOf(model: SchemaModel): CorsPolicy {
  const headers = new Set<string>();
  const collect = (custom: CustomFieldModel | undefined): void => {
    for (const entry of custom?.http?.forwardHeaders ?? []) {
      // `Remote:Local` forwards the request's Local header; a bare name is both.
      const [remote = '', local = remote] = entry.split(':');
      headers.add(local);
    }
  };
  for (const root of [...model.queries.values(), ...model.mutations.values()]) collect(root.custom);
  for (const type of model.types.values()) for (const field of type.fields.values()) collect(field.custom);
  const jwtHeader = model.authorization?.['Header'];
  const extraAllowedHeaders = [...headers];
  if (typeof jwtHeader === 'string' && jwtHeader !== '') extraAllowedHeaders.push(jwtHeader);
  return { allowedOrigins: new Set(model.allowedOrigins), extraAllowedHeaders };
}

/** Every origin, no extra headers: before the first schema upload. */
export const openCorsPolicy: CorsPolicy = { allowedOrigins: new Set(), extraAllowedHeaders: [] };
