import type { ServerEngine } from '@frametext/contracts';
import type { Knex } from '@frametext/service-kit';

export type ReservationStatus = 'held' | 'confirmed' | 'settled';
/**
 * Why a reservation was settled: frames processed (capture + release); or, releasing all, the upload failed, its
 * hold outlived RESERVATION_TTL_HOURS unconfirmed (abandoned), upload cancelled it, or results deleted it.
 */
export type SettledBy = 'processed' | 'failed' | 'abandoned' | 'cancelled' | 'deleted';

export interface Reservation {
  uploadId: string;
  userId: string;
  engine: ServerEngine;
  framesRequested: number;
  framesAllowed: number;
  creditsRequired: number;
  creditsReserved: number;
  balanceBefore: number;
  status: ReservationStatus;
  settledBy: SettledBy | null;
  creditsCaptured: number;
  creditsReleased: number;
  createdAt: Date;
}

interface ReservationRow {
  upload_id: string;
  user_id: string;
  engine: ServerEngine;
  frames_requested: number;
  frames_allowed: number;
  credits_required: number;
  credits_reserved: number;
  balance_before: number;
  status: ReservationStatus;
  settled_by: SettledBy | null;
  credits_captured: number;
  credits_released: number;
  created_at: Date;
}

const toReservation = (r: ReservationRow): Reservation => ({
  uploadId: r.upload_id,
  userId: r.user_id,
  engine: r.engine,
  framesRequested: r.frames_requested,
  framesAllowed: r.frames_allowed,
  creditsRequired: r.credits_required,
  creditsReserved: r.credits_reserved,
  balanceBefore: r.balance_before,
  status: r.status,
  settledBy: r.settled_by,
  creditsCaptured: r.credits_captured,
  creditsReleased: r.credits_released,
  createdAt: r.created_at,
});

export type NewReservation = Pick<Reservation, 'uploadId' | 'userId' | 'engine' | 'framesRequested' | 'framesAllowed' | 'creditsRequired' | 'creditsReserved' | 'balanceBefore'>;

export async function insertReservation(trx: Knex.Transaction, r: NewReservation): Promise<void> {
  await trx('reservations').insert({
    upload_id: r.uploadId,
    user_id: r.userId,
    engine: r.engine,
    frames_requested: r.framesRequested,
    frames_allowed: r.framesAllowed,
    credits_required: r.creditsRequired,
    credits_reserved: r.creditsReserved,
    balance_before: r.balanceBefore,
  });
}

export async function findReservation(db: Knex, uploadId: string): Promise<Reservation | undefined> {
  const row = await db<ReservationRow>('reservations').where({ upload_id: uploadId }).first();
  return row ? toReservation(row) : undefined;
}

/** Locks the reservation row; take the account lock first (the one lock order of the service). */
export async function lockReservation(trx: Knex.Transaction, uploadId: string): Promise<Reservation | undefined> {
  const row = await trx<ReservationRow>('reservations').where({ upload_id: uploadId }).forUpdate().first();
  return row ? toReservation(row) : undefined;
}

/** Marks a held reservation confirmed (its upload arrived); false when it was not held any more. */
export async function confirmReservation(trx: Knex.Transaction, uploadId: string): Promise<boolean> {
  const n = await trx('reservations').where({ upload_id: uploadId, status: 'held' }).update({ status: 'confirmed', confirmed_at: trx.fn.now() });
  return n > 0;
}

export async function markSettled(trx: Knex.Transaction, uploadId: string, settledBy: SettledBy, captured: number, released: number): Promise<void> {
  await trx('reservations')
    .where({ upload_id: uploadId })
    .update({ status: 'settled', settled_by: settledBy, credits_captured: captured, credits_released: released, settled_at: trx.fn.now() });
}

/** Held reservations created before `cutoff`, oldest first. */
export async function heldBefore(db: Knex, cutoff: Date, limit: number): Promise<string[]> {
  const rows = await db('reservations').where({ status: 'held' }).andWhere('created_at', '<', cutoff).orderBy('created_at').limit(limit).select<{ upload_id: string }[]>('upload_id');
  return rows.map((r) => r.upload_id);
}
