// The distance of an hnsw index's metric, with the formulas Dgraph v25's query rewriter writes for
// vector_distance (graphql/resolve/query_rewriter.go): euclidean sqrt(Σ(a-b)²), cosine
// 1 - a·b/sqrt((a·a)(b·b)), dotproduct 1 - a·b. Every search path (scan, kd-tree leaves) computes
// these sums in this order, in doubles over the float32 values, so answers are bit-identical.

export type VectorMetric = 'euclidean' | 'cosine' | 'dotproduct';

/**
 * Distance between `q` and the vector at `data[at .. at + q.length)`; `qq` = q·q and `pp` = p·p
 * (only cosine reads them). NaN (a zero vector under cosine) means "no distance".
 */
export function distanceAt(metric: VectorMetric, q: Float32Array, qq: number, data: Float32Array, at: number, pp: number): number {
  const dim = q.length;
  if (metric === 'euclidean') {
    let sq = 0;
    for (let i = 0; i < dim; i++) {
      const d = (q[i] as number) - (data[at + i] as number);
      sq += d * d;
    }
    return Math.sqrt(sq);
  }
  let dot = 0;
  for (let i = 0; i < dim; i++) dot += (q[i] as number) * (data[at + i] as number);
  return metric === 'cosine' ? 1 - dot / Math.sqrt(qq * pp) : 1 - dot;
}

/** a·a, summed in the order distanceAt sums. */
export function selfDot(data: Float32Array, at: number, dim: number): number {
  let s = 0;
  for (let i = 0; i < dim; i++) {
    const x = data[at + i] as number;
    s += x * x;
  }
  return s;
}
