import { z } from 'zod';

/** Settings every service shares. Each key has a default so `npm start` works with no environment. */
export const baseConfigShape = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z.string().url().default('postgres://postgres:postgres@127.0.0.1:5432/frametext'),
  RABBITMQ_URL: z.string().url().default('amqp://guest:guest@127.0.0.1:5672'),
  BUS_EXCHANGE: z.string().min(1).default('frametext.events'),
  BUS_PREFETCH: z.coerce.number().int().min(1).max(1000).default(8),
  BUS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  BUS_RETRY_DELAY_MS: z.coerce.number().int().min(10).default(5_000),
  HTTP_BODY_LIMIT: z.string().default('1mb'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  STORAGE_DRIVER: z.enum(['fs', 's3']).default('fs'),
  STORAGE_BUCKET: z.string().min(3).default('frametext'),
  STORAGE_FS_ROOT: z.string().optional(),
  STORAGE_SIGNING_SECRET: z.string().min(16).default('frametext-local-signing-secret-change-me'),
  STORAGE_PUBLIC_URL: z.string().url().default('http://localhost:8080'),
  S3_ENDPOINT: z.string().url().optional(),
  /** Address browsers use for presigned URLs, when not S3_ENDPOINT (the gateway's public address in compose/k8s). */
  S3_PUBLIC_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY: z.string().optional(),
  S3_SECRET_KEY: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
};

export const baseConfigSchema = z.object(baseConfigShape);
export type BaseConfig = z.infer<typeof baseConfigSchema>;

export class ConfigError extends Error {
  constructor(readonly setting: string, detail: string) {
    super(`invalid setting ${setting}: ${detail}`);
  }
}

/**
 * Parses the environment with a service's schema. Throws ConfigError naming the first bad setting;
 * `loadConfigOrExit` turns that into one line on stderr and exit code 1.
 */
export function parseConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): z.infer<S> {
  const cleaned: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') cleaned[k] = v;
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const setting = issue.path.join('.') || '(environment)';
  const shown = cleaned[setting] === undefined ? 'missing' : `got "${cleaned[setting]}"`;
  throw new ConfigError(setting, `${issue.message} (${shown})`);
}

export function loadConfigOrExit<S extends z.ZodType>(service: string, schema: S, env: Record<string, string | undefined> = process.env): z.infer<S> {
  try {
    return parseConfig(schema, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${service}: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** Extends the shared settings with a service's own. */
export function serviceConfig<T extends z.ZodRawShape>(shape: T) {
  return z.object({ ...baseConfigShape, ...shape });
}
