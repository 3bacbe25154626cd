// One place writes the response envelope, in Dgraph's key order: errors, data, extensions.

import type { WireError } from '../errors/wire-error.js';
import { writeJson } from '../util/json-writer.js';

export interface ResponseParts {
  readonly errors?: readonly WireError[] | undefined;
  readonly data?: unknown;
  readonly extensions?: Readonly<Record<string, unknown>> | undefined;
}

export function serializeResponse(parts: ResponseParts): string {
  let out = '{';
  let sep = '';
  if (parts.errors !== undefined && parts.errors.length > 0) {
    out += `"errors":${JSON.stringify(parts.errors)}`;
    sep = ',';
  }
  if (parts.data !== undefined) {
    out += `${sep}"data":${writeJson(parts.data)}`;
    sep = ',';
  }
  if (parts.extensions !== undefined) out += `${sep}"extensions":${JSON.stringify(parts.extensions)}`;
  return out + '}';
}
