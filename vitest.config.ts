import { defineConfig } from 'vitest/config';

// One runner for the whole workspace: node (packages and services, against the real Postgres and RabbitMQ:
// `npm test`), pipeline (test/pipeline, each file a whole stack of the services: `npm run test:pipeline`) and the
// SPA's components in jsdom (frontend/vitest.config.ts, two projects: see below). Workspace packages resolve to their
// TypeScript sources (the "source" export condition), so tests never depend on a stale build.
const COMPONENTS = 'src/**/*.test.{ts,tsx}';
const MOCKING = 'src/**/*.mocking.test.{ts,tsx}';
const nodeProject = { globalSetup: ['test/global-setup.ts'], testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' as const };

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
          include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'services/*/src/**/*.test.ts', 'test/*.test.ts'],
          ...nodeProject,
        },
      },
      { extends: true, test: { name: 'pipeline', include: ['test/pipeline/**/*.test.ts'], ...nodeProject } },
      // The SPA's component tests share their workers' jsdom and modules (a fresh jsdom per file costs more than the
      // tests). A file that replaces a module with vi.mock would hand the replacement on, so it is named
      // *.mocking.test.tsx and runs on its own.
      { extends: './frontend/vitest.config.ts', root: 'frontend', test: { name: 'frontend', include: [COMPONENTS], exclude: [MOCKING], isolate: false } },
      { extends: './frontend/vitest.config.ts', root: 'frontend', test: { name: 'frontend-mocking', include: [MOCKING] } },
    ],
  },
});
