import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { baseConfigSchema, parseConfig, type BaseConfig } from '../config/index.js';
import type { RetryPolicy } from '../bus/topology.js';
import { createLogger, type Logger } from '../logging/logger.js';

/** Database used by tests; each test file works in schemas of its own inside it. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/frametext_test';
export const TEST_RABBITMQ_URL = process.env.TEST_RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

/** Node's arguments for a test's child process that runs TypeScript sources, as the test does (no build needed). */
export const RUN_TYPESCRIPT_SOURCES = ['--import', fileURLToPath(new URL('./run-typescript.mjs', import.meta.url))];

/** A name no other test run uses: schemas, queues and exchanges of concurrent test files never meet. */
export function uniqueName(prefix: string): string {
  return `${prefix.replace(/[^a-z0-9_]/g, '_')}_${randomBytes(4).toString('hex')}`;
}

/** Retries in tests: quick, and few. */
export const TEST_RETRY_POLICY: RetryPolicy = { retryDelayMs: 200, maxAttempts: 3 };

/**
 * Environment for a service under test: the test database, a private exchange, fast retries, quiet logs, any free
 * port. Each call names a new exchange, so concurrent test files never meet.
 */
export function testEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: TEST_DATABASE_URL,
    RABBITMQ_URL: TEST_RABBITMQ_URL,
    BUS_EXCHANGE: uniqueName('test_exchange'),
    BUS_RETRY_DELAY_MS: String(TEST_RETRY_POLICY.retryDelayMs),
    BUS_MAX_ATTEMPTS: String(TEST_RETRY_POLICY.maxAttempts),
    SHUTDOWN_TIMEOUT_MS: '5000',
    PORT: '0',
    ...overrides,
  };
}

/** The shared settings of a service under test, parsed (for code that needs a BaseConfig rather than a service). */
export function testBaseConfig(overrides: Record<string, string> = {}): BaseConfig {
  return parseConfig(baseConfigSchema, testEnv(overrides));
}

export function testLogger(name = 'test'): Logger {
  return createLogger(name, process.env.TEST_LOG_LEVEL ?? 'silent');
}

/** Polls until `check` returns a truthy value or the time runs out; `what` names the awaited state in the error. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 10_000, everyMs = 50, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastErr: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms${lastErr ? `: ${String(lastErr)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Drops every schema of the test database whose name starts with `prefix`. */
export async function dropSchemas(prefix: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>('select nspname from pg_namespace where nspname like $1', [`${prefix.replace(/_/g, '\\_')}%`]);
    for (const { nspname } of rows) await client.query(`drop schema "${nspname}" cascade`);
  } finally {
    await client.end();
  }
}
