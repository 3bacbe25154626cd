// The one thing exec/ needs of the custom-logic second stage (engine/custom/), which sits on top of
// exec's context, slots and paths: custom/ implements this, exec/ never imports custom/.

import type { GraphQLRequest } from '../api.js';
import type { FieldPlan } from '../plan/selection-plan.js';
import type { ExecContext } from './exec-context.js';

/** What the executor calls; resolves to true when a non-null root field failed (the whole `data` is null). */
export interface CustomResolver {
  resolve(ctx: ExecContext, request: GraphQLRequest, rootPlans: readonly FieldPlan[], data: Record<string, unknown>): Promise<boolean>;
}
