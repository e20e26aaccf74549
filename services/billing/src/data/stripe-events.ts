import type { Knex } from '@frametext/service-kit';

/**
 * Claims a Stripe event id for the caller's transaction. True when this transaction is the first to see it;
 * false when it was handled before. A concurrent copy of the same event waits here until the first
 * transaction ends, then finds the id taken (or, if the first one rolled back, takes it).
 */
export async function claimEvent(trx: Knex.Transaction, eventId: string, type: string): Promise<boolean> {
  const rows = await trx('stripe_events').insert({ event_id: eventId, type }).onConflict('event_id').ignore().returning('event_id');
  return rows.length > 0;
}
