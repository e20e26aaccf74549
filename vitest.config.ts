import { defineConfig } from 'vitest/config';

// One runner for the whole workspace, three projects: node (packages and services, against the real Postgres and
// RabbitMQ: `npm test`), pipeline (test/pipeline, each file a whole stack of the services: `npm run test:pipeline`)
// and frontend (components in jsdom, frontend/vitest.config.ts). Workspace packages resolve to their TypeScript
// sources (the "source" export condition), so tests never depend on a stale build.
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
      'frontend/vitest.config.ts',
    ],
  },
});
