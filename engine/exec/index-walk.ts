// Ordered-index walk: with `order` on an indexed field and a small page of many candidates, read
// ids in value order from the index and stop after offset+first, instead of sorting every
// candidate. Ties (equal values share one posting, ids ascending) come in id order and nodes
// without a value last, as in sorting.

import type { OrderedIndex } from '../indexes/ordered-index.js';
import type { FieldModel, IndexKind } from '../schema/model.js';
import { PostingList } from '../indexes/postings/posting-list.js';
import { postingIds, type Posting } from '../indexes/postings/posting.js';
import { lowerBound, type SortedIds } from '../util/sorted-ids.js';
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
  if (need === 0) return out;
  const n = candidates.length;
  const isCandidate = (id: number): boolean => {
    const i = lowerBound(candidates, id, 0, n);
    return i < n && candidates[i] === id;
  };
  index.walk(descending ? 'desc' : 'asc', (p: Posting) => {
    if (typeof p === 'number') {
      if (isCandidate(p)) out.push(p);
    } else {
      const ids = p instanceof PostingList ? postingIds(p) : p;
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k] as number;
        if (isCandidate(id)) out.push(id);
      }
    }
    return out.length >= need;
  });
  if (out.length < need) for (const id of candidates) if (column.get(id) === undefined && (out.push(id), out.length >= need)) break;
  return out.slice(offset, need);
}
