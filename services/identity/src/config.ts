import { z } from 'zod';
import { servicePort } from '@frametext/contracts';
import { loadConfigOrExit, serviceConfig } from '@frametext/service-kit';

const optionalText = z.string().min(1).optional();

/** Identity settings: every key has a default (or is optional) and is read from the environment variable of the same name. */
export const identityConfigSchema = serviceConfig({
  PORT: z.coerce.number().int().min(0).max(65535).default(servicePort('identity')),
  /** Public address of the app (the gateway): reset links and the Google redirect point here. */
  APP_URL: z.string().url().default('http://localhost:8080'),
  /** Lifetime of access tokens. Short, because only a log-out's revocation ends one sooner (within seconds, when the feed is read). */
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().positive().max(365).default(30),
  JWT_KEY_ROTATION_DAYS: z.coerce.number().positive().max(3650).default(30),
  /** How often each replica checks whether the signing key is due for rotation (and prunes old rows). */
  JWT_KEY_CHECK_INTERVAL_MS: z.coerce.number().int().min(1000).default(3_600_000),
  /**
   * Signing keys' private PEMs are stored encrypted (AES-256-CBC PKCS#8) with this passphrase; keys stored in clear
   * by an earlier run are encrypted at start. Required in production; without it (development) they are stored in clear.
   */
  JWT_KEY_PASSPHRASE: z.string().min(16).optional(),
  PASSWORD_RESET_TTL_MINUTES: z.coerce.number().positive().default(60),
  /** How long the e-mail confirmation link mailed at sign-up (or sent again) can be used. */
  EMAIL_CONFIRMATION_TTL_HOURS: z.coerce.number().positive().max(24 * 30).default(72),
  /** Confirmation e-mails one account may ask to be sent again per hour (the sign-up's own mail does not count). */
  RATE_LIMIT_CONFIRMATION_PER_HOUR: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_IP_PER_MINUTE: z.coerce.number().int().min(1).default(50),
  /** Failed log-ins on one account, from addresses that never signed in to it, after which such addresses wait out the window. */
  RATE_LIMIT_LOGIN_FAILURES: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  /** Failed log-ins in a row one address gets on one account before it has to wait (1 s, doubling each time). */
  LOGIN_FREE_FAILURES: z.coerce.number().int().min(1).default(5),
  /** The longest an address waits between tries on one account. */
  LOGIN_MAX_WAIT_SECONDS: z.coerce.number().int().min(1).default(900),
  RATE_LIMIT_RESET_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /** A Google-only account (no password to ask for) may delete itself or create an API token from a session started this recently. */
  RECENT_SIGN_IN_MINUTES: z.coerce.number().positive().max(60).default(5),
  /** SMTP server for e-mail (smtp://user:pass@host:587); without it mail is written to <DATA_DIR>/mailbox as .eml files. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('FrameText <no-reply@frametext.local>'),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_ISSUER: z.string().url().default('https://accounts.google.com'),
  /** Defaults to `${APP_URL}/api/auth/google/callback` (the gateway forwards it here). */
  GOOGLE_REDIRECT_URI: z.string().url().optional(),
}).superRefine((c, ctx) => {
  if (c.NODE_ENV === 'production' && !c.JWT_KEY_PASSPHRASE) {
    ctx.addIssue({ code: 'custom', path: ['JWT_KEY_PASSPHRASE'], message: 'is required in production, so the signing keys are not stored in clear' });
  }
});

export type IdentityConfig = z.infer<typeof identityConfigSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): IdentityConfig {
  return loadConfigOrExit('identity', identityConfigSchema, env);
}
