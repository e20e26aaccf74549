import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { ocrAssets } from './build/ocrAssets.ts';

export default defineConfig({
  plugins: [react(), ocrAssets()],
  resolve: { conditions: ['source'] },
  server: { proxy: { '/api': 'http://localhost:8080', '/files': 'http://localhost:8080' } },
  // No source maps: the built SPA is served to the public as it is.
  build: { outDir: 'dist', sourcemap: false },
});
