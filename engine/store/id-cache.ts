// A column's "ids having something" set, built by a scan the first time it is asked for and then kept
// up to date incrementally (so columns that are never asked cost nothing).

import { PostingList } from '../indexes/postings/posting-list.js';
import type { SortedIds } from '../util/sorted-ids.js';

export class IdCache {
  private list: PostingList | undefined;

  get(scan: () => number[]): SortedIds {
    if (this.list === undefined) this.list = new PostingList(scan());
    return this.list.toArray();
  }

  added(id: number): void {
    this.list?.add(id);
  }

  removed(id: number): void {
    this.list?.remove(id);
  }
}
