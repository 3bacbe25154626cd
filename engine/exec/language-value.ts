// Reading multi-language (`pred@hi:zh:.`) and any-language (`pred@.`) fields: the value of the first
// predicate in the field's `languages` list that has one (Dgraph's language fallback). One-language
// values are stored under `pred@lang`, the untagged value under `pred`; `pred@*` stands for every
// stored language of `pred` (in the order of their tags, a stable choice where Dgraph's is internal).

import type { FieldModel } from '../schema/model.js';
import type { GraphStore } from '../store/graph-store.js';
import type { ScalarColumn, StoredValue } from '../store/scalar-column.js';
import { unionMany, type SortedIds } from '../util/sorted-ids.js';

/** The columns a language-fallback field reads, in order. */
function languageColumns(store: GraphStore, languages: readonly string[]): ScalarColumn[] {
  const columns: ScalarColumn[] = [];
  for (const predicate of languages) {
    if (!predicate.endsWith('@*')) {
      columns.push(store.scalar(predicate));
      continue;
    }
    const prefix = predicate.slice(0, -1);
    const tagged = store.predicates().scalars.filter((name) => name.startsWith(prefix) && /^[^:.*]+$/.test(name.slice(prefix.length)));
    for (const name of tagged.sort()) columns.push(store.scalar(name));
  }
  return columns;
}

/** The field's value on node `id`, or undefined when no language holds one. */
export function languageValue(store: GraphStore, field: FieldModel, id: number): StoredValue | undefined {
  for (const column of languageColumns(store, field.languages ?? [field.predicate])) {
    const value = column.get(id);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The nodes on which the field has a value in some language it reads. */
export function languageIds(store: GraphStore, field: FieldModel): SortedIds {
  return unionMany(languageColumns(store, field.languages ?? [field.predicate]).map((c) => c.ids()));
}
