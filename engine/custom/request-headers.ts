// Whether a schema's custom logic reads the headers of the request it serves: a `@custom` call that
// forwards some, `@lambda` fields and `@lambdaOnMutate` webhooks (the access token and the
// Dgraph.Authorization header). When none does, the HTTP edge copies only the few headers it reads
// itself out of each request, instead of every header.

import type { CompiledSchema } from '../schema/compile-schema.js';
import type { CustomFieldModel } from '../schema/model.js';
import { webhookOperations } from './webhooks.js';

export function readsRequestHeaders(compiled: CompiledSchema): boolean {
  const { model, apiSchema } = compiled;
  const reads = (custom: CustomFieldModel | undefined): boolean =>
    custom !== undefined && (custom.lambda || (custom.http?.forwardHeaders.length ?? 0) > 0);
  for (const root of [...model.queries.values(), ...model.mutations.values()]) if (reads(root.custom)) return true;
  for (const type of model.types.values()) {
    for (const field of type.fields.values()) if (reads(field.custom)) return true;
    if (webhookOperations(apiSchema, type.name).size > 0) return true;
  }
  return false;
}
