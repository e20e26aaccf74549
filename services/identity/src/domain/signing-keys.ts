import { createPrivateKey, createPublicKey, generateKeyPair, randomBytes, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { JwksResponse } from '@frametext/contracts';
import type { Knex, Logger } from '@frametext/service-kit';
import { clearKeysForUpdate, dbNow, findActiveKey, findPublishedKeys, insertKey, lockSigningKeys, retireActiveKey, storeEncryptedPrivateKey, type SigningKeyRow } from '../data/signing-keys.js';

const generateKeyPairAsync = promisify(generateKeyPair);

// Replicas read the active key from Postgres at every signature; a retired key stays published this long
// past the access-token lifetime, for clock skew and for JWKS caches (the gateway's jwks-rsa cache).
const PUBLISH_MARGIN_MS = 5 * 60_000;

export interface SigningKeysOptions {
  db: Knex;
  logger: Logger;
  accessTokenTtlSeconds: number;
  rotationDays: number;
  passphrase?: string;
}

export interface ActiveSigner {
  kid: string;
  privateKey: KeyObject;
}

/**
 * RS256 signing keys kept in Postgres. One key is active (a partial unique index allows only one); a newer
 * key retires it, and the JWKS keeps publishing a retired key until every token it signed has expired, so
 * rotation never signs anyone out.
 */
export class SigningKeys {
  private readonly privateKeys = new Map<string, KeyObject>();

  constructor(private readonly opts: SigningKeysOptions) {}

  /** Creates the first key, or a new one when the active key is older than the rotation period. Safe to call from every replica at once. */
  async ensureFresh(): Promise<string | undefined> {
    return this.createKey((active, now) => !active || now.getTime() - active.createdAt.getTime() >= this.opts.rotationDays * 86_400_000);
  }

  /** With a passphrase, encrypts every private key an earlier run stored in clear; answers how many. */
  async encryptStoredKeys(): Promise<number> {
    const passphrase = this.opts.passphrase;
    if (!passphrase) return 0;
    return this.opts.db.transaction(async (trx) => {
      await lockSigningKeys(trx);
      const clear = await clearKeysForUpdate(trx);
      for (const key of clear) {
        const sealed = createPrivateKey(key.privatePem).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase });
        await storeEncryptedPrivateKey(trx, key.kid, String(sealed));
      }
      if (clear.length > 0) this.opts.logger.info({ keys: clear.map((k) => k.kid) }, 'signing keys stored in clear are now encrypted');
      return clear.length;
    });
  }

  /** Makes a new active key now; the previous one keeps verifying until its tokens expire. */
  async rotate(): Promise<string> {
    return (await this.createKey(() => true))!;
  }

  async activeSigner(): Promise<ActiveSigner> {
    let active = await findActiveKey(this.opts.db);
    if (!active) {
      await this.ensureFresh();
      active = await findActiveKey(this.opts.db);
      if (!active) throw new Error('no active signing key');
    }
    let privateKey = this.privateKeys.get(active.kid);
    if (!privateKey) {
      privateKey = this.decodePrivate(active);
      this.privateKeys.set(active.kid, privateKey);
    }
    return { kid: active.kid, privateKey };
  }

  /** The public key published under `kid` (active, or retired recently enough to verify), for identity's own checks. */
  async publishedKey(kid: string): Promise<KeyObject | undefined> {
    const now = await dbNow(this.opts.db);
    const keys = await findPublishedKeys(this.opts.db, new Date(now.getTime() - this.opts.accessTokenTtlSeconds * 1000 - PUBLISH_MARGIN_MS));
    const key = keys.find((k) => k.kid === kid);
    return key && createPublicKey(key.publicPem);
  }

  async jwks(): Promise<JwksResponse> {
    const now = await dbNow(this.opts.db);
    const retiredAfter = new Date(now.getTime() - this.opts.accessTokenTtlSeconds * 1000 - PUBLISH_MARGIN_MS);
    const keys = await findPublishedKeys(this.opts.db, retiredAfter);
    return {
      keys: keys.map((k) => {
        const jwk = createPublicKey(k.publicPem).export({ format: 'jwk' });
        return { kty: 'RSA' as const, kid: k.kid, use: 'sig' as const, alg: 'RS256' as const, n: String(jwk.n), e: String(jwk.e) };
      }),
    };
  }

  private async createKey(shouldCreate: (active: SigningKeyRow | undefined, now: Date) => boolean): Promise<string | undefined> {
    const pair = await this.generate();
    return this.opts.db.transaction(async (trx) => {
      await lockSigningKeys(trx);
      const active = await findActiveKey(trx);
      if (!shouldCreate(active, await dbNow(trx))) return undefined;
      await retireActiveKey(trx);
      await insertKey(trx, pair);
      this.opts.logger.info({ kid: pair.kid, previousKid: active?.kid ?? null }, 'new signing key is active');
      return pair.kid;
    });
  }

  private async generate(): Promise<{ kid: string; publicPem: string; privatePem: string; encrypted: boolean }> {
    const passphrase = this.opts.passphrase;
    const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: passphrase ? { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase } : { type: 'pkcs8', format: 'pem' },
    });
    return { kid: randomBytes(12).toString('base64url'), publicPem: publicKey, privatePem: privateKey, encrypted: Boolean(passphrase) };
  }

  private decodePrivate(key: SigningKeyRow): KeyObject {
    if (key.encrypted && !this.opts.passphrase) throw new Error(`signing key ${key.kid} is encrypted but JWT_KEY_PASSPHRASE is not set`);
    return key.encrypted ? createPrivateKey({ key: key.privatePem, format: 'pem', passphrase: this.opts.passphrase }) : createPrivateKey(key.privatePem);
  }
}
