// Step 3 of the custom stage: the outgoing calls of one group (REFERENCE §8.2). A root field makes one
// call; a type field makes one call per unique parent (SINGLE) or one for all of them (BATCH). Bodies
// are written as Go would (keys sorted, HTML-safe escapes); per-parent items go straight to JSON text.

import type { GraphQLSchema } from 'graphql';
import type { GraphQLRequest } from '../api.js';
import type { ExecContext } from '../exec/exec-context.js';
import { toOutputValue } from '../exec/stored-values.js';
import type { ScalarValue } from '../indexes/value-index.js';
import type { FieldPlan } from '../plan/selection-plan.js';
import type { SchemaModel, TypeModel } from '../schema/model.js';
import { GraphStore } from '../store/graph-store.js';
import { jsonObjectText, valuesWriter } from './body-writer.js';
import type { CustomFieldSpec } from './custom-field.js';
import { goEscape, goJson, goJsonText } from './go-json.js';
import type { OutboundCall } from './outbound.js';
import { remoteQueryText } from './remote-query.js';
import { renderBody, substituteUrl } from './template.js';
import { sliceCheckEvery, type TimeSlice } from './time-slice.js';

export const failed = (detail: string, field: string, parent: string): string =>
  `Evaluation of custom field failed because ${detail} for field: ${field} within type: ${parent}.`;

/** What building needs besides the group: the schema, and the request's headers for forwarding. */
export interface BuildContext {
  readonly ctx: ExecContext;
  readonly request: GraphQLRequest;
  readonly model: SchemaModel;
  readonly schema: GraphQLSchema;
}

/**
 * The calls of one group, pushed onto `calls`; `callErrors` gets per-call failures (by offset in the
 * group). Rejects when none can be built. Parent values are all read from the store first; only the
 * writing of many SINGLE calls is sliced (`slice`), so every call sees the same state of the store.
 */
export async function buildCalls(
  build: BuildContext,
  spec: CustomFieldSpec,
  plan: FieldPlan,
  parents: readonly number[],
  calls: OutboundCall[],
  callErrors: Map<number, string>,
  slice: TimeSlice,
): Promise<void> {
  const { ctx, request } = build;
  const first = calls.length;
  const headers = headersFor(spec, request, build.model);
  const bad = headers.find(([, value]) => !validHeaderValue(value));
  const push = (url: string, body: string | undefined): void => {
    if (bad !== undefined) callErrors.set(calls.length - first, `external request returned an error: header ${bad[0]} has an invalid value`);
    calls.push(body === undefined ? { url, method: spec.http.method, headers } : { url, method: spec.http.method, headers, body });
  };
  if (parents.length === 0) {
    const args = ctx.argumentsOf(plan);
    let url: string;
    try {
      url = substituteUrl(spec.http.url, args);
    } catch (error) {
      throw new Error(failed(`while substituting variables into URL for remote endpoint with an error: ${String(error)}`, spec.field, spec.parentType).replace('because while', 'while'));
    }
    if (spec.lambda) push(url, goJson({ resolver: `${spec.parentType}.${spec.field}`, args: renderBody(spec.body ?? emptyObject, args), ...lambdaAuth(request, build.model) }));
    else if (spec.graphql !== undefined) push(url, goJson({ query: remoteQueryText(spec.graphql, plan, build.schema, ctx.variables), variables: args }));
    else push(url, spec.body === undefined ? undefined : goJson(renderBody(spec.body, args)));
    return;
  }
  const type = ctx.typeModel(spec.parentType);
  const values = parents.map((id) => parentValues(ctx, type, id, spec.required));
  if (spec.http.mode === 'BATCH') {
    const items = itemsText(spec, values);
    if (spec.lambda) {
      const members: [string, string][] = [['resolver', JSON.stringify(`${spec.parentType}.${spec.field}`)], ['parents', items]];
      for (const [key, value] of Object.entries(lambdaAuth(request, build.model))) members.push([key, goJsonText(value) as string]);
      push(spec.http.url, goEscape(jsonObjectText(members)));
    } else if (spec.graphql !== undefined) {
      const query = remoteQueryText(spec.graphql, plan, build.schema, ctx.variables);
      const variables = jsonObjectText([[spec.graphql.batchVariable ?? 'input', items]]);
      push(spec.http.url, goEscape(jsonObjectText([['query', JSON.stringify(query)], ['variables', variables]])));
    } else push(spec.http.url, goEscape(items));
    return;
  }
  if (spec.graphql !== undefined) {
    const query = JSON.stringify(remoteQueryText(spec.graphql, plan, build.schema, ctx.variables));
    const variables = spec.body === undefined && spec.itemWriter !== undefined ? spec.itemWriter : valuesWriter(spec.required);
    for (let i = 0; i < values.length; i++) {
      if (i % sliceCheckEvery === sliceCheckEvery - 1) await slice.pause();
      const v = values[i] as Readonly<Record<string, unknown>>;
      push(substituteUrl(spec.http.url, v), goEscape(jsonObjectText([['query', query], ['variables', variables(v) as string]])));
    }
    return;
  }
  for (let i = 0; i < values.length; i++) {
    if (i % sliceCheckEvery === sliceCheckEvery - 1) await slice.pause();
    const v = values[i] as Readonly<Record<string, unknown>>;
    push(substituteUrl(spec.http.url, v), spec.body === undefined ? undefined : singleBody(spec, v));
  }
}

/** `[item, ...]` for a BATCH body, unescaped. */
function itemsText(spec: CustomFieldSpec, values: readonly Readonly<Record<string, unknown>>[]): string {
  const writer = spec.itemWriter;
  if (writer === undefined) return goJsonText(values.map((v) => (spec.body === undefined ? v : renderBody(spec.body, v)))) as string;
  let out = '[';
  for (let i = 0; i < values.length; i++) out += `${i === 0 ? '' : ','}${writer(values[i] as Readonly<Record<string, unknown>>) ?? 'null'}`;
  return `${out}]`;
}

function singleBody(spec: CustomFieldSpec, v: Readonly<Record<string, unknown>>): string {
  const text = spec.itemWriter?.(v);
  // A template that renders to nothing takes the generic path, which fails the same way it always did.
  return text === undefined ? goJson(renderBody(spec.body ?? emptyObject, v)) : goEscape(text);
}

const emptyObject = { kind: 'object', fields: [] } as const;

/** Content-Type, then secret headers, then forwarded headers (REFERENCE §8.2). */
function headersFor(spec: CustomFieldSpec, request: GraphQLRequest, model: SchemaModel): [string, string][] {
  const headers: [string, string][] = [['Content-Type', 'application/json']];
  for (const entry of spec.http.secretHeaders) {
    const [remote = '', secret = remote] = entry.split(':');
    headers.push([remote, model.secrets.get(secret) ?? '']);
  }
  for (const entry of spec.http.forwardHeaders) {
    const [remote, local = remote] = entry.split(':');
    if (remote === 'Content-Type' || remote?.toLowerCase() === 'content-type') continue;
    headers.push([remote as string, request.headers[(local as string).toLowerCase()] ?? '']);
  }
  return headers;
}

function lambdaAuth(request: GraphQLRequest, model: SchemaModel): Record<string, unknown> {
  const out: Record<string, unknown> = { 'X-Dgraph-AccessToken': request.headers['x-service-accesstoken'] ?? request.headers['x-dgraph-accesstoken'] ?? '' };
  const header = model.authorization?.['Header'];
  if (typeof header === 'string') out['authHeader'] = { key: header, value: request.headers[header.toLowerCase()] ?? '' };
  return out;
}

function validHeaderValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0 || c > 0xff) return false;
  }
  return true;
}

/** Values of the parent fields a call needs, read from the store (absent and null values left out). */
function parentValues(ctx: ExecContext, type: TypeModel, id: number, required: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of required) {
    const field = type.fields.get(name);
    if (field === undefined) continue;
    if (field.kind === 'id') {
      out[name] = GraphStore.uidOf(id);
      continue;
    }
    const stored = ctx.graph.store.scalar(field.predicate).get(id);
    if (stored === undefined || stored === null) continue;
    out[name] = Array.isArray(stored) ? (stored as readonly ScalarValue[]).map(toOutputValue) : toOutputValue(stored as ScalarValue);
  }
  return out;
}
