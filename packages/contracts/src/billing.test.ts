import { describe, expect, it } from 'vitest';
import { checkoutRequestSchema, checkoutSessionIdSchema, profileSchema } from './billing.js';
import { subscriptionTier } from './rules.js';

describe('POST /create-checkout-session body', () => {
  it('accepts the three packs', () => {
    for (const credits of [100, 500, 2500]) expect(checkoutRequestSchema.parse({ credits })).toEqual({ credits });
  });

  it('refuses any other amount, naming the packs', () => {
    const result = checkoutRequestSchema.safeParse({ credits: 200 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('credits must be one of the packs: 100, 500, 2500');
    expect(checkoutRequestSchema.safeParse({ credits: '100' }).success).toBe(false);
  });
});

describe('subscription tiers', () => {
  it('follow the credits bought: free before any purchase, starter after one, pro from 2,500', () => {
    expect([0, 1, 100, 2499, 2500, 10_000].map(subscriptionTier)).toEqual(['free', 'starter', 'starter', 'starter', 'pro', 'pro']);
  });

  it('the profile accepts only the named tiers, and free when none is given', () => {
    const profile = { uid: 'u1', email: 'a@example.com', credits: 1, firstLogin: false };
    expect(profileSchema.parse(profile).subscription_tier).toBe('free');
    expect(profileSchema.safeParse({ ...profile, subscription_tier: 'gold' }).success).toBe(false);
  });
});

describe('GET /checkout-sessions/:id', () => {
  it('takes Stripe and simulated session ids and nothing else', () => {
    for (const id of ['cs_test_a1B2c3', 'cs_live_XYZ', `cs_sim_${'f'.repeat(48)}`]) expect(checkoutSessionIdSchema.safeParse(id).success).toBe(true);
    for (const id of ['pi_123', 'cs_', 'cs_test_../x', '']) expect(checkoutSessionIdSchema.safeParse(id).success).toBe(false);
  });
});
