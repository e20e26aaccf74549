import { onlyLoopbackNames, parseLocalHosts } from '../net/destination.js';
import { z } from 'zod';
import { cpuBudget } from '../host/cpu-budget.js';
import type { TracingSettings } from '../tracing/tracing.js';

/**
 * Development stand-ins for the installation's secrets, so that `npm test` and a bare `node dist/main.js` work with
 * no environment. With NODE_ENV=production a service refuses to start with any of them (`npm start` generates real
 * ones into DATA_DIR/secrets.json; compose and Kubernetes take them from their secret stores).
 */
export const BUILT_IN_SECRETS = {
  STORAGE_SIGNING_SECRET: 'frametext-local-signing-secret-change-me',
  SERVICE_TOKEN_SECRET: 'frametext-local-service-token-secret-change-me',
} as const;

/** Most Postgres connections one process's pool opens, with the default given. */
const dbPoolMax = (fallback: number) => z.coerce.number().int().min(1).max(100).default(fallback);

/**
 * Settings of a worker whose slow work runs in prepare steps, with no connection held (frame-extraction, the OCR
 * workers): commits, the outbox relay and health checks need only a small pool. Spread into the worker's config.
 */
export const workerConfigShape = {
  DB_POOL_MAX: dbPoolMax(3),
  /**
   * Threads the worker's native tools use (ffmpeg's decoder, sharp's libvips): the cores its CPU quota allows, not
   * the node's, which would only queue threads behind the quota.
   */
  WORKER_THREADS: z.coerce.number().int().min(1).max(256).default(cpuBudget()),
};

/** Settings every service shares. Each key has a default so `npm start` works with no environment. */
export const baseConfigShape = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('.data'),
  /** Address the HTTP server listens on: loopback, so only the gateway (or a co-located caller) reaches it; 0.0.0.0 in containers. */
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().url().default('postgres://postgres:postgres@127.0.0.1:5432/frametext'),
  /**
   * Most Postgres connections one process opens. Message handlers hold one only for their short commit (slow work runs
   * before it), so a few serve any concurrency: see docs/operations.md for what each service and replica needs.
   */
  DB_POOL_MAX: dbPoolMax(10),
  RABBITMQ_URL: z.string().url().default('amqp://guest:guest@127.0.0.1:5672'),
  BUS_EXCHANGE: z.string().min(1).default('frametext.events'),
  BUS_PREFETCH: z.coerce.number().int().min(1).max(1000).default(8),
  BUS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
  /**
   * Times one delivery of a message may end with no answer (its worker died: out of memory, killed, evicted) before
   * it goes to the dead-letter queue, so a message that kills every worker that takes it does not come back forever.
   */
  BUS_MAX_INTERRUPTIONS: z.coerce.number().int().min(0).max(50).default(3),
  /**
   * What the service declares its durable queues as: `quorum` (replicated, with the broker's delivery limit as a
   * backstop above BUS_MAX_INTERRUPTIONS, which the service counts) or `classic`. A queue that already exists with
   * another type or other arguments is kept as it is (docs/operations.md, Moving to quorum queues).
   */
  BUS_QUEUE_TYPE: z.enum(['quorum', 'classic']).default('quorum'),
  BUS_RETRY_DELAY_MS: z.coerce.number().int().min(10).default(5_000),
  /**
   * Minutes a published event stays in the outbox (it carries its payload, recognised text included) before the
   * pruning job deletes it: what a delivered event can outlive its upload by, plus one MESSAGE_PRUNE_INTERVAL_MS.
   */
  OUTBOX_RETENTION_MINUTES: z.coerce.number().int().min(0).max(60).default(10),
  /**
   * Hours the inbox remembers a handled message's id (no payload), so a copy arriving within them changes nothing.
   * Far beyond the broker's redelivery horizon (retries take about a minute; a backlog, hours).
   */
  INBOX_RETENTION_HOURS: z.coerce.number().int().min(2).default(72),
  /** How often each replica prunes its outbox and inbox. */
  MESSAGE_PRUNE_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * Port of the Prometheus metrics listener (`GET /metrics`), apart from the API so the gateway never exposes it;
   * default the HTTP port + 1000 (9101 for identity's 8101), `off` to serve none.
   */
  METRICS_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]).optional(),
  /**
   * OpenTelemetry: the OTLP/HTTP collector spans are sent to (`http://otel-collector:4318`). Unset, nothing is recorded
   * or sent, though trace ids still travel with every request and message and appear in the logs.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  /** Share of new traces recorded when exporting, 0 to 1 (the OpenTelemetry variable's name). */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
  HTTP_BODY_LIMIT: z.string().default('1mb'),
  /** Longest a client may take to send the request line and headers; then 408 (slow-header attacks). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /**
   * Longest a client may take to send a whole request, body included; then 408; 0 turns it off. A service's bodies
   * come from the gateway, which cuts API bodies at its API_BODY_TIMEOUT_MS (30 s), so this only stops a slow caller
   * that reaches a service directly.
   */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(0).default(60_000),
  /** How long an idle kept-alive connection stays open. Callers that pool connections must drop them sooner. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** The identity service: its JWKS verifies access tokens, its feed lists ended sessions. */
  IDENTITY_URL: z.string().url().default('http://127.0.0.1:8101'),
  /** Where access tokens' public keys are published; default identity's. A hosted provider's JWKS works too. */
  JWKS_URL: z.string().url().optional(),
  JWT_ISSUER: z.string().min(1).default('frametext-identity'),
  JWT_AUDIENCE: z.string().min(1).default('frametext'),
  JWKS_CACHE_MAX_AGE_MS: z.coerce.number().int().min(0).default(600_000),
  JWKS_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /** identity's list of ended sessions; default identity's /internal/revocations, `off` when the issuer is not identity. */
  REVOCATIONS_URL: z.union([z.literal('off'), z.string().url()]).optional(),
  /** How often the list of ended sessions is read again: the most a log-out takes to reach every service. */
  REVOCATIONS_POLL_MS: z.coerce.number().int().min(100).default(2_000),
  /** Signs the workload tokens services call each other with. At least 32 characters; production needs its own. */
  SERVICE_TOKEN_SECRET: z.string().min(32).default(BUILT_IN_SECRETS.SERVICE_TOKEN_SECRET),
  STORAGE_DRIVER: z.enum(['fs', 's3']).default('fs'),
  STORAGE_BUCKET: z.string().min(3).default('frametext'),
  STORAGE_FS_ROOT: z.string().optional(),
  STORAGE_SIGNING_SECRET: z.string().min(16).default(BUILT_IN_SECRETS.STORAGE_SIGNING_SECRET),
  STORAGE_PUBLIC_URL: z.string().url().default('http://localhost:8080'),
  S3_ENDPOINT: z.string().url().optional(),
  /** Address browsers use for presigned URLs, when not S3_ENDPOINT (the gateway's public address in compose/k8s). */
  S3_PUBLIC_ENDPOINT: z.string().url().optional(),
  /**
   * How requests name the bucket, for the services' own calls and presigned URLs alike: `path`
   * (`<endpoint>/<bucket>/<key>`, served by any S3 server with no DNS set-up) or `virtual` (`<bucket>.<endpoint
   * host>/<key>`, AWS S3's own).
   */
  S3_ADDRESSING: z.enum(['path', 'virtual']).default('path'),
  S3_ACCESS_KEY: z.string().optional(),
  S3_SECRET_KEY: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
};

type BaseShape = z.infer<z.ZodObject<typeof baseConfigShape>>;

/**
 * Production never runs on a secret anyone can read in this repository. The storage signing secret signs the fs
 * store's URLs only, so a process on S3 needs none (and a Kubernetes pod is not given one).
 */
function refuseBuiltInSecrets(config: BaseShape, ctx: z.RefinementCtx): void {
  if (config.NODE_ENV !== 'production') return;
  for (const [key, builtIn] of Object.entries(BUILT_IN_SECRETS)) {
    if (key === 'STORAGE_SIGNING_SECRET' && config.STORAGE_DRIVER !== 'fs') continue;
    if (config[key as keyof typeof BUILT_IN_SECRETS] === builtIn) {
      ctx.addIssue({ code: 'custom', path: [key], message: 'is the built-in development value; production needs a secret of its own' });
    }
  }
}

export const baseConfigSchema = z.object(baseConfigShape).superRefine(refuseBuiltInSecrets);
export type BaseConfig = z.infer<typeof baseConfigSchema>;

/** The access-token settings, with identity's JWKS as the default. */
export function accessTokenSettings(config: BaseConfig) {
  return {
    jwksUrl: config.JWKS_URL ?? new URL('/api/auth/jwks.json', config.IDENTITY_URL).toString(),
    audience: config.JWT_AUDIENCE,
    issuer: config.JWT_ISSUER,
    cacheMaxAgeMs: config.JWKS_CACHE_MAX_AGE_MS,
    requestsPerMinute: config.JWKS_REQUESTS_PER_MINUTE,
  };
}

/** The Node server's clocks as the settings give them (`listen`'s last argument). */
/** Tracing settings from the config; only the gateway, facing the public, passes false (see `TracingSettings`). */
export function tracingSettings(config: Pick<BaseConfig, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_TRACES_SAMPLER_ARG'>, trustCallerSampling = true): TracingSettings {
  return { endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, sampleRatio: config.OTEL_TRACES_SAMPLER_ARG, trustCallerSampling };
}

export function serverTimeouts(config: Pick<BaseConfig, 'HTTP_HEADERS_TIMEOUT_MS' | 'HTTP_REQUEST_TIMEOUT_MS' | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'>) {
  return {
    headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  };
}

/** identity's feed of ended sessions, or undefined when it is turned off. */
export function revocationsUrl(config: BaseConfig): string | undefined {
  if (config.REVOCATIONS_URL === 'off') return undefined;
  return config.REVOCATIONS_URL ?? new URL('/internal/revocations', config.IDENTITY_URL).toString();
}

/** Settings whose value an error message must not repeat. */
const SECRET_SETTING = /SECRET|PASSPHRASE|PASSWORD|TOKEN|_KEY$/;

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
  const value = cleaned[setting];
  const shown = value === undefined ? 'missing' : SECRET_SETTING.test(setting) ? 'value not shown' : `got "${value}"`;
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
  return z.object({ ...baseConfigShape, ...shape }).superRefine((c, ctx) => refuseBuiltInSecrets(c as BaseShape, ctx));
}

/**
 * A list of loopback host names (localhost, 127.0.0.1, [::1]) that requests to people's addresses may use, over
 * plain http too: development and tests only (WEBHOOK_LOCAL_HOSTS, VIDEO_LINK_LOCAL_HOSTS). Empty by default, where
 * every such request is HTTPS to a public address. Nothing but loopback names is accepted.
 */
export function localHostsSetting() {
  return z
    .string()
    .default('')
    .transform(parseLocalHosts)
    .refine(onlyLoopbackNames, 'lists loopback host names only (localhost, 127.0.0.1, [::1])');
}
