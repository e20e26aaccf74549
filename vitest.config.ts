import { defineConfig } from 'vitest/config';

// One runner for the whole workspace, two projects: node (packages and services, against the real Postgres and
// RabbitMQ) and frontend (components in jsdom, frontend/vitest.config.ts). Workspace packages resolve to their
// TypeScript sources (the "source" export condition), so tests never depend on a stale build.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'services/*/src/**/*.test.ts', 'test/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      'frontend/vitest.config.ts',
    ],
  },
});
