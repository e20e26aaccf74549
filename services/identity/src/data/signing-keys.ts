import type { Knex } from '@frametext/service-kit';

type Db = Knex | Knex.Transaction;

export interface SigningKeyRow {
  kid: string;
  publicPem: string;
  privatePem: string;
  encrypted: boolean;
  createdAt: Date;
  retiredAt: Date | null;
}

interface Row {
  kid: string;
  public_pem: string;
  private_pem: string;
  encrypted: boolean;
  created_at: Date;
  retired_at: Date | null;
}

const toKey = (r: Row): SigningKeyRow => ({ kid: r.kid, publicPem: r.public_pem, privatePem: r.private_pem, encrypted: r.encrypted, createdAt: r.created_at, retiredAt: r.retired_at });

export async function findActiveKey(db: Db): Promise<SigningKeyRow | undefined> {
  const row = await db<Row>('signing_keys').whereNull('retired_at').first();
  return row && toKey(row);
}

/** Keys to publish: the active one and those retired after `retiredAfter` (their tokens may still be live). */
export async function findPublishedKeys(db: Db, retiredAfter: Date): Promise<SigningKeyRow[]> {
  const rows = await db<Row>('signing_keys')
    .whereNull('retired_at')
    .orWhere('retired_at', '>', retiredAfter)
    .orderBy('created_at', 'desc');
  return rows.map(toKey);
}

export async function retireActiveKey(db: Db): Promise<void> {
  await db('signing_keys').whereNull('retired_at').update({ retired_at: db.fn.now() });
}

/** Keys whose private PEM is stored in clear, locked for the rest of the transaction. */
export async function clearKeysForUpdate(trx: Knex.Transaction): Promise<SigningKeyRow[]> {
  const rows = await trx<Row>('signing_keys').where({ encrypted: false }).forUpdate();
  return rows.map(toKey);
}

export async function storeEncryptedPrivateKey(trx: Knex.Transaction, kid: string, privatePem: string): Promise<void> {
  await trx('signing_keys').where({ kid }).update({ private_pem: privatePem, encrypted: true });
}

export async function insertKey(db: Db, key: { kid: string; publicPem: string; privatePem: string; encrypted: boolean }): Promise<void> {
  await db('signing_keys').insert({ kid: key.kid, public_pem: key.publicPem, private_pem: key.privatePem, encrypted: key.encrypted });
}

/** Serialises key creation across replicas for the rest of the transaction. */
export async function lockSigningKeys(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`select pg_advisory_xact_lock(hashtext(current_schema() || '.signing_keys'))`);
}

export async function dbNow(db: Db): Promise<Date> {
  const result = await db.raw<{ rows: { now: Date }[] }>('select now() as now');
  return result.rows[0]!.now;
}
