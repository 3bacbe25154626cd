// check<T>Password and the @secret field: passwords are stored as bcrypt hashes under the secret's
// predicate and never read back as a field; checking compares against the hash.

import bcrypt from 'bcryptjs';
import type { TypeModel } from '../schema/model.js';
import { ExecutionError, type ExecContext } from './exec-context.js';
import { hashPasswordSync, passwordRefusal } from '../util/password-hash.js';

/**
 * Stores the hash of `password` for node `id`. The `password` rules play no part (Dgraph applies them
 * to check<T>Password only); a password types.Encrypt refuses fails the mutation's execution.
 */
export function setPassword(ctx: ExecContext, type: TypeModel, id: number, password: unknown): void {
  const secret = type.secret;
  if (secret === undefined) return;
  const text = String(password);
  const refusal = passwordRefusal(text);
  if (refusal !== undefined) throw new ExecutionError(refusal);
  ctx.graph.store.scalar(secret.predicate).set(id, hashPasswordSync(text));
}

export function passwordMatches(ctx: ExecContext, type: TypeModel, id: number, password: unknown): boolean {
  const secret = type.secret;
  if (secret === undefined) return false;
  const hash = ctx.graph.store.scalar(secret.predicate).get(id);
  return typeof hash === 'string' && bcrypt.compareSync(String(password), hash);
}
