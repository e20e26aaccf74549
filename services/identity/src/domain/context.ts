import type { Knex, Logger } from '@frametext/service-kit';
import type { IdentityConfig } from '../config.js';
import type { Mailer } from '../data/mailer.js';
import type { OidcClient } from '../data/oidc-client.js';
import type { SigningKeys } from './signing-keys.js';

/** What the use cases need, built once at start. */
export interface IdentityContext {
  config: IdentityConfig;
  db: Knex;
  logger: Logger;
  keys: SigningKeys;
  mailer: Mailer;
  /** Present only when Google sign-in is configured. */
  google: OidcClient | undefined;
}
