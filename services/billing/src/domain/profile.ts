import { subscriptionTier, type Profile } from '@frametext/contracts';
import type { Knex } from '@frametext/service-kit';
import { findAccount } from '../data/accounts.js';
import { creditsBought } from '../data/checkout-sessions.js';
import { hasMovement } from '../data/ledger.js';

/**
 * The signed-in user's profile. firstLogin stays true until the user's first reservation or purchase (the
 * first thing done after onboarding). subscription_tier follows the credits bought net of refunds
 * (SUBSCRIPTION_TIERS in contracts). A user billing has not heard of yet gets email '' and 0 credits.
 */
export async function getProfile(db: Knex, userId: string): Promise<Profile> {
  const account = await findAccount(db, userId);
  const active = account ? await hasMovement(db, userId, ['reserve', 'purchase']) : false;
  return {
    uid: userId,
    email: account?.email ?? '',
    credits: account?.balance ?? 0,
    subscription_tier: subscriptionTier(account ? await creditsBought(db, userId) : 0),
    firstLogin: !active,
    ...(account?.signedUpAt ? { createdAt: account.signedUpAt.toISOString() } : {}),
  };
}
