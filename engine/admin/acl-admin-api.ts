// The ACL's /admin operations (login, users, groups) and the token checks Dgraph's admin middlewares
// put in front of the other operations (graphql/admin/admin.go: guardians for the schema and export,
// guardians of the galaxy for config, draining and shutdown; health and state call edgraph's Health and
// State, which check guardians themselves; task and login need none).
// Non-guardians see only themselves and their own groups (edgraph's addUserFilterToQuery) and may not
// change users or groups (the ACL predicates are groot's).

import { emptyAclState, type AclGroup, type AclRule, type AclState, type AclUser } from '../acl/acl-state.js';
import { AclError, blockedWrites, existingGroups, findGroup, findUser, unauthorizedToMutate, type Acl } from '../acl/acl.js';
import { messages } from '../errors/messages.js';
import { accessToken, guardianRefusal, isGuardian, rpcError, superAdminRefusal } from '../acl/acl-gate.js';
import type { AclCaller, TokenCheck } from '../acl/acl-tokens.js';
import { AdminError } from './admin-api.js';
import type { AdminContext } from './execute-admin.js';

type Resolver = (args: never, context: never) => unknown;

const guardianFields = ['getGQLSchema', 'updateGQLSchema', 'export'];
const superAdminFields = ['config', 'draining', 'shutdown'];
/** Their resolvers (graphql/admin/health.go, state.go) wrap edgraph's error as `x.Error: <error>`. */
const edgraphGuardianFields = ['health', 'state'];
const edgraphGuardianRefusal = (result: TokenCheck): string | undefined => {
  const refused = guardianRefusal(result);
  return refused === undefined ? undefined : `Error: ${refused}`;
};

/** The admin root value with the ACL's operations and checks, for one request. */
export function withAcl(root: Record<string, unknown>, acl: Acl, headers: Readonly<Record<string, string>>): Record<string, unknown> {
  let checked: Promise<TokenCheck> | undefined;
  const check = (): Promise<TokenCheck> => (checked ??= Promise.resolve(acl.check(accessToken(headers))));
  const guarded: Record<string, unknown> = { ...root };
  for (const [fields, refusal] of [
    [guardianFields, guardianRefusal],
    [superAdminFields, superAdminRefusal],
    [edgraphGuardianFields, edgraphGuardianRefusal],
  ] as const) {
    for (const field of fields) {
      const resolve = root[field] as Resolver;
      guarded[field] = async (args: never, context: never) => {
        const refused = refusal(await check());
        if (refused !== undefined) throw new AdminError(field, refused);
        return resolve(args, context);
      };
    }
  }
  /** A user/group query's caller, or Dgraph's error for its token. */
  const reader = async (): Promise<Viewer> => {
    const result = await check();
    if (!result.ok) throw new Error(messages.failedQuery(rpcError('Unauthenticated', result.message)));
    return viewer(acl.state, result.caller);
  };
  /**
   * A user/group mutation's caller must be a guardian, or (a delete: `_STAR_ALL`) hold WRITE on every
   * predicate it writes; `predicates`: what Dgraph's mutation would write. Returns the caller: Dgraph's
   * queries choosing the nodes to change and reading the answer are filtered as its other queries.
   */
  const writer = async (mutation: string, predicates: readonly string[]): Promise<AclCaller> => {
    const result = await check();
    const failed = (reason: string): Error => new Error(messages.failedMutation(mutation, reason));
    if (!result.ok) throw failed(rpcError('Unauthenticated', result.message));
    const blocked = isGuardian(result.caller) ? [] : blockedWrites(acl.state, result.caller.groups, predicates);
    if (blocked.length === 0) return result.caller;
    throw failed(rpcError('PermissionDenied', unauthorizedToMutate(blocked)));
  };
  const changing = async <T>(mutation: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof AclError)) throw error;
      if (error.stage === 'execution') throw new Error(messages.failedMutation(mutation, error.message));
      throw new Error(`couldn't rewrite mutation ${mutation} because failed to rewrite mutation payload because ${error.message}`);
    }
  };

  return {
    ...guarded,
    login: async (args: { userId?: string | null; password?: string | null; namespace?: number | null; refreshToken?: string | null }) => {
      try {
        return { response: await acl.login(args) };
      } catch (error) {
        throw error instanceof AclError ? new AdminError('login', error.message) : error;
      }
    },
    getCurrentUser: async () => {
      const result = await check();
      if (!result.ok) throw new Error(`couldn't rewrite query getCurrentUser because ${result.message}`);
      const user = findUser(acl.state, result.caller.userId);
      return user === undefined ? null : viewer(acl.state, result.caller).user(user);
    },
    getUser: async ({ name }: { name: string }) => {
      const view = await reader();
      const user = findUser(acl.state, name);
      return user === undefined || !view.seesUser(user) ? null : view.user(user);
    },
    getGroup: async ({ name }: { name: string }) => {
      const view = await reader();
      const group = findGroup(acl.state, name);
      return group === undefined || !view.seesGroup(group) ? null : view.group(group);
    },
    queryUser: async (args: ListArgs) => {
      const view = await reader();
      return page(acl.state.users.filter((u) => view.seesUser(u) && matches(u, args.filter)), args).map((u) => view.user(u));
    },
    queryGroup: async (args: ListArgs) => {
      const view = await reader();
      return page(acl.state.groups.filter((g) => view.seesGroup(g) && matches(g, args.filter)), args).map((g) => view.group(g));
    },
    addUser: async ({ input }: { input: readonly { name: string; password: string; groups?: readonly { name: string }[] | null }[] }, context: AdminContext) => {
      const caller = await writer('addUser', ['dgraph.xid', 'dgraph.password', 'dgraph.type', ...(input.some((i) => (i.groups ?? []).length > 0) ? ['dgraph.user.group'] : [])]);
      const names = await changing('addUser', () => acl.addUsers(input, context));
      return { user: usersNamed(acl.state, names, caller) };
    },
    addGroup: async ({ input }: { input: readonly { name: string; rules?: readonly AclRule[] | null }[] }, context: AdminContext) => {
      const caller = await writer('addGroup', ['dgraph.xid', 'dgraph.type', ...(input.some((i) => (i.rules ?? []).length > 0) ? ['dgraph.acl.rule', 'dgraph.rule.predicate', 'dgraph.rule.permission'] : [])]);
      const names = await changing('addGroup', () => acl.addGroups(input, context));
      return { group: groupsNamed(acl.state, names, caller) };
    },
    updateUser: async ({ input }: { input: UpdateUserInput }, context: AdminContext) => {
      const touchesGroups = (input.set?.groups ?? []).length > 0 || (input.remove?.groups ?? []).length > 0;
      const caller = await writer('updateUser', [...(typeof input.set?.password === 'string' ? ['dgraph.password'] : []), ...(touchesGroups ? ['dgraph.user.group'] : [])]);
      const names = await changing('updateUser', () => acl.updateUsers((u) => sees(caller).seesUser(u) && matches(u, input.filter), input.set, input.remove, context));
      return { user: usersNamed(acl.state, names, caller) };
    },
    updateGroup: async ({ input }: { input: UpdateGroupInput }, context: AdminContext) => {
      const set = input.set?.rules ?? [];
      const remove = input.remove?.rules ?? [];
      const caller = await writer('updateGroup', [...(set.length > 0 ? ['dgraph.acl.rule', 'dgraph.type', 'dgraph.rule.predicate', 'dgraph.rule.permission'] : []), ...(remove.length > 0 ? ['dgraph.acl.rule', '_STAR_ALL'] : [])]);
      const problems = [...emptyPredicates(set.map((r) => r.predicate), 'set'), ...emptyPredicates(remove, 'remove')];
      if (problems.length > 0) throw new Error(`couldn't rewrite mutation updateGroup because failed to rewrite mutation payload because ${problems.join('\n')}`);
      const names = await changing('updateGroup', () => acl.updateGroups((g) => sees(caller).seesGroup(g) && matches(g, input.filter), set, remove, context));
      return { group: groupsNamed(acl.state, names, caller) };
    },
    // Dgraph's ResetPassword: a guardian of the galaxy sets any user's password (no other check), one namespace here.
    resetPassword: async ({ input }: { input: { userId: string; password: string; namespace: number } }, context: AdminContext) => {
      const refused = superAdminRefusal(await check());
      if (refused !== undefined) throw new AdminError('resetPassword', refused);
      let names: readonly string[] = [];
      if (input.namespace === 0) {
        try {
          names = await acl.updateUsers((u) => u.name === input.userId, { password: input.password }, null, context);
        } catch (error) {
          if (!(error instanceof AclError)) throw error;
          throw new AdminError('resetPassword', `Reset password for user ${input.userId} in namespace ${input.namespace}, got error:: ${error.message}`);
        }
      }
      if (names.length === 0) throw new AdminError('resetPassword', "Failed to reset password, user doesn't exist");
      return { userId: input.userId, message: 'Reset password is successful', namespace: input.namespace };
    },
    // Dgraph's multi-tenancy: one namespace here, so addNamespace always fails (in the wrapping of
    // CreateNamespaceInternal) and deleteNamespace gets Dgraph's own refusals for 0 and for a missing one.
    addNamespace: async () => {
      const refused = superAdminRefusal(await check());
      throw new AdminError('addNamespace', refused ?? 'Creating namespace, got error:: this service has one namespace, 0');
    },
    deleteNamespace: async ({ input }: { input: { namespaceId: number } }) => {
      const refused = superAdminRefusal(await check());
      const missing = input.namespaceId === 0 ? 'Cannot delete default namespace' : `error deleting non-existing namespace 0x${input.namespaceId.toString(16)}`;
      throw new AdminError('deleteNamespace', refused ?? missing);
    },
    deleteUser: async ({ filter }: { filter: NameFilter }, context: AdminContext) => {
      const view = sees(await writer('deleteUser', ['_STAR_ALL']));
      return { msg: 'Deleted', numUids: await changing('deleteUser', () => acl.deleteUsers((u) => view.seesUser(u) && matches(u, filter), context)) };
    },
    deleteGroup: async ({ filter }: { filter: NameFilter }, context: AdminContext) => {
      const view = sees(await writer('deleteGroup', ['_STAR_ALL']));
      return { msg: 'Deleted', numUids: await changing('deleteGroup', () => acl.deleteGroups((g) => view.seesGroup(g) && matches(g, filter), context)) };
    },
  };
}

interface NameFilter {
  readonly name?: { readonly eq?: string | null } | null;
  readonly and?: NameFilter | null;
  readonly or?: NameFilter | null;
  readonly not?: NameFilter | null;
}

interface NameOrder {
  readonly asc?: 'name' | null;
  readonly desc?: 'name' | null;
}

interface ListArgs {
  readonly filter?: NameFilter | null;
  readonly order?: NameOrder | null;
  readonly first?: number | null;
  readonly offset?: number | null;
}

interface UpdateUserInput {
  readonly filter: NameFilter;
  readonly set?: { readonly password?: string | null; readonly groups?: readonly { name: string }[] | null } | null;
  readonly remove?: { readonly password?: string | null; readonly groups?: readonly { name: string }[] | null } | null;
}

interface UpdateGroupInput {
  readonly filter: NameFilter;
  readonly set?: { readonly rules: readonly AclRule[] } | null;
  readonly remove?: { readonly rules: readonly string[] } | null;
}

/** `eq` on the name, and/or/not combined as Dgraph's filters (a filter with nothing set matches all). */
function matches(item: { readonly name: string }, filter: NameFilter | null | undefined): boolean {
  if (filter === undefined || filter === null) return true;
  // `{…, or: f}` is (the rest) OR f, as Dgraph's filter rewriting reads it.
  if (filter.or !== undefined && filter.or !== null) {
    const { or, ...rest } = filter;
    return matches(item, rest) || matches(item, or);
  }
  if (filter.name?.eq !== undefined && filter.name.eq !== null && item.name !== filter.name.eq) return false;
  if (filter.and !== undefined && filter.and !== null && !matches(item, filter.and)) return false;
  if (filter.not !== undefined && filter.not !== null && matches(item, filter.not)) return false;
  return true;
}

/** Creation order (Dgraph's uid order) unless ordered by name; then offset and first. */
function page<T extends { readonly name: string }>(items: T[], args: ListArgs): T[] {
  const order = args.order;
  const sorted = order?.asc === 'name' ? [...items].sort((a, b) => compare(a.name, b.name)) : order?.desc === 'name' ? [...items].sort((a, b) => compare(b.name, a.name)) : items;
  const offset = Math.max(0, args.offset ?? 0);
  return args.first === undefined || args.first === null ? sorted.slice(offset) : sorted.slice(offset, offset + Math.max(0, args.first));
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function emptyPredicates(predicates: readonly string[], patch: 'set' | 'remove'): string[] {
  const errors = predicates.flatMap((p, i) => (p === '' ? [`at index ${i}: predicate value can't be empty string`] : []));
  return errors.length === 0 ? [] : [`failed to rewrite ${patch} payload because ${errors.join('\n')}`];
}

/** What a caller may see of users and groups, as answer objects (graphql-js calls the functions). */
interface Viewer {
  seesUser(user: AclUser): boolean;
  seesGroup(group: AclGroup): boolean;
  user(user: AclUser): Record<string, unknown>;
  group(group: AclGroup): Record<string, unknown>;
}

function viewer(state: AclState, caller: AclCaller | undefined): Viewer {
  const all = caller === undefined || isGuardian(caller);
  const own = new Set(caller?.groups ?? []);
  const view: Viewer = {
    seesUser: (user) => all || user.name === caller?.userId,
    seesGroup: (group) => all || own.has(group.name),
    user: (user) => ({
      name: user.name,
      groups: () => existingGroups(state, user).flatMap((name) => {
        const group = findGroup(state, name);
        return group !== undefined && view.seesGroup(group) ? [view.group(group)] : [];
      }),
    }),
    group: (group) => ({
      name: group.name,
      users: () => state.users.filter((u) => u.groups.includes(group.name) && view.seesUser(u)).map((u) => view.user(u)),
      rules: group.rules,
    }),
  };
  return view;
}

/** Whom a caller sees (it does not depend on the state). */
const sees = (caller: AclCaller): Pick<Viewer, 'seesUser' | 'seesGroup'> => viewer(emptyAclState, caller);

/** The answer of a change: the users or groups it touched, as the caller sees them. */
function usersNamed(state: AclState, names: readonly string[], caller: AclCaller): Record<string, unknown>[] {
  const view = viewer(state, caller);
  return names.flatMap((name) => {
    const user = findUser(state, name);
    return user === undefined ? [] : [view.user(user)];
  });
}

function groupsNamed(state: AclState, names: readonly string[], caller: AclCaller): Record<string, unknown>[] {
  const view = viewer(state, caller);
  return names.flatMap((name) => {
    const group = findGroup(state, name);
    return group === undefined ? [] : [view.group(group)];
  });
}
