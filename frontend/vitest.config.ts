import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { ocrAssets } from './build/ocrAssets.ts';

// Component tests: jsdom, Testing Library. Run by the root `npm test` through the workspace Vitest projects.
export default defineConfig({
  plugins: [react(), ocrAssets()],
  resolve: { conditions: ['source'] },
  test: {
    name: 'frontend',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
  },
});
