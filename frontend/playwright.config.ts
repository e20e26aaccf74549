import { defineConfig } from '@playwright/test';

// Browser tests: Debian's Chromium (never a downloaded browser) against the whole product started as `npm start`
// starts it (e2e/global-setup.ts), on its own database, RabbitMQ virtual host and data folder.
export default defineConfig({
  testDir: 'e2e',
  outputDir: '../test-results/e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '../test-results/e2e.json' }]],
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: 'http://localhost:8080',
    // The getting-started modal opens once per browser; tests start past it (one test checks it opens).
    storageState: { cookies: [], origins: [{ origin: 'http://localhost:8080', localStorage: [{ name: 'got_started', value: 'true' }] }] },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
