import { join } from 'node:path';
import type { Logger, RunningService, ServiceDefinition } from '@frametext/service-kit';
import type { IdentityConfig } from './config.js';
import { identityMigrations } from './data/migrations.js';
import { mailboxMailer, smtpMailer } from './data/mailer.js';
import { OidcClient } from './data/oidc-client.js';
import type { IdentityContext } from './domain/context.js';
import { MAIL_DELIVERY_INTERVAL_MS, mailDeliveryRound } from './domain/mail-delivery.js';
import { runMaintenance } from './domain/maintenance.js';
import { SigningKeys } from './domain/signing-keys.js';
import { apiTokenExchangeRoutes, apiTokenRoutes } from './http/api-token-routes.js';
import { emailConfirmationRoutes } from './http/email-confirmation-routes.js';
import { requestBudgetRoutes } from './http/request-budget-routes.js';
import { authRoutes, internalRoutes } from './http/routes.js';
import { sessionRoutes } from './http/session-routes.js';

export interface IdentityServiceOptions {
  /** Postgres schema (tests pass a unique one). */
  dbSchema?: string;
  logger?: Logger;
  /** Receives the use-case context once built (tests call rotateSigningKey through it). */
  onContext?: (ctx: IdentityContext) => void;
}

/** The identity service as the kit runs it: migrations, the /api/auth routes and the periodic key check. */
export function identityService(config: IdentityConfig, opts: IdentityServiceOptions = {}): ServiceDefinition<IdentityConfig> {
  return {
    name: 'identity',
    config,
    dbSchema: opts.dbSchema,
    migrations: identityMigrations,
    usesStorage: false,
    logger: opts.logger,
    async setup({ app, db, logger, schedule }) {
      const ctx: IdentityContext = {
        config,
        db,
        logger,
        keys: new SigningKeys({
          db,
          logger,
          accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
          rotationDays: config.JWT_KEY_ROTATION_DAYS,
          passphrase: config.JWT_KEY_PASSPHRASE,
        }),
        mailer: config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM) : mailboxMailer(join(config.DATA_DIR, 'mailbox'), config.MAIL_FROM, logger),
        google:
          config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
            ? new OidcClient({
                issuer: config.GOOGLE_ISSUER,
                clientId: config.GOOGLE_CLIENT_ID,
                clientSecret: config.GOOGLE_CLIENT_SECRET,
                redirectUri: config.GOOGLE_REDIRECT_URI ?? `${config.APP_URL.replace(/\/+$/, '')}/api/auth/google/callback`,
              })
            : undefined,
      };
      await ctx.keys.encryptStoredKeys();
      await ctx.keys.ensureFresh();
      app.use('/api/auth/api-tokens', apiTokenRoutes(ctx));
      app.use('/api/auth/email-confirmation', emailConfirmationRoutes(ctx));
      app.use('/api/auth', sessionRoutes(ctx));
      app.use('/api/auth', authRoutes(ctx));
      app.use('/internal/api-tokens', apiTokenExchangeRoutes(ctx));
      app.use('/internal/request-budget', requestBudgetRoutes(ctx));
      app.use('/internal', internalRoutes(ctx));
      opts.onContext?.(ctx);
      schedule({ name: 'identity maintenance', everyMs: config.JWT_KEY_CHECK_INTERVAL_MS, run: () => runMaintenance(ctx) });
      // New mail kicks a round at once (kickMailDelivery); this picks up what is due again after a failed try.
      schedule({ name: 'mail delivery', everyMs: MAIL_DELIVERY_INTERVAL_MS, atStart: true, run: () => mailDeliveryRound(ctx) });
    },
  };
}

export type RunningIdentity = RunningService<IdentityConfig>;
