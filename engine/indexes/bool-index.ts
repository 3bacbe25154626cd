// `bool` index: two postings.

import { postingAdd, postingIds, postingRemove, type Posting } from './postings/posting.js';
import type { SortedIds } from '../util/sorted-ids.js';
import type { ScalarValue, ValueIndex } from './value-index.js';

export class BoolIndex implements ValueIndex {
  private falses: Posting | undefined;
  private trues: Posting | undefined;
  private entries = 0;

  get entryCount(): number {
    return this.entries;
  }

  add(value: ScalarValue, id: number): void {
    if (typeof value !== 'boolean') return;
    const next = postingAdd(value ? this.trues : this.falses, id);
    if (next === null) return;
    if (value) this.trues = next;
    else this.falses = next;
    this.entries++;
  }

  remove(value: ScalarValue, id: number): void {
    if (typeof value !== 'boolean') return;
    const next = postingRemove(value ? this.trues : this.falses, id);
    if (next === null) return;
    if (value) this.trues = next;
    else this.falses = next;
    this.entries--;
  }

  eq(b: boolean): SortedIds {
    return postingIds(b ? this.trues : this.falses);
  }
}
