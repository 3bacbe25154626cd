// querySimilar<T>ById / querySimilar<T>ByEmbedding: exact nearest neighbours over the embedding
// column (no approximate index needed at this scale), with the distance formulas Dgraph v25's query
// rewriter writes for vector_distance (graphql/resolve/query_rewriter.go): euclidean sqrt(Σ(a-b)²),
// cosine 1 - a·b/sqrt((a·a)(b·b)), dotproduct 1 - a·b; ascending, ties by id.

import { Kind, type GraphQLSchema } from 'graphql';
import type { FieldModel, TypeModel } from '../schema/model.js';
import { FieldError, type ExecContext } from './exec-context.js';
import { messages } from '../errors/messages.js';

export type Metric = 'euclidean' | 'cosine' | 'dotproduct';

const metrics = new WeakMap<GraphQLSchema, Map<string, Metric>>();

/** The `hnsw(metric: ...)` option of an embedding field, read once from the API schema's SDL nodes. */
export function metricOf(schema: GraphQLSchema, type: TypeModel, field: FieldModel): Metric {
  let byField = metrics.get(schema);
  if (byField === undefined) {
    byField = new Map();
    metrics.set(schema, byField);
  }
  const key = `${type.name}.${field.name}`;
  let metric = byField.get(key);
  if (metric === undefined) {
    metric = readMetric(schema, type.name, field.name);
    byField.set(key, metric);
  }
  return metric;
}

function readMetric(schema: GraphQLSchema, typeName: string, fieldName: string): Metric {
  const type = schema.getType(typeName);
  const node = type !== undefined && 'getFields' in type ? type.getFields()[fieldName]?.astNode : undefined;
  const search = node?.directives?.find((d) => d.name.value === 'search');
  const by = search?.arguments?.find((a) => a.name.value === 'by')?.value;
  const values = by === undefined ? [] : by.kind === Kind.LIST ? by.values : [by];
  for (const v of values) {
    if (v.kind !== Kind.STRING) continue;
    const match = /metric\s*:\s*"?(\w+)/.exec(v.value);
    if (match?.[1] === 'cosine' || match?.[1] === 'dotproduct') return match[1];
  }
  return 'euclidean';
}

/** Dgraph's names of the metrics in its "vectors of different lengths" error (tok/hnsw/helper.go). */
const metricNames: Readonly<Record<Metric, string>> = { euclidean: 'euclidean distance', cosine: 'cosine distance', dotproduct: 'dot product' };

export function distance(metric: Metric, a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) {
    throw new FieldError(messages.vectorLengths(metricNames[metric]));
  }
  let dot = 0;
  let aa = 0;
  let bb = 0;
  let sq = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    aa += x * x;
    bb += y * y;
    sq += (x - y) * (x - y);
  }
  if (metric === 'euclidean') return Math.sqrt(sq);
  if (metric === 'cosine') return 1 - dot / Math.sqrt(aa * bb);
  return 1 - dot;
}

/**
 * The `topK` nodes holding the embedding nearest to `vector`, ascending by distance (ties by id).
 * As in Dgraph (similar_to searches the whole predicate, the filter runs on its answer), the caller
 * filters these afterwards, so fewer than `topK` may remain.
 */
export function nearest(
  ctx: ExecContext,
  field: FieldModel,
  metric: Metric,
  vector: ArrayLike<number>,
  topK: number,
): { ids: number[]; distances: Map<number, number> } {
  if (topK < 0) throw new FieldError('topK must be a non-negative integer');
  const column = ctx.graph.store.scalar(field.predicate);
  const scored: { id: number; d: number }[] = [];
  for (const id of column.ids()) {
    const v = column.get(id);
    if (!(v instanceof Float32Array)) continue;
    const d = distance(metric, vector, v);
    if (!Number.isNaN(d)) scored.push({ id, d });
  }
  scored.sort((x, y) => x.d - y.d || x.id - y.id);
  const top = scored.slice(0, topK);
  return { ids: top.map((s) => s.id), distances: new Map(top.map((s) => [s.id, s.d])) };
}
