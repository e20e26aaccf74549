import { z } from 'zod';
import { loadConfigOrExit, serviceConfig } from '@frametext/service-kit';

const optionalText = z.string().min(1).optional();

/** Identity settings: every key has a default (or is optional) and is read from the environment variable of the same name. */
export const identityConfigSchema = serviceConfig({
  PORT: z.coerce.number().int().min(0).max(65535).default(8101),
  /** Public address of the app (the gateway): reset links and the Google redirect point here. */
  APP_URL: z.string().url().default('http://localhost:8080'),
  JWT_ISSUER: z.string().min(1).default('frametext-identity'),
  JWT_AUDIENCE: z.string().min(1).default('frametext'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().positive().max(365).default(30),
  JWT_KEY_ROTATION_DAYS: z.coerce.number().positive().max(3650).default(30),
  /** How often each replica checks whether the signing key is due for rotation (and prunes old rows). */
  JWT_KEY_CHECK_INTERVAL_MS: z.coerce.number().int().min(1000).default(3_600_000),
  /** When set, signing keys' private PEMs are stored encrypted (AES-256-CBC PKCS#8) with this passphrase. */
  JWT_KEY_PASSPHRASE: z.string().min(16).optional(),
  PASSWORD_RESET_TTL_MINUTES: z.coerce.number().positive().default(60),
  RATE_LIMIT_IP_PER_MINUTE: z.coerce.number().int().min(1).default(50),
  RATE_LIMIT_LOGIN_FAILURES: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  RATE_LIMIT_RESET_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /** SMTP server for e-mail (smtp://user:pass@host:587); without it mail is written to <DATA_DIR>/mailbox as .eml files. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('FrameText <no-reply@frametext.local>'),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_ISSUER: z.string().url().default('https://accounts.google.com'),
  /** Defaults to `${APP_URL}/api/auth/google/callback` (the gateway forwards it here). */
  GOOGLE_REDIRECT_URI: z.string().url().optional(),
});

export type IdentityConfig = z.infer<typeof identityConfigSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): IdentityConfig {
  return loadConfigOrExit('identity', identityConfigSchema, env);
}
