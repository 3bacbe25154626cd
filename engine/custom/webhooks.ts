// `@lambdaOnMutate(add:, update:, delete:)` webhooks (REFERENCE §8.6). The facade calls `fire` once a
// mutation operation is committed (durable, when there is a log); each event of a type that asks for
// it becomes one POST to the lambda URL. Fire-and-forget: nothing is awaited by the request and every
// failure ends in the log, never in the response.

import { isObjectType, type GraphQLSchema } from 'graphql';
import type { GraphQLRequest } from '../api.js';
import type { MutationEvent } from '../exec/exec-context.js';
import type { SchemaModel } from '../schema/model.js';
import { GraphStore } from '../store/graph-store.js';
import type { CallRunner } from './call-runner.js';
import type { OutboundCall } from './outbound.js';

type Operation = MutationEvent['operation'];

export interface WebhookTarget {
  readonly model: SchemaModel;
  readonly apiSchema: GraphQLSchema;
}

/** Per type: the operations its `@lambdaOnMutate` turns on (computed once per schema version). */
const flagsBySchema = new WeakMap<GraphQLSchema, Map<string, ReadonlySet<Operation>>>();

export function webhookOperations(schema: GraphQLSchema, typeName: string): ReadonlySet<Operation> {
  let flags = flagsBySchema.get(schema);
  if (flags === undefined) {
    flags = new Map();
    flagsBySchema.set(schema, flags);
  }
  let ops = flags.get(typeName);
  if (ops === undefined) {
    const set = new Set<Operation>();
    const type = schema.getType(typeName);
    const directive = isObjectType(type) ? type.astNode?.directives?.find((d) => d.name.value === 'lambdaOnMutate') : undefined;
    for (const arg of directive?.arguments ?? []) {
      const name = arg.name.value;
      if ((name === 'add' || name === 'update' || name === 'delete') && arg.value.kind === 'BooleanValue' && arg.value.value) set.add(name);
    }
    ops = set;
    flags.set(typeName, ops);
  }
  return ops;
}

export interface WebhookSender {
  readonly runner: CallRunner;
  readonly lambdaUrl: string | undefined;
  readonly warn: (message: string, fields?: Record<string, string | number>) => void;
}

/** Sends the webhooks of a committed operation; never throws, never blocks the caller. */
export function fireWebhooks(
  sender: WebhookSender,
  target: WebhookTarget,
  events: readonly MutationEvent[],
  commitTs: number,
  request: GraphQLRequest,
): void {
  try {
    const url = sender.lambdaUrl;
    if (url === undefined || url === '') return;
    const calls: OutboundCall[] = [];
    for (const event of events) {
      if (event.rootIds.length === 0 || !webhookOperations(target.apiSchema, event.type).has(event.operation)) continue;
      calls.push({
        url: url.replace('$ns', '0'),
        method: 'POST',
        headers: [['Content-Type', 'application/json']],
        body: webhookBody(target.model, event, commitTs, request),
      });
    }
    if (calls.length === 0) return;
    sender.runner.run(calls).then(
      (outcomes) => {
        for (const outcome of outcomes) {
          if (!outcome.ok) sender.warn('lambdaOnMutate webhook failed', { error: outcome.error });
          else if (outcome.status < 200 || outcome.status > 299) sender.warn('lambdaOnMutate webhook failed', { status: outcome.status });
        }
      },
      (error: unknown) => sender.warn('lambdaOnMutate webhook failed', { error: String(error) }),
    );
  } catch (error) {
    sender.warn('lambdaOnMutate webhook failed', { error: String(error) });
  }
}

/** `{"resolver":"$webhook","X-Dgraph-AccessToken":...,"authHeader":{...},"event":{...}}` (Dgraph's field order). */
function webhookBody(model: SchemaModel, event: MutationEvent, commitTs: number, request: GraphQLRequest): string {
  const rootUIDs = event.rootIds.map((id) => GraphStore.uidOf(id));
  const payload: Record<string, unknown> = {
    resolver: '$webhook',
    'X-Dgraph-AccessToken': request.headers['x-service-accesstoken'] ?? request.headers['x-dgraph-accesstoken'] ?? '',
  };
  const header = model.authorization?.['Header'];
  if (typeof header === 'string') payload['authHeader'] = { key: header, value: request.headers[header.toLowerCase()] ?? '' };
  const body: Record<string, unknown> = { __typename: event.type, operation: event.operation, commitTs };
  if (event.operation === 'add') body['add'] = { rootUIDs, input: event.input ?? [] };
  else if (event.operation === 'delete') body['delete'] = { rootUIDs };
  else {
    const input = (event.input ?? {}) as Record<string, unknown>;
    const update: Record<string, unknown> = { rootUIDs };
    if (input['set'] !== undefined && input['set'] !== null) update['setPatch'] = input['set'];
    if (input['remove'] !== undefined && input['remove'] !== null) update['removePatch'] = input['remove'];
    body['update'] = update;
  }
  payload['event'] = body;
  return JSON.stringify(payload, (_key, value: unknown) => (typeof value === 'bigint' ? (Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()) : value));
}
