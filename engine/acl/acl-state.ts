// The ACL's durable data: users (bcrypt hash, group names) and groups (predicate rules), in creation
// order (Dgraph lists them in uid order). Plain data, so the log and snapshots store it as it is.

export interface AclUser {
  readonly name: string;
  readonly passwordHash: string;
  readonly groups: readonly string[];
}

export interface AclRule {
  readonly predicate: string;
  /** READ 4 | WRITE 2 | MODIFY 1, as Dgraph's (UNIX file modes). */
  readonly permission: number;
}

export interface AclGroup {
  readonly name: string;
  readonly rules: readonly AclRule[];
}

export interface AclState {
  readonly users: readonly AclUser[];
  readonly groups: readonly AclGroup[];
}

export const READ = 4;
export const WRITE = 2;
export const MODIFY = 1;

export const GROOT = 'groot';
export const GUARDIANS = 'guardians';
/** Groot's password at first start, as in Dgraph (to be changed with updateUser). */
export const GROOT_DEFAULT_PASSWORD = 'password';

/** Dgraph's x.IsAclPredicate list: only guardians read or write these. */
export const aclPredicates: ReadonlySet<string> = new Set(['dgraph.xid', 'dgraph.password', 'dgraph.user.group', 'dgraph.rule.predicate', 'dgraph.rule.permission', 'dgraph.acl.rule']);

export const emptyAclState: AclState = { users: [], groups: [] };

/** The shape check of restored data (the log and snapshot decoders accept nothing else). */
export function isAclState(value: unknown): value is AclState {
  if (value === null || typeof value !== 'object') return false;
  const { users, groups } = value as { users?: unknown; groups?: unknown };
  const strings = (v: unknown): boolean => Array.isArray(v) && v.every((s) => typeof s === 'string');
  const user = (u: unknown): boolean => {
    const { name, passwordHash, groups: of } = (u ?? {}) as Record<string, unknown>;
    return typeof name === 'string' && typeof passwordHash === 'string' && strings(of);
  };
  const rule = (r: unknown): boolean => {
    const { predicate, permission } = (r ?? {}) as Record<string, unknown>;
    return typeof predicate === 'string' && typeof permission === 'number';
  };
  const group = (g: unknown): boolean => {
    const { name, rules } = (g ?? {}) as Record<string, unknown>;
    return typeof name === 'string' && Array.isArray(rules) && rules.every(rule);
  };
  return Array.isArray(users) && users.every(user) && Array.isArray(groups) && groups.every(group);
}
