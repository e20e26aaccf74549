import { createHash } from 'node:crypto';
import type { Knex } from '@frametext/service-kit';
import type { IdentityContext } from './context.js';
import { authError } from './errors.js';
import { deleteCounters, hitCounter } from '../data/rate-limits.js';
import { addPairFailure, clearPairFailures, forgetLoginAttempts, isKnownAddress, pairFailures, rememberAddress } from '../data/login-attempts.js';
import type { User } from '../data/users.js';

/** Counts one auth request from an address (client IP as the gateway forwarded it); 429 past the per-minute limit. */
export async function countIpRequest(ctx: IdentityContext, ip: string): Promise<void> {
  const count = await hitCounter(ctx.db, `ip:${ip}`, 60, 1);
  if (count > ctx.config.RATE_LIMIT_IP_PER_MINUTE) throw authError('auth/too-many-requests', undefined, { retryAfterSeconds: 60 });
}

const loginWindowSeconds = (ctx: IdentityContext) => ctx.config.RATE_LIMIT_LOGIN_WINDOW_MINUTES * 60;
const accountBucket = (email: string) => `login-fail:${email}`;
const resetBucket = (email: string) => `reset:${email}`;
const confirmationBucket = (email: string) => `confirm:${email}`;
const addressHash = (address: string) => createHash('sha256').update(address).digest('hex');

/**
 * Seconds an address must wait before its next try on an account, after `failures` failed tries in a row:
 * none for the first LOGIN_FREE_FAILURES, then 1 s, doubling each time, up to LOGIN_MAX_WAIT_SECONDS.
 */
export function loginWaitSeconds(failures: number, free: number, maxWait: number): number {
  if (failures < free) return 0;
  return Math.min(maxWait, 2 ** (failures - free));
}

/**
 * Refuses a log-in, before any password is checked, when this address has failed on this account too often
 * lately (it waits longer after each failure), or when the account is under attack from many addresses and
 * this one has never signed in to it before. The owner, from an address they have used, is never locked out by
 * what others do.
 */
export async function assertLoginAllowed(ctx: IdentityContext, email: string, address: string, user: User | undefined): Promise<void> {
  const pair = await pairFailures(ctx.db, email, address);
  if (pair) {
    const wait = loginWaitSeconds(pair.failures, ctx.config.LOGIN_FREE_FAILURES, ctx.config.LOGIN_MAX_WAIT_SECONDS);
    const waited = (Date.now() - pair.lastFailureAt.getTime()) / 1000;
    if (waited < wait) throw authError('auth/too-many-requests', undefined, { retryAfterSeconds: Math.ceil(wait - waited) });
  }
  if (user && (await isKnownAddress(ctx.db, user.uid, addressHash(address)))) return;
  const accountFailures = await hitCounter(ctx.db, accountBucket(email), loginWindowSeconds(ctx), 0);
  if (accountFailures >= ctx.config.RATE_LIMIT_LOGIN_FAILURES) {
    throw authError('auth/too-many-requests', undefined, { retryAfterSeconds: loginWindowSeconds(ctx) });
  }
}

export async function countLoginFailure(ctx: IdentityContext, email: string, address: string): Promise<void> {
  await addPairFailure(ctx.db, email, address);
  await hitCounter(ctx.db, accountBucket(email), loginWindowSeconds(ctx), 1);
}

/** A good password from this address: its failures are forgiven and it becomes one of the account's known addresses. */
export async function countLoginSuccess(ctx: IdentityContext, user: User, address: string): Promise<void> {
  await clearPairFailures(ctx.db, user.email, address);
  await rememberAddress(ctx.db, user.uid, addressHash(address));
}

/** Bounds reset e-mails per address, so nobody can flood someone's inbox. */
export async function countResetRequest(ctx: IdentityContext, email: string): Promise<void> {
  const count = await hitCounter(ctx.db, resetBucket(email), 3600, 1);
  if (count > ctx.config.RATE_LIMIT_RESET_PER_HOUR) throw authError('auth/too-many-requests', undefined, { retryAfterSeconds: 3600 });
}

/** Bounds confirmation e-mails sent again per address, so the resend button cannot flood an inbox. */
export async function countConfirmationRequest(ctx: IdentityContext, email: string): Promise<void> {
  const count = await hitCounter(ctx.db, confirmationBucket(email), 3600, 1);
  if (count > ctx.config.RATE_LIMIT_CONFIRMATION_PER_HOUR) {
    throw authError('auth/too-many-requests', 'You asked for several confirmation e-mails already. Please check your inbox and spam folder, or try again in an hour.', { retryAfterSeconds: 3600 });
  }
}

/**
 * Account deletion: everything the limits kept about the account goes (its failed log-ins and its counters, keyed by
 * its e-mail; the hashes of the addresses it signed in from). Per-IP counters name no account and stay.
 */
export async function forgetAccountLimits(trx: Knex.Transaction, user: Pick<User, 'uid' | 'email'>): Promise<void> {
  await forgetLoginAttempts(trx, user.uid, user.email);
  await deleteCounters(trx, [accountBucket(user.email), resetBucket(user.email), confirmationBucket(user.email)]);
}
