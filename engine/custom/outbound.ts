// The plain, structured-clone-safe shapes that cross into the worker pool: outgoing calls and their outcomes.

import type { SelfAddress } from './address-guard.js';

export interface OutboundCall {
  readonly url: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Header name/value pairs, in sending order. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string;
}

export interface CallLimits {
  /** Per-call timeout (connect + headers + body). */
  readonly timeoutMs: number;
  /** Response bodies larger than this fail the call. */
  readonly maxResponseBytes: number;
  /** Outgoing calls in flight at once (per thread that sends them). */
  readonly maxConcurrency: number;
  /** Refuse private, loopback and link-local destinations (checked on the resolved address). */
  readonly denyPrivate: boolean;
  /** The service's own listening address and port: always refused (set once the server listens). */
  readonly self?: SelfAddress;
}

/** `error` is a short description safe to show to clients (never the remote body). */
export type CallOutcome = { readonly ok: true; readonly status: number; readonly body: string } | { readonly ok: false; readonly error: string };

export const defaultCallLimits: CallLimits = {
  timeoutMs: 30_000,
  maxResponseBytes: 16 * 1024 * 1024,
  maxConcurrency: 64,
  denyPrivate: false,
};
