import { randomUUID } from 'node:crypto';
import type { AuthSession } from '@frametext/contracts';
import { enqueueEvent } from '@frametext/service-kit';
import type { IdentityContext } from './context.js';
import { confirmAddress, queueConfirmationMail } from './email-confirmation.js';
import { authError } from './errors.js';
import { kickMailDelivery } from './mail-delivery.js';
import { assertStrongPassword, burnPasswordCheck, hashPassword, normalizeEmail, verifyPassword } from './passwords.js';
import { assertLoginAllowed, countLoginFailure, countLoginSuccess } from './rate-limits.js';
import { startSession } from './sessions.js';
import { findUserByEmail, insertUser, recordLogin, type User } from '../data/users.js';

/**
 * Creates a user with the user.created.v1 event in the same transaction, so the event exists if and only if the user
 * does. An account made by a Google sign-in has its address proven (Google verified it): confirmed at once, with
 * user.email-confirmed.v1. Any other gets the confirmation mail, queued in the same transaction.
 */
export async function createUser(ctx: IdentityContext, fields: { email: string; passwordHash: string | null; googleSub?: string | null }): Promise<User | undefined> {
  const emailProven = Boolean(fields.googleSub);
  const created = await ctx.db.transaction(async (trx) => {
    const user = await insertUser(trx, { uid: randomUUID(), ...fields });
    if (!user) return undefined;
    await enqueueEvent(trx, 'user.created.v1', { uid: user.uid, email: user.email, createdAt: user.createdAt.toISOString() });
    if (emailProven) await confirmAddress(trx, user.uid);
    else await queueConfirmationMail(trx, ctx, user);
    return user;
  });
  if (created && !emailProven) kickMailDelivery(ctx);
  return created;
}

export async function signUp(ctx: IdentityContext, input: { email: string; password: string }): Promise<AuthSession> {
  const email = normalizeEmail(input.email);
  assertStrongPassword(input.password);
  if (await findUserByEmail(ctx.db, email)) throw authError('auth/email-already-in-use');
  const user = await createUser(ctx, { email, passwordHash: await hashPassword(input.password) });
  // Lost a race with a concurrent sign-up of the same address.
  if (!user) throw authError('auth/email-already-in-use');
  // Signing up signs in: the first visit is this one, so a later log-in is not a first log-in.
  return completeLogin(ctx, user);
}

/**
 * Unknown address, Google-only account and wrong password all answer auth/invalid-credential after the
 * same argon2 work. A disabled account is revealed only to someone who knows its password. `address` is the
 * client's IP: failures slow that address down on that account (see rate-limits.ts).
 */
export async function logIn(ctx: IdentityContext, input: { email: string; password: string }, address: string): Promise<AuthSession> {
  const email = normalizeEmail(input.email);
  const user = await findUserByEmail(ctx.db, email);
  await assertLoginAllowed(ctx, email, address, user);
  const valid = user?.passwordHash ? await verifyPassword(user.passwordHash, input.password) : (await burnPasswordCheck(input.password), false);
  if (!user || !valid) {
    await countLoginFailure(ctx, email, address);
    throw authError('auth/invalid-credential');
  }
  if (user.disabled) throw authError('auth/user-disabled');
  await countLoginSuccess(ctx, user, address);
  return completeLogin(ctx, user);
}

/** firstLogin: true only for the account's first sign-in (its sign-up, or a Google sign-in that created it). */
export async function completeLogin(ctx: IdentityContext, user: Pick<User, 'uid' | 'email'>): Promise<AuthSession> {
  const previousLogin = await recordLogin(ctx.db, user.uid);
  const tokens = await startSession(ctx, user);
  return { ...tokens, user: { uid: user.uid, email: user.email, firstLogin: previousLogin === null } };
}
