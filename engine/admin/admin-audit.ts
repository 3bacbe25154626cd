// Admin actions in the log: each /admin operation that changes something, once it succeeded, is one
// info record `admin action` with the operation, who did it (`by`: the ACL user, else the process's
// admin key or `anonymous`) and what it names. Never a password, a key or a token: only that a
// password was set.

import type { EngineLogger } from '../api.js';

type Resolver = (args: never, ...rest: unknown[]) => unknown;
type Details = Record<string, string | number | boolean>;
/** Undefined: not an action (`config` read as a query). */
type Describe = (args: never, result: never) => Details | undefined;

const names = (items: readonly { readonly name: string }[] | undefined): string => (items ?? []).map((item) => item.name).join(',');
const filterName = (filter: { name?: { eq?: string | null } | null } | undefined): Details => (typeof filter?.name?.eq === 'string' ? { name: filter.name.eq } : {});

/** What each audited operation logs beside its name (from its arguments and its answer). */
const audited: Readonly<Record<string, Describe>> = {
  updateGQLSchema: () => ({}),
  export: (_args, result: { taskId: string }) => ({ taskId: result.taskId }),
  draining: ({ enable }: { enable?: boolean | null }) => ({ enable: enable === true }),
  shutdown: () => ({}),
  config: ({ input }: { input?: { logLevel?: string | null } }) => (input === undefined ? undefined : typeof input.logLevel === 'string' ? { logLevel: input.logLevel } : {}),
  addUser: ({ input }: { input: readonly { name: string }[] }) => ({ users: names(input) }),
  addGroup: ({ input }: { input: readonly { name: string }[] }) => ({ groups: names(input) }),
  updateUser: ({ input }: { input: { filter?: { name?: { eq?: string | null } | null }; set?: { password?: string | null } | null } }, result: { user?: readonly { name: string }[] }) => ({
    users: names(result.user),
    ...(typeof input.set?.password === 'string' ? { passwordChanged: true } : {}),
  }),
  updateGroup: (_args, result: { group?: readonly { name: string }[] }) => ({ groups: names(result.group) }),
  resetPassword: ({ input }: { input: { userId: string } }) => ({ users: input.userId, passwordChanged: true }),
  deleteUser: ({ filter }: { filter?: { name?: { eq?: string | null } | null } }, result: { numUids: number }) => ({ ...filterName(filter), numUids: result.numUids }),
  deleteGroup: ({ filter }: { filter?: { name?: { eq?: string | null } | null } }, result: { numUids: number }) => ({ ...filterName(filter), numUids: result.numUids }),
};

/** The root value with every audited operation logged once it succeeded; `by` names the caller (asked only then). */
export function withAudit(root: Record<string, unknown>, log: EngineLogger, by: () => Promise<string>): Record<string, unknown> {
  const logged: Record<string, unknown> = { ...root };
  for (const [action, details] of Object.entries(audited)) {
    const resolve = root[action] as Resolver | undefined;
    if (resolve === undefined) continue;
    // graphql-js's root resolvers get (args, context, info): the context carries extensions.lsn.
    logged[action] = async (args: never, ...rest: unknown[]) => {
      const result = (await resolve(args, ...rest)) as never;
      const described = details(args, result);
      // The action is done: naming its caller must not turn its answer into an error.
      if (described !== undefined) log.info('admin action', { action, by: await by().catch(() => 'unknown'), ...described });
      return result;
    };
  }
  return logged;
}
