import { hash, verify } from '@node-rs/argon2';
import { z } from 'zod';
import { authError } from './errors.js';

// @node-rs/argon2 defaults to argon2id (m=19 MiB, t=2, p=1), the OWASP baseline.

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the same work as a real check, so an unknown address answers in the same time as a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hash('frametext-dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
}

/** Weak-password rule: at least 8 characters, and not made only of letters or only of digits. */
export function assertStrongPassword(password: string): void {
  const onlyLetters = /^\p{L}+$/u.test(password);
  const onlyDigits = /^\p{Nd}+$/u.test(password);
  if ([...password].length < 8 || onlyLetters || onlyDigits) throw authError('auth/weak-password');
}

// The same check as the user.created.v1 contract, so an accepted address always fits the event.
const emailSchema = z.email().max(320);

/** Trims and lowercases an address, or throws auth/invalid-email. */
export function normalizeEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!emailSchema.safeParse(normalized).success) throw authError('auth/invalid-email');
  return normalized;
}
