// The ACL of one process: its users and groups (acl-state.ts), login, token checks (acl-tokens.ts),
// and the changes /admin makes, each computed from the current state, made durable (a log record
// holding the new state), then swapped in. Changes are serialised so none is lost to another.

import bcrypt from 'bcryptjs';
import { messages } from '../errors/messages.js';
import { hashPassword, passwordRefusal } from '../util/password-hash.js';
import { AclTokens, type AclCaller, type AclTokenOptions, type TokenCheck } from './acl-tokens.js';
import { aclPredicates, emptyAclState, GROOT, GROOT_DEFAULT_PASSWORD, GUARDIANS, type AclGroup, type AclRule, type AclState, type AclUser, WRITE } from './acl-state.js';


/**
 * A refused change, in Dgraph's words; the /admin glue adds the resolver's prefix: `rewrite` errors are
 * found while Dgraph rewrites the mutation (a taken name), `execution` ones while it runs (a short password).
 */
export class AclError extends Error {
  constructor(
    message: string,
    readonly stage: 'rewrite' | 'execution' | 'login' = 'rewrite',
  ) {
    super(message);
  }
}

/**
 * Writes the new state durably, then calls `apply`; resolves with its log record's LSN (undefined without
 * a data directory), or `stale` (nothing written): `basedOn`, the state `next` was computed from, is no
 * longer in force when its turn came (cluster mode: another node's change was applied first).
 */
export type AclCommit = (next: AclState, apply: () => void, basedOn: AclState) => Promise<number | undefined | 'stale'>;

/** Where a change tells the LSN of its log record (/admin's `extensions.lsn`). */
export interface ChangeNote {
  lsn?: number;
}

/** A cost-10 bcrypt hash no password matches in practice: what an unknown user's password is compared with. */
const unknownUserHash = '$2b$10$TRjJksBdgarLt829pMbm2OrGMBd8nuqJkRGnp5yJKYzhj.IQibx1y';

/** query.checkIfDeletingAclOperation: no change may delete an edge of groot or of guardians. */
export const reservedDeletion = 'Reserved Properties of guardians group and groot user cannot be deleted.';

/** Dgraph's x.ErrorInvalidLogin: every failed login reads the same. */
export const invalidLogin = 'invalid username or password';

export interface LoginInput {
  readonly userId?: string | null;
  readonly password?: string | null;
  readonly namespace?: number | null;
  readonly refreshToken?: string | null;
}

export class Acl {
  readonly tokens: AclTokens;
  #state: AclState = emptyAclState;
  #writes: Promise<unknown> = Promise.resolve();
  commit: AclCommit = (_next, apply) => {
    apply();
    return Promise.resolve(undefined);
  };

  /** Called after each change is in force (the engine re-evaluates live subscriptions: their reads follow group rules). */
  changed: () => void = () => undefined;

  constructor(options: AclTokenOptions) {
    this.tokens = new AclTokens(options);
  }

  get state(): AclState {
    return this.#state;
  }

  /** Restored data (snapshot, then each logged state in turn). */
  restore(state: AclState): void {
    this.#state = state;
  }

  /** Dgraph's upsertGuardian and upsertGroot at every start: whichever is missing is created. */
  ensureDefaults(): Promise<void> {
    return this.change(async (state) => {
      let next = state;
      if (findGroup(next, GUARDIANS) === undefined) next = { ...next, groups: [...next.groups, { name: GUARDIANS, rules: [] }] };
      if (findUser(next, GROOT) === undefined) {
        const passwordHash = await hashPassword(GROOT_DEFAULT_PASSWORD);
        next = { ...next, users: [...next.users, { name: GROOT, passwordHash, groups: [GUARDIANS] }] };
      }
      return next === state ? undefined : { next, result: undefined };
    });
  }

  /** `login`: user and password, or a refresh token; the groups in the access token are the user's now. */
  async login(input: LoginInput): Promise<{ accessJWT: string; refreshJWT: string }> {
    let user: AclUser | undefined;
    let namespace = 0;
    if (input.refreshToken !== undefined && input.refreshToken !== null && input.refreshToken !== '') {
      const check = await this.tokens.verify(input.refreshToken);
      if (!check.ok) throw new AclError(invalidLogin, 'login');
      namespace = check.caller.namespace;
      user = namespace === 0 ? findUser(this.#state, check.caller.userId) : undefined;
    } else {
      const { userId, password } = input;
      namespace = input.namespace ?? 0;
      if (userId === undefined || userId === null || userId === '' || password === undefined || password === null || password === '') throw new AclError(invalidLogin, 'login');
      // One namespace here: a user of any other is unknown.
      user = namespace === 0 ? findUser(this.#state, userId) : undefined;
      // An unknown user costs a bcrypt comparison too, so timing does not tell which names exist.
      const matched = await bcrypt.compare(password, user?.passwordHash ?? unknownUserHash);
      if (user === undefined || !matched) throw new AclError(invalidLogin, 'login');
    }
    if (user === undefined) throw new AclError(invalidLogin, 'login');
    const caller: AclCaller = { userId: user.name, groups: existingGroups(this.#state, user), namespace };
    return { accessJWT: await this.tokens.access(caller), refreshJWT: await this.tokens.refresh(caller) };
  }

  /** The caller of a request from its access token header value (undefined: none sent). */
  check(token: string | undefined): TokenCheck | Promise<TokenCheck> {
    return token === undefined || token === '' ? noToken : this.tokens.verify(token);
  }

  /**
   * Runs one change: `compute` sees the state after every earlier change and returns the next state
   * and its answer (undefined: nothing changes); `note` gets the LSN of its record.
   */
  change<T>(
    compute: (state: AclState) => Promise<{ next: AclState; result: T } | undefined> | { next: AclState; result: T } | undefined,
    note?: ChangeNote,
  ): Promise<T | undefined> {
    const run = this.#writes.then(async () => {
      for (;;) {
        const basedOn = this.#state;
        const outcome = await compute(basedOn);
        if (outcome === undefined) return undefined;
        const lsn = await this.commit(outcome.next, () => (this.#state = outcome.next), basedOn);
        // Another node's change came first: computed again from it (a name it took is then refused here).
        if (lsn === 'stale') continue;
        if (note !== undefined && lsn !== undefined) note.lsn = lsn;
        this.changed();
        return outcome.result;
      }
    });
    this.#writes = run.catch(() => undefined);
    return run;
  }

  /** addUser: new users (groups that do not exist are created), refused when a name is taken. */
  addUsers(inputs: readonly { name: string; password: string; groups?: readonly { name: string }[] | null }[], note?: ChangeNote): Promise<readonly string[]> {
    return this.change(async (state) => {
      refuseBadNames(inputs.map((i) => ({ name: i.name, refs: (i.groups ?? []).map((g) => g.name) })));
      let next = state;
      for (const input of inputs) {
        if (findUser(next, input.name) !== undefined) throw new AclError(messages.xidExists(input.name, 'name', 'User'));
        const groups = uniqueNames(input.groups ?? []);
        next = withGroups(next, groups);
        next = { ...next, users: [...next.users, { name: input.name, passwordHash: await encrypt(input.password), groups }] };
      }
      return { next, result: inputs.map((i) => i.name) };
    }, note).then((names) => names ?? []);
  }

  /** addGroup: new groups with their rules (a later rule for the same predicate wins, as in Dgraph). */
  addGroups(inputs: readonly { name: string; rules?: readonly AclRule[] | null }[], note?: ChangeNote): Promise<readonly string[]> {
    return this.change((state) => {
      refuseBadNames(inputs.map((i) => ({ name: i.name, refs: [] })));
      let next = state;
      for (const input of inputs) {
        if (findGroup(next, input.name) !== undefined) throw new AclError(messages.xidExists(input.name, 'name', 'Group'));
        // addGroup drops rules with an empty predicate silently (its rewriter ignores those errors).
        const rules = setRules([], (input.rules ?? []).filter((r) => r.predicate !== ''));
        next = { ...next, groups: [...next.groups, { name: input.name, rules }] };
      }
      return { next, result: inputs.map((i) => i.name) };
    }, note).then((names) => names ?? []);
  }

  /** updateUser: the users `matches` selects get a new password and/or join or leave groups. */
  updateUsers(
    matches: (user: AclUser) => boolean,
    set: { password?: string | null; groups?: readonly { name: string }[] | null } | null | undefined,
    remove: { password?: string | null; groups?: readonly { name: string }[] | null } | null | undefined,
    note?: ChangeNote,
  ): Promise<readonly string[]> {
    return this.change(async (state) => {
      refuseBadNames([...(set?.groups ?? []), ...(remove?.groups ?? [])].map((g) => ({ name: g.name, refs: [] })), false);
      const chosen = state.users.filter(matches);
      if (chosen.length === 0) return { next: state, result: [] };
      const joining = uniqueNames(set?.groups ?? []);
      const leaving = new Set(uniqueNames(remove?.groups ?? []));
      // Removing a group that exists (or the password) deletes an edge of each chosen user: groot's is refused.
      const deletes = [...leaving].some((name) => findGroup(state, name) !== undefined) || (remove?.password !== undefined && remove.password !== null);
      if (deletes && chosen.some((u) => u.name === GROOT)) throw new AclError(reservedDeletion, 'execution');
      const passwordHash = set?.password === undefined || set.password === null ? undefined : await encrypt(set.password);
      let next = withGroups(state, joining);
      const names = new Set(chosen.map((u) => u.name));
      next = {
        ...next,
        users: next.users.map((user) => {
          if (!names.has(user.name)) return user;
          const groups = uniqueNames([...user.groups, ...joining].filter((g) => !leaving.has(g)).map((name) => ({ name })));
          return { name: user.name, passwordHash: passwordHash ?? user.passwordHash, groups };
        }),
      };
      return { next, result: chosen.map((u) => u.name) };
    }, note).then((names) => names ?? []);
  }

  /** updateGroup: rules set (a new predicate is added, a known one gets the new permission) and removed by predicate. */
  updateGroups(matches: (group: AclGroup) => boolean, set: readonly AclRule[], remove: readonly string[], note?: ChangeNote): Promise<readonly string[]> {
    return this.change((state) => {
      const chosen = state.groups.filter(matches);
      const names = new Set(chosen.map((g) => g.name));
      const gone = new Set(remove);
      // Only a rule the group has is an edge to delete.
      if (chosen.some((g) => g.name === GUARDIANS && g.rules.some((r) => gone.has(r.predicate)))) throw new AclError(reservedDeletion, 'execution');
      const next = {
        ...state,
        groups: state.groups.map((group) => (names.has(group.name) ? { name: group.name, rules: setRules(group.rules, set).filter((r) => !gone.has(r.predicate)) } : group)),
      };
      return { next, result: chosen.map((g) => g.name) };
    }, note).then((names) => names ?? []);
  }

  /** deleteUser: returns how many were deleted. */
  deleteUsers(matches: (user: AclUser) => boolean, note?: ChangeNote): Promise<number> {
    return this.change((state) => {
      const users = state.users.filter((u) => !matches(u));
      if (state.users.some((u) => u.name === GROOT && matches(u))) throw new AclError(reservedDeletion, 'execution');
      return { next: { ...state, users }, result: state.users.length - users.length };
    }, note).then((n) => n ?? 0);
  }

  /** deleteGroup: the group's members leave it; returns how many were deleted. */
  deleteGroups(matches: (group: AclGroup) => boolean, note?: ChangeNote): Promise<number> {
    return this.change((state) => {
      const groups = state.groups.filter((g) => !matches(g));
      if (state.groups.some((g) => g.name === GUARDIANS && matches(g))) throw new AclError(reservedDeletion, 'execution');
      const left = new Set(groups.map((g) => g.name));
      const users = state.users.map((u) => (u.groups.every((g) => left.has(g)) ? u : { ...u, groups: u.groups.filter((g) => left.has(g)) }));
      return { next: { users, groups }, result: state.groups.length - groups.length };
    }, note).then((n) => n ?? 0);
  }
}

/** Dgraph's x.ErrNoJwt. */
export const noAccessJwt = 'no accessJwt available';
const noToken: TokenCheck = { ok: false, message: noAccessJwt };

export function findUser(state: AclState, name: string): AclUser | undefined {
  return state.users.find((u) => u.name === name);
}

export function findGroup(state: AclState, name: string): AclGroup | undefined {
  return state.groups.find((g) => g.name === name);
}

/** A user's groups that exist, in the groups' creation order (Dgraph's uid order). */
export function existingGroups(state: AclState, user: AclUser): string[] {
  const of = new Set(user.groups);
  return state.groups.filter((g) => of.has(g.name)).map((g) => g.name);
}

/** Whether any of `groups` grants `operation` on `predicate` (a `dgraph.all` rule grants it on every predicate). */
export function permits(state: AclState, groups: readonly string[], predicate: string, operation: number): boolean {
  const of = new Set(groups);
  return state.groups.some((g) => of.has(g.name) && g.rules.some((r) => (r.predicate === predicate || r.predicate === 'dgraph.all') && (r.permission & operation) !== 0));
}

/**
 * The predicates of `predicates` a non-guardian may not write (worker.AclCache.AuthorizePredicate): the
 * ACL's own always, any other unless a group grants WRITE on it. Sorted (Dgraph lists them in Go map order).
 */
export function blockedWrites(state: AclState, groups: readonly string[], predicates: Iterable<string>): string[] {
  return [...predicates].filter((p) => aclPredicates.has(p) || !permits(state, groups, p, WRITE)).sort();
}

/** Dgraph's PermissionDenied text for them (its trailing space and newline included). */
export const unauthorizedToMutate = (blocked: readonly string[]): string => `unauthorized to mutate following predicates: ${blocked.join(' ')} \n`;

/**
 * Names are dgraph.xid, an @id: Dgraph's rewriting (its existence-query walk, in input order, group
 * references before the name) refuses an empty one, and a name given twice among new nodes, before anything runs.
 */
function refuseBadNames(inputs: readonly { name: string; refs: readonly string[] }[], added = true): void {
  const seen = new Set<string>();
  for (const { name, refs } of inputs) {
    if (refs.includes('') || name === '') throw new AclError(messages.emptyXid('dgraph.xid'));
    if (added && seen.has(name)) throw new AclError(`duplicate XID found: ${name}`);
    seen.add(name);
  }
}

function uniqueNames(refs: readonly { name: string }[]): string[] {
  return [...new Set(refs.map((r) => r.name))];
}

/** The groups named that do not exist yet are created empty (addUser and updateUser link or create). */
function withGroups(state: AclState, names: readonly string[]): AclState {
  const missing = names.filter((name) => findGroup(state, name) === undefined);
  return missing.length === 0 ? state : { ...state, groups: [...state.groups, ...missing.map((name) => ({ name, rules: [] }))] };
}

/** Existing rules keep their place (and take the new permission); new predicates are appended. */
function setRules(rules: readonly AclRule[], set: readonly AclRule[]): AclRule[] {
  const out = [...rules];
  for (const rule of set) {
    const at = out.findIndex((r) => r.predicate === rule.predicate);
    if (at >= 0) out[at] = { predicate: rule.predicate, permission: rule.permission };
    else out.push({ predicate: rule.predicate, permission: rule.permission });
  }
  return out;
}

/** types.Encrypt (util/password-hash.ts), its refusal a failed execution. */
async function encrypt(password: string): Promise<string> {
  const refusal = passwordRefusal(password);
  if (refusal !== undefined) throw new AclError(refusal, 'execution');
  return hashPassword(password);
}
