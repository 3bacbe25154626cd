// Ordered-index walk: with `order` on an indexed field and a small page of many candidates, read
// ids in value order from the index and stop after offset+first, instead of sorting every
// candidate. Ties (equal values) come in id order and nodes without a value last, as in sorting.

import type { OrderedIndex } from '../indexes/ordered-index.js';
import type { FieldModel, IndexKind } from '../schema/model.js';
import { contains, type SortedIds } from '../util/sorted-ids.js';
import type { ExecContext } from './exec-context.js';

export function walkOrdered(
  ctx: ExecContext,
  field: FieldModel,
  kind: IndexKind,
  descending: boolean,
  candidates: SortedIds,
  offset: number,
  first: number,
): number[] | undefined {
  const column = ctx.graph.store.scalar(field.predicate);
  const index = column.index(kind) as OrderedIndex | undefined;
  if (index === undefined) return undefined;
  const need = offset + first;
  const out: number[] = [];
  let run: number[] = [];
  let runValue: unknown;
  const flush = (): void => {
    run.sort((a, b) => a - b);
    for (const id of run) out.push(id);
    run = [];
  };
  for (const id of index.ordered(descending ? 'desc' : 'asc')) {
    if (!contains(candidates, id)) continue;
    const value = column.get(id);
    if (run.length > 0 && value !== runValue) {
      flush();
      if (out.length >= need) break;
    }
    runValue = value;
    run.push(id);
  }
  if (out.length < need) flush();
  if (out.length < need) for (const id of candidates) if (column.get(id) === undefined && (out.push(id), out.length >= need)) break;
  return out.slice(offset, need);
}
