// An edge column at one moment: copies of its forward adjacency's slots and block pool (two memcpys at
// capture), walked into (from, to) pairs only when first read — by the snapshot's encoder thread. Walking
// the adjacency at capture held the event loop ~15 ms per predicate per 100k nodes.

import { adjacencyPairs } from './adjacency.js';

/** What another thread needs to rebuild a CapturedEdges (all transferable). */
export interface CapturedEdgesParts {
  readonly predicate: string;
  readonly slot: Int32Array;
  readonly pool: Int32Array;
  readonly count: number;
}

export class CapturedEdges {
  #from: Int32Array | undefined;
  #to: Int32Array | undefined;

  constructor(private readonly captured: CapturedEdgesParts) {}

  get predicate(): string {
    return this.captured.predicate;
  }

  /** Sources, by ascending source then target (parallel to `to`). */
  get from(): Int32Array {
    return this.#pairs()[0];
  }

  get to(): Int32Array {
    return this.#pairs()[1];
  }

  parts(): CapturedEdgesParts {
    return this.captured;
  }

  #pairs(): [Int32Array, Int32Array] {
    if (this.#from === undefined || this.#to === undefined) {
      const { slot, pool, count } = this.captured;
      this.#from = new Int32Array(count);
      this.#to = new Int32Array(count);
      adjacencyPairs(slot, pool, this.#from, this.#to);
    }
    return [this.#from, this.#to];
  }
}
