// The data side of the engine for exec/: the store plus the index layout the schema asks for.
// Survives schema changes (data of fields that remain is kept; new indexes are back-filled).

import { GraphStore } from '../store/graph-store.js';
import type { FieldModel, IndexKind, SchemaModel } from '../schema/model.js';
import { xidIndexKind } from '../plan/filter-plan.js';

export class Graph {
  readonly store = new GraphStore();

  /** Makes sure every index the model's `@search`/`@id` fields need exists (back-filling values). */
  applySchema(model: SchemaModel): void {
    for (const type of model.types.values()) {
      if (type.remote) continue;
      for (const field of type.fields.values()) {
        for (const kind of indexKindsOf(field)) this.store.scalar(field.predicate).ensureIndex(kind);
      }
    }
  }
}

/**
 * Indexes kept for a field: its `@search` kinds, a hash/int index for `@id` lookups, and the vector
 * index (`hnsw`) of every `@embedding` field, which querySimilar<T>By* search with or without @search.
 */
function indexKindsOf(field: FieldModel): readonly IndexKind[] {
  if (field.custom !== undefined || field.kind === 'object' || field.kind === 'interface' || field.kind === 'union') return [];
  if (field.kind === 'id') return [];
  const kinds = new Set<IndexKind>(field.search);
  if (field.kind === 'embedding') kinds.add('hnsw');
  if (field.isXid) kinds.add(xidIndexKind(field));
  return [...kinds];
}

