import { SUBSCRIPTION_TIERS, type SubscriptionTier } from '@frametext/contracts/rules';

const PRO_FROM = SUBSCRIPTION_TIERS.find((t) => t.tier === 'pro')!.minCreditsBought.toLocaleString('en-US');

const LABELS: Record<SubscriptionTier, string> = { free: 'Free', starter: 'Starter', pro: 'Pro' };

/** What each tier means and how to reach the next one (the rule is billing's: credits bought, net of refunds). */
const NOTES: Record<SubscriptionTier, string> = {
  free: 'You are on the free credits every new account gets. Buying any pack makes you Starter.',
  starter: `You have bought credits. Buying ${PRO_FROM} credits in all makes you Pro.`,
  pro: `You have bought ${PRO_FROM} credits or more. For larger volumes or invoices, ask about an enterprise account.`,
};

const known = (tier: string): tier is SubscriptionTier => tier in LABELS;

export function tierLabel(tier: string): string {
  return known(tier) ? LABELS[tier] : tier.charAt(0).toUpperCase() + tier.slice(1);
}

export function tierNote(tier: string): string | null {
  return known(tier) ? NOTES[tier] : null;
}
