// Live subscriptions: each answer pushed when a commit changed it, never on a timer (Dgraph polls every
// subscription once a second). Subscriptions with the same document, operation, variables and request
// headers (so the same `@auth` view) form one group: one evaluation and one answer for all of them.
// After a commit every group is evaluated again, once however many commits arrived meanwhile, and its
// members get the answer only when its `data`/`errors` differ from the last one sent. A schema change
// completes every subscription (clients subscribe again against the new schema), as in Dgraph.

import type { EngineResponse, GraphQLRequest } from '../api.js';

/** What a subscriber receives: an answer (a whole GraphQL response), or the end of the subscription. */
export type SubscriptionEvent = { readonly kind: 'next'; readonly body: string } | { readonly kind: 'complete' };

export type Push = (event: SubscriptionEvent) => void;

interface Group {
  readonly request: GraphQLRequest;
  readonly members: Set<Push>;
  /** The last answer sent, and the same without its extensions (they change with every evaluation): what is compared. */
  lastBody: string | undefined;
  last: string | undefined;
  /** An evaluation is running: a commit meanwhile asks for one more after it. */
  running: boolean;
  again: boolean;
}

export class SubscriptionHub {
  readonly #groups = new Map<string, Group>();
  #scheduled = false;

  /** `evaluate` runs a subscription operation as a query (the engine's execute). */
  constructor(private readonly evaluate: (request: GraphQLRequest) => EngineResponse | Promise<EngineResponse>) {}

  /** Members across all groups. */
  get size(): number {
    let n = 0;
    for (const group of this.#groups.values()) n += group.members.size;
    return n;
  }

  /** Adds a subscriber: its first answer comes at once (from the group's last one when the group runs already). Returns its stop. */
  add(request: GraphQLRequest, push: Push): () => void {
    const key = groupKey(request);
    let group = this.#groups.get(key);
    const joined = group !== undefined;
    if (group === undefined) {
      group = { request, members: new Set(), lastBody: undefined, last: undefined, running: false, again: false };
      this.#groups.set(key, group);
    }
    group.members.add(push);
    const current = group;
    if (!joined) void this.#run(current, push);
    else if (current.lastBody !== undefined && !current.running) push({ kind: 'next', body: current.lastBody });
    else void this.#run(current, push); // the group's first answer is still being computed: compute this one's own
    return () => {
      current.members.delete(push);
      if (current.members.size === 0 && this.#groups.get(key) === current) this.#groups.delete(key);
    };
  }

  /** After a commit: every group is evaluated again on the next turn (commits meanwhile coalesce). */
  committed(): void {
    if (this.#scheduled || this.#groups.size === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      for (const group of [...this.#groups.values()]) void this.#run(group, undefined);
    });
  }

  /** Completes every subscription (the schema changed). */
  endAll(): void {
    const groups = [...this.#groups.values()];
    this.#groups.clear();
    for (const group of groups) for (const push of group.members) push({ kind: 'complete' });
  }

  /** Evaluates `group`; sends the answer to `only` (a new member), or to all members when it changed. */
  async #run(group: Group, only: Push | undefined): Promise<void> {
    if (only === undefined && group.running) {
      group.again = true;
      return;
    }
    if (only === undefined) group.running = true;
    let body: string;
    try {
      body = (await this.evaluate(group.request)).body;
    } finally {
      if (only === undefined) group.running = false;
    }
    const answer = withoutExtensions(body);
    if (only !== undefined) {
      if (group.members.has(only)) only({ kind: 'next', body });
      if (group.last === undefined) [group.last, group.lastBody] = [answer, body];
    } else if (answer !== group.last) {
      [group.last, group.lastBody] = [answer, body];
      for (const push of [...group.members]) push({ kind: 'next', body });
    }
    if (only === undefined && group.again) {
      group.again = false;
      await this.#run(group, undefined);
    }
  }
}

function groupKey(request: GraphQLRequest): string {
  const headers = Object.entries(request.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([request.query ?? '', request.operationName ?? '', request.variables ?? null, headers]);
}

/** The answer minus a trailing `"extensions"` member (the engine writes it last): what "changed" compares. */
function withoutExtensions(body: string): string {
  const at = body.lastIndexOf(',"extensions":');
  return at < 0 ? body : body.slice(0, at);
}
