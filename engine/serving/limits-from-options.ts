// Engine options → the limits of outgoing calls and of query budgets, defaults filled in.

import type { EngineOptions } from '../api.js';
import { defaultCallLimits, type CallLimits } from '../custom/outbound.js';
import { defaultBudgetLimits, type BudgetLimits } from '../exec/query-budget.js';

export function callLimits(options: EngineOptions): CallLimits {
  const custom = options.custom;
  return {
    timeoutMs: custom?.timeoutMs ?? defaultCallLimits.timeoutMs,
    maxResponseBytes: custom?.maxResponseBytes ?? defaultCallLimits.maxResponseBytes,
    maxConcurrency: custom?.maxConcurrency ?? defaultCallLimits.maxConcurrency,
    denyPrivate: custom?.denyPrivateAddresses ?? defaultCallLimits.denyPrivate,
  };
}

export function budgetLimits(options: EngineOptions): BudgetLimits {
  const budget = options.budget;
  return {
    maxQueryCost: budget?.maxQueryCost ?? defaultBudgetLimits.maxQueryCost,
    maxResultBytes: budget?.maxResultBytes ?? defaultBudgetLimits.maxResultBytes,
    queryTimeoutMs: budget?.queryTimeoutMs ?? defaultBudgetLimits.queryTimeoutMs,
  };
}
