import { defineConfig } from 'vitest/config';

// The container integration suite (test/containers): run only by `npm run test:containers`, which builds the
// images, starts the compose stack and passes its address in IT_BASE_URL. One file at a time, in order.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['test/containers/**/*.containers.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
