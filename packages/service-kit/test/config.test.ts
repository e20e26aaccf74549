import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILT_IN_SECRETS, ConfigError, parseConfig, serviceConfig } from '../src/config/index.js';

const schema = serviceConfig({ PORT: z.coerce.number().int().min(1).max(65535).default(8101) });

describe('service config', () => {
  it('fills every setting with its default when the environment is empty', () => {
    const config = parseConfig(schema, {});
    expect(config.PORT).toBe(8101);
    expect(config.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(config.STORAGE_DRIVER).toBe('fs');
  });

  it('reads and coerces values from the environment, ignoring empty ones', () => {
    const config = parseConfig(schema, { PORT: '9000', LOG_LEVEL: 'debug', S3_ENDPOINT: '' });
    expect(config.PORT).toBe(9000);
    expect(config.LOG_LEVEL).toBe('debug');
    expect(config.S3_ENDPOINT).toBeUndefined();
  });

  it('names the bad setting and what it got in one line', () => {
    expect(() => parseConfig(schema, { DATABASE_URL: 'not a url' })).toThrow(ConfigError);
    try {
      parseConfig(schema, { PORT: 'eighty' });
    } catch (err) {
      expect((err as ConfigError).setting).toBe('PORT');
      expect((err as Error).message).toMatch(/^invalid setting PORT: .*got "eighty"/);
      expect((err as Error).message).not.toContain('\n');
    }
  });

  it('refuses to run in production on a built-in secret, and says which', () => {
    const own = { STORAGE_SIGNING_SECRET: 'a'.repeat(40), SERVICE_TOKEN_SECRET: 'b'.repeat(40) };
    expect(() => parseConfig(schema, { NODE_ENV: 'production', ...own })).not.toThrow();
    for (const key of Object.keys(BUILT_IN_SECRETS)) {
      const env = { NODE_ENV: 'production', ...own, [key]: '' };
      expect(() => parseConfig(schema, env)).toThrow(new RegExp(`^invalid setting ${key}: is the built-in development value`));
    }
    // Only the fs store signs URLs with STORAGE_SIGNING_SECRET: a process on S3 runs without one.
    const s3 = { STORAGE_DRIVER: 's3', SERVICE_TOKEN_SECRET: own.SERVICE_TOKEN_SECRET };
    expect(() => parseConfig(schema, { NODE_ENV: 'production', ...s3 })).not.toThrow();
    // Development and tests keep working with no environment at all.
    expect(() => parseConfig(schema, { NODE_ENV: 'development' })).not.toThrow();
  });

  it('never repeats a secret in its error message', () => {
    try {
      parseConfig(schema, { SERVICE_TOKEN_SECRET: 'short-but-secret' });
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toMatch(/^invalid setting SERVICE_TOKEN_SECRET: .*value not shown/);
      expect((err as Error).message).not.toContain('short-but-secret');
    }
  });
});
