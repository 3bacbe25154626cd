// Live subscriptions: each answer pushed when a commit changed it, never on a timer (Dgraph polls every
// subscription once a second). Subscriptions with the same document, operation, variables and view (the
// headers that can change an answer: tokens) form one group: one evaluation and one answer for all.
// After a commit a group is evaluated again, once however many commits arrived meanwhile, and its
// members get the answer only when its `data`/`errors` differ from the last one sent. Only groups
// reading a predicate or type a commit wrote (reads.ts) are evaluated again: groups are indexed by
// what they read, so a commit costs the groups it concerns, not all of them. A schema change
// completes every subscription (clients subscribe again against the new schema), as in Dgraph.

import type { EngineResponse, GraphQLRequest } from '../api.js';
import type { Touched } from '../store/graph-store.js';
import { readsTouched, type SubscriptionReads } from './reads.js';
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
  readonly reads: SubscriptionReads;
  readonly members: Set<Push>;
  /** The last answer sent, and the same without its extensions (they change with every evaluation): what is compared. */
  lastBody: string | undefined;
  last: string | undefined;
  /** An evaluation is running: a commit meanwhile asks for one more after it (`again`: that commit's round's time). */
  running: boolean;
  again: number | undefined;
  /** Ends the group when its token expires. */
  expiry?: NodeJS.Timeout;
}

/** What commits wrote since the last round ('all': a commit that did not say). */
type Written = { readonly predicates: Set<string>; readonly types: Set<string> } | 'all';

export interface SubscriptionFigures {
  readonly groups: number;
  /** Runs of a group's operation: first answers, and again after commits that concern it. */
  readonly evaluations: number;
  /** Changed answers handed to subscribers after commits. */
  readonly answers: number;
  /** The most recent fan-outs (at most `fanOutsKept`): ms from a commit to its changed answer handed to the group's last subscriber. */
  readonly fanOutMs: readonly number[];
}

interface FanOut {
  readonly members: readonly Push[];
  readonly event: SubscriptionEvent;
  /** The next member to send to. */
  next: number;
  readonly roundAt: number;
}

/**
 * Members sent to per pending fan-out before the event loop gets a turn: a request arriving meanwhile
 * waits for one slice, not for whole fan-outs (one send costs ~5-7 µs of CPU, most of it the kernel's).
 * Per pending fan-out: as a backlog grows, so does the sending between requests, which slows writers
 * down rather than letting fan-outs fall ever further behind (a slice of fixed time or count starved
 * them on a busy core: fan-out p99 4.3 s against 0.6 s).
 */
const fanOutSlice = 64;

/** setTimeout's longest delay. */
const maxDelay = 2 ** 31 - 1;
const fanOutsKept = 1024;

export class SubscriptionHub {
  readonly #groups = new Map<string, Group>();
  /** Groups by what they read (reads.ts): a round looks up the groups a commit concerns. */
  readonly #byPredicate = new Map<string, Set<Group>>();
  readonly #byType = new Map<string, Set<Group>>();
  /** Groups reading any-language fields (prefixes), and groups reading everything. */
  readonly #byPrefix = new Set<Group>();
  readonly #readsAll = new Set<Group>();
  #scheduled = false;
  #pending: Written = { predicates: new Set(), types: new Set() };
  /** performance.now() of the first commit since the last round. */
  #roundAt = 0;
  #evaluations = 0;
  #answers = 0;
  readonly #fanOutMs = new Float64Array(fanOutsKept);
  #fanOuts = 0;
  /** Changed answers being handed to members, oldest first: one sender finishes a commit's fan-out before the next one's. */
  readonly #sending: FanOut[] = [];

  /**
   * `evaluate` runs a subscription operation as a query (the engine's execute); `active` is told when
   * the first group forms and when the last one goes (commits report what they wrote only meanwhile).
   */
  constructor(
    private readonly evaluate: (request: GraphQLRequest) => EngineResponse | Promise<EngineResponse>,
    private readonly active: (on: boolean) => void = () => undefined,
  ) {}

  get figures(): SubscriptionFigures {
    const kept = Math.min(this.#fanOuts, fanOutsKept);
    return { groups: this.#groups.size, evaluations: this.#evaluations, answers: this.#answers, fanOutMs: [...this.#fanOutMs.subarray(0, kept)] };
  }

  /** Adds a subscriber: its first answer comes at once (from the group's last one when the group runs already). Returns its stop. */
  /**
   * `view`: what of the request's headers can change its answer (the engine's choice: the tokens, or
   * every header when custom logic forwards them); requests alike in document, variables and view form
   * one group. `reads`: what the request reads, asked only when it forms a new group. `expiresAt`: ms
   * since the epoch when the view's token expires.
   */
  add(request: GraphQLRequest, view: string, reads: SubscriptionReads | (() => SubscriptionReads), push: Push, expiresAt = Infinity): () => void {
    const key = JSON.stringify([request.query ?? '', request.operationName ?? '', request.variables ?? null, view]);
    let group = this.#groups.get(key);
    const joined = group !== undefined;
    if (group === undefined) {
      group = { request, reads: typeof reads === 'function' ? reads() : reads, members: new Set(), lastBody: undefined, last: undefined, running: false, again: undefined };
      this.#groups.set(key, group);
      this.#index(group, true);
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

  #index(group: Group, add: boolean): void {
    const { reads } = group;
    if (reads === 'all') {
      if (add) this.#readsAll.add(group);
      else this.#readsAll.delete(group);
      return;
    }
    const file = (map: Map<string, Set<Group>>, name: string): void => {
      let groups = map.get(name);
      if (add) map.set(name, (groups ??= new Set()).add(group));
      else if (groups !== undefined && groups.delete(group) && groups.size === 0) map.delete(name);
    };
    for (const predicate of reads.predicates) file(this.#byPredicate, predicate);
    for (const type of reads.types) file(this.#byType, type);
    if (reads.prefixes.length > 0) {
      if (add) this.#byPrefix.add(group);
      else this.#byPrefix.delete(group);
    }
  }

  #remove(key: string, group: Group): void {
    clearTimeout(group.expiry);
    this.#groups.delete(key);
    this.#index(group, false);
    if (this.#groups.size === 0) this.active(false);
  }

  /** The group's token expired: each member gets the error that ends its subscription. */
  #expire(key: string, group: Group): void {
    if (this.#groups.get(key) !== group) return;
    this.#remove(key, group);
    const errors = [wireError(messages.subscriptionTokenExpired)];
    for (const push of [...group.members]) push({ kind: 'error', errors });
  }

  /** What a commit wrote (store/ `onCommit`), before it is announced by `committed`. */
  wrote(touched: Touched): void {
    if (this.#pending === 'all') return;
    for (const predicate of touched.predicates) this.#pending.predicates.add(predicate);
    for (const type of touched.types) this.#pending.types.add(type);
  }

  /**
   * After a commit (visible and durable): the groups reading a predicate or type written since the last
   * round are evaluated again on the next turn (commits meanwhile coalesce). `told` false: the commit
   * did not say what it wrote, so every group is.
   */
  committed(told = true): void {
    if (!told) this.#pending = 'all';
    if (this.#scheduled) return;
    if (this.#groups.size === 0) {
      this.#pending = { predicates: new Set(), types: new Set() };
      return;
    }
    this.#scheduled = true;
    this.#roundAt = performance.now();
    setImmediate(() => {
      this.#scheduled = false;
      const written = this.#pending;
      this.#pending = { predicates: new Set(), types: new Set() };
      for (const group of this.#concerned(written)) void this.#run(group, undefined, this.#roundAt);
    });
  }

  /** The groups whose answer what was written can change: looked up by predicate and type, not by scanning every group. */
  #concerned(written: Written): Iterable<Group> {
    if (written === 'all') return [...this.#groups.values()];
    const out = new Set(this.#readsAll);
    const collect = (map: Map<string, Set<Group>>, names: Set<string>): void => {
      for (const name of names) for (const group of map.get(name) ?? []) out.add(group);
    };
    collect(this.#byPredicate, written.predicates);
    collect(this.#byType, written.types);
    for (const group of this.#byPrefix) if (!out.has(group) && readsTouched(group.reads, written)) out.add(group);
    return out;
  }

  /** Completes every subscription (the schema changed). */
  endAll(): void {
    const groups = [...this.#groups.values()];
    this.#groups.clear();
    this.#byPredicate.clear();
    this.#byType.clear();
    this.#byPrefix.clear();
    this.#readsAll.clear();
    for (const group of groups) clearTimeout(group.expiry);
    if (groups.length > 0) this.active(false);
    for (const group of groups) for (const push of group.members) push({ kind: 'complete' });
  }

  /**
   * Evaluates `group`; sends the answer to `only` (a new member), or to all members when it changed.
   * `roundAt`: when the commit that asked for it was announced (performance.now()).
   */
  async #run(group: Group, only: Push | undefined, roundAt = 0): Promise<void> {
    if (only === undefined && group.running) {
      group.again ??= roundAt;
      return;
    }
    if (only === undefined) group.running = true;
    let body: string;
    this.#evaluations++;
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
      const members = [...group.members];
      this.#answers += members.length;
      this.#sending.push({ members, event: { kind: 'next', body }, next: 0, roundAt });
      if (this.#sending.length === 1) this.#send();
    }
    if (only === undefined && group.again !== undefined) {
      const again = group.again;
      group.again = undefined;
      await this.#run(group, undefined, again);
    }
  }

  /** Works through the queued fan-outs oldest first (each commit's answers out before the next one's), a slice per turn. */
  #send(): void {
    let budget = fanOutSlice * this.#sending.length;
    for (let job = this.#sending[0]; job !== undefined; job = this.#sending[0]) {
      const { members, event } = job;
      while (job.next < members.length) {
        if (budget-- === 0) {
          setImmediate(() => this.#send());
          return;
        }
        (members[job.next++] as Push)(event);
      }
      this.#sending.shift();
      this.#fanOutMs[this.#fanOuts++ % fanOutsKept] = performance.now() - job.roundAt;
    }
  }
}

/** The answer minus a trailing `"extensions"` member (the engine writes it last): what "changed" compares. */
function withoutExtensions(body: string): string {
  const at = body.lastIndexOf(',"extensions":');
  return at < 0 ? body : body.slice(0, at);
}
