// querySimilar<T>ById / querySimilar<T>ByEmbedding: exact nearest neighbours from the embedding's
// vector index, with the distance formulas Dgraph v25's query rewriter writes for vector_distance
// (indexes/vector-metric.ts); ascending, ties by id.

import { Kind, type GraphQLSchema } from 'graphql';
import type { FieldModel, TypeModel } from '../schema/model.js';
import { FieldError, type ExecContext } from './exec-context.js';
import { messages } from '../errors/messages.js';
import { VectorIndex } from '../indexes/vector-index.js';
import type { VectorMetric } from '../indexes/vector-metric.js';

export type Metric = VectorMetric;

/** Per API schema, per type, the metric of each embedding field (no key string made per request). */
const metrics = new WeakMap<GraphQLSchema, WeakMap<TypeModel, Map<string, Metric>>>();

/** The `hnsw(metric: ...)` option of an embedding field, read once from the API schema's SDL nodes. */
export function metricOf(schema: GraphQLSchema, type: TypeModel, field: FieldModel): Metric {
  let byType = metrics.get(schema);
  if (byType === undefined) metrics.set(schema, (byType = new WeakMap()));
  let byField = byType.get(type);
  if (byField === undefined) byType.set(type, (byField = new Map()));
  let metric = byField.get(field.name);
  if (metric === undefined) {
    metric = readMetric(schema, type.name, field.name);
    byField.set(field.name, metric);
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

let scratchVector = new Float32Array(0);

/**
 * A query's vector as a float32vector (as in Dgraph: each value rounded to float32), in one array
 * reused per length: `nearest` keeps none of it, and a typed array allocated per request cost a µs.
 */
export function queryVector(values: readonly number[]): Float32Array {
  if (scratchVector.length !== values.length) scratchVector = new Float32Array(values.length);
  scratchVector.set(values);
  return scratchVector;
}

/**
 * The `topK` nodes holding the embedding nearest to `vector`, ascending by distance (ties by id), from
 * the field's vector index (indexes/vector-index.ts: exact). As in Dgraph (similar_to searches the
 * whole predicate, the filter runs on its answer), the caller filters these afterwards, so fewer than
 * `topK` may remain.
 */
export function nearest(
  ctx: ExecContext,
  field: FieldModel,
  metric: Metric,
  vector: Float32Array,
  topK: number,
): { ids: number[]; distances: Map<number, number>; explain: string | undefined } {
  if (topK < 0) throw new FieldError('topK must be a non-negative integer');
  const column = ctx.graph.store.scalar(field.predicate);
  const index = column.index('hnsw');
  if (!(index instanceof VectorIndex)) throw new Error(`no vector index on ${field.predicate}`);
  if (index.hasOtherLength(vector.length)) throw new FieldError(messages.vectorLengths(metricNames[metric]));
  const found = index.nearest(metric, vector, topK);
  const distances = new Map<number, number>();
  for (let i = 0; i < found.ids.length; i++) distances.set(found.ids[i] as number, found.distances[i] as number);
  const explain = ctx.explain === undefined ? undefined : `  nearest ${topK} by ${field.name} (${metric}) via hnsw ${found.path} over ${found.vectors} vectors\n  ran: examined ${found.examined}, got ${found.ids.length}`;
  return { ids: found.ids, distances, explain };
}
