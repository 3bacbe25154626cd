// Dgraph's types.Encrypt, the one conversion of a value into a `password` predicate (a `@secret` field,
// an ACL user's password): lengths in UTF-8 bytes as Go's len, bcrypt at Go's DefaultCost, and Go's
// bcrypt refusing more than 72 bytes where bcryptjs would ignore the tail.

import bcrypt from 'bcryptjs';

/** bcrypt.DefaultCost in Go, as Dgraph hashes passwords. */
export const bcryptCost = 10;

const minBytes = 6;
const maxBytes = 72;

/** Dgraph's error for a password it will not store, or undefined. */
export function passwordRefusal(password: string): string | undefined {
  const bytes = Buffer.byteLength(password, 'utf8');
  if (bytes < minBytes) return 'Password too short, i.e. should have at least 6 chars';
  if (bytes > maxBytes) return 'bcrypt: password length exceeds 72 bytes';
  return undefined;
}

/** The bcrypt hash of a password `passwordRefusal` accepted. */
export const hashPasswordSync = (password: string): string => bcrypt.hashSync(password, bcryptCost);
export const hashPassword = (password: string): Promise<string> => bcrypt.hash(password, bcryptCost);
