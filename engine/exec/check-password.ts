// check<T>Password and the @secret field: passwords are stored as bcrypt hashes under the secret's
// predicate and never read back as a field; checking compares against the hash.

import bcrypt from 'bcryptjs';
import type { TypeModel } from '../schema/model.js';
import { FieldError, type ExecContext } from './exec-context.js';
import { messages } from '../errors/messages.js';

const cost = 10; // bcrypt.DefaultCost in Go, as Dgraph uses

/** Stores the hash of `password` for node `id` (Dgraph rejects passwords shorter than 6 characters). */
export function setPassword(ctx: ExecContext, type: TypeModel, id: number, password: unknown): void {
  const secret = type.secret;
  if (secret === undefined) return;
  const text = String(password);
  if (text.length < 6) throw new FieldError(messages.passwordTooShort);
  ctx.graph.store.scalar(secret.predicate).set(id, bcrypt.hashSync(text, cost));
}

export function passwordMatches(ctx: ExecContext, type: TypeModel, id: number, password: unknown): boolean {
  const secret = type.secret;
  if (secret === undefined) return false;
  const hash = ctx.graph.store.scalar(secret.predicate).get(id);
  return typeof hash === 'string' && bcrypt.compareSync(String(password), hash);
}
