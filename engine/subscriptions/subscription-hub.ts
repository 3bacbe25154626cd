// Live subscriptions: each answer pushed when a commit changed it, never on a timer (Dgraph polls every
// subscription once a second). Subscriptions with the same document, operation, variables and view (the
// headers that can change an answer: tokens) form one group: one evaluation and one answer for all.
// After a commit every group is evaluated again, once however many commits arrived meanwhile, and its
// members get the answer only when its `data`/`errors` differ from the last one sent. Only groups
// whose read types (read-types.ts) a commit wrote are evaluated again. A schema change completes
// every subscription (clients subscribe again against the new schema), as in Dgraph.

import type { EngineResponse, GraphQLRequest } from '../api.js';
import type { ReadTypes } from './read-types.js';
import { wireError, type WireError } from '../errors/wire-error.js';
import { messages } from '../errors/messages.js';

/** What a subscriber receives: an answer (a whole GraphQL response), or the end of the subscription (with errors when it failed). */
export type SubscriptionEvent =
  | { readonly kind: 'next'; readonly body: string }
  | { readonly kind: 'complete' }
  | { readonly kind: 'error'; readonly errors: readonly WireError[] };

export type Push = (event: SubscriptionEvent) => void;

interface Group {
  readonly request: GraphQLRequest;
  readonly reads: ReadTypes;
  readonly members: Set<Push>;
  /** The last answer sent, and the same without its extensions (they change with every evaluation): what is compared. */
  lastBody: string | undefined;
  last: string | undefined;
  /** An evaluation is running: a commit meanwhile asks for one more after it. */
  running: boolean;
  again: boolean;
  /** Ends the group when its token expires. */
  expiry?: NodeJS.Timeout;
}

/** setTimeout's longest delay. */
const maxDelay = 2 ** 31 - 1;

export class SubscriptionHub {
  readonly #groups = new Map<string, Group>();
  #scheduled = false;
  /** Types written by the commits since the last evaluation round ('all': a commit that did not say). */
  #pending: Set<string> | 'all' = new Set();

  /**
   * `evaluate` runs a subscription operation as a query (the engine's execute); `active` is told when
   * the first group forms and when the last one goes (commits report what they wrote only meanwhile).
   */
  constructor(
    private readonly evaluate: (request: GraphQLRequest) => EngineResponse | Promise<EngineResponse>,
    private readonly active: (on: boolean) => void = () => undefined,
  ) {}

  /** Groups: evaluations a commit that reads everything costs. */
  get groups(): number {
    return this.#groups.size;
  }

  /** Adds a subscriber: its first answer comes at once (from the group's last one when the group runs already). Returns its stop. */
  /**
   * `view`: what of the request's headers can change its answer (the engine's choice: the tokens, or
   * every header when custom logic forwards them); requests alike in document, variables and view form
   * one group. `expiresAt`: ms since the epoch when the view's token expires.
   */
  add(request: GraphQLRequest, view: string, reads: ReadTypes, push: Push, expiresAt = Infinity): () => void {
    const key = JSON.stringify([request.query ?? '', request.operationName ?? '', request.variables ?? null, view]);
    let group = this.#groups.get(key);
    const joined = group !== undefined;
    if (group === undefined) {
      group = { request, reads, members: new Set(), lastBody: undefined, last: undefined, running: false, again: false };
      this.#groups.set(key, group);
      if (this.#groups.size === 1) this.active(true);
      if (Number.isFinite(expiresAt)) {
        const ending = group;
        ending.expiry = setTimeout(() => this.#expire(key, ending), Math.min(maxDelay, Math.max(0, expiresAt - Date.now())));
        ending.expiry.unref();
      }
    }
    group.members.add(push);
    const current = group;
    if (!joined) void this.#run(current, push);
    else if (current.lastBody !== undefined && !current.running) push({ kind: 'next', body: current.lastBody });
    else void this.#run(current, push); // the group's first answer is still being computed: compute this one's own
    return () => {
      current.members.delete(push);
      if (current.members.size === 0 && this.#groups.get(key) === current) this.#remove(key, current);
    };
  }

  #remove(key: string, group: Group): void {
    clearTimeout(group.expiry);
    this.#groups.delete(key);
    if (this.#groups.size === 0) this.active(false);
  }

  /** The group's token expired: each member gets the error that ends its subscription. */
  #expire(key: string, group: Group): void {
    if (this.#groups.get(key) !== group) return;
    this.#remove(key, group);
    const errors = [wireError(messages.subscriptionTokenExpired)];
    for (const push of [...group.members]) push({ kind: 'error', errors });
  }

  /** What a commit wrote (types), before it is announced by `committed`. */
  wrote(types: ReadonlySet<string>): void {
    if (this.#pending === 'all') return;
    for (const type of types) this.#pending.add(type);
  }

  /**
   * After a commit (visible and durable): the groups reading a type written since the last round are
   * evaluated again on the next turn (commits meanwhile coalesce). `told` false: the commit did not say
   * what it wrote, so every group is.
   */
  committed(told = true): void {
    if (!told) this.#pending = 'all';
    if (this.#scheduled || this.#groups.size === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const written = this.#pending;
      this.#pending = new Set();
      for (const group of [...this.#groups.values()]) if (readsAny(group.reads, written)) void this.#run(group, undefined);
    });
  }

  /** Completes every subscription (the schema changed). */
  endAll(): void {
    const groups = [...this.#groups.values()];
    this.#groups.clear();
    for (const group of groups) clearTimeout(group.expiry);
    if (groups.length > 0) this.active(false);
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
      fanOut([...group.members], { kind: 'next', body });
    }
    if (only === undefined && group.again) {
      group.again = false;
      await this.#run(group, undefined);
    }
  }
}

/** Members sent to before the event loop gets a turn: a request arriving meanwhile waits for one slice, not for the whole fan-out. */
const fanOutSlice = 64;

function fanOut(members: readonly Push[], event: SubscriptionEvent, from = 0): void {
  const end = Math.min(members.length, from + fanOutSlice);
  for (let i = from; i < end; i++) (members[i] as Push)(event);
  if (end < members.length) setImmediate(() => fanOut(members, event, end));
}

function readsAny(reads: ReadTypes, written: ReadonlySet<string> | 'all'): boolean {
  if (reads === 'all' || written === 'all') return true;
  for (const type of reads) if (written.has(type)) return true;
  return false;
}

/** The answer minus a trailing `"extensions"` member (the engine writes it last): what "changed" compares. */
function withoutExtensions(body: string): string {
  const at = body.lastIndexOf(',"extensions":');
  return at < 0 ? body : body.slice(0, at);
}
