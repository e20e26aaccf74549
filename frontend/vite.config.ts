import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['source'] },
  server: { proxy: { '/api': 'http://localhost:8080', '/files': 'http://localhost:8080' } },
  build: { outDir: 'dist', sourcemap: true },
});
