import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { ocrAssets } from './build/ocrAssets.ts';

// Component tests: jsdom, Testing Library. The root config runs them in two projects (`frontend`, sharing jsdom
// and modules between files, and `frontend-mocking`, for the files that use vi.mock); run alone, this config runs
// every file on its own.
export default defineConfig({
  plugins: [react(), ocrAssets()],
  resolve: { conditions: ['source'] },
  test: {
    name: 'frontend',
    environment: 'jsdom',
    exclude: [...configDefaults.exclude, 'e2e/**'],
    setupFiles: ['src/testing/setup.ts'],
  },
});
