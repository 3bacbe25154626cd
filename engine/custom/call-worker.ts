// Piscina worker entry: one task = one batch of outgoing calls, sent with this thread's pooled client.

import { sendCalls } from './http-client.js';
import type { CallLimits, CallOutcome, OutboundCall } from './outbound.js';

export interface CallTask {
  readonly calls: readonly OutboundCall[];
  readonly limits: CallLimits;
}

export default function runCallTask(task: CallTask): Promise<CallOutcome[]> {
  return sendCalls(task.calls, task.limits);
}
