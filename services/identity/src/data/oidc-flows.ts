import type { Knex } from '@frametext/service-kit';

type Db = Knex | Knex.Transaction;

export interface OidcFlow {
  provider: string;
  nonce: string;
  codeVerifier: string;
  expiresAt: Date;
}

export async function insertFlow(db: Db, stateHash: string, flow: OidcFlow): Promise<void> {
  await db('oidc_flows').insert({ state_hash: stateHash, provider: flow.provider, nonce: flow.nonce, code_verifier: flow.codeVerifier, expires_at: flow.expiresAt });
}

/** Takes a flow out (single use): a state can be redeemed once. */
export async function takeFlow(db: Db, stateHash: string): Promise<OidcFlow | undefined> {
  const rows = await db('oidc_flows').where({ state_hash: stateHash }).delete().returning(['provider', 'nonce', 'code_verifier', 'expires_at']);
  const row = rows[0] as { provider: string; nonce: string; code_verifier: string; expires_at: Date } | undefined;
  return row && { provider: row.provider, nonce: row.nonce, codeVerifier: row.code_verifier, expiresAt: row.expires_at };
}

export async function pruneFlows(db: Db, olderThan: Date): Promise<number> {
  return db('oidc_flows').where('expires_at', '<', olderThan).delete();
}
