// The console: one Vite build (apps/console/dist) that the server serves at `/`.
// In development `vite` proxies /api to the server on :8080.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import product from '../../package.json' with { type: 'json' };

export default defineConfig({
  plugins: [react()],
  // The product's version (the repository's package.json), shown on the team page's Version tab.
  define: { __PORTCULLIS_VERSION__: JSON.stringify(product.version) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
  test: {
    name: 'console',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // antd in jsdom is slow, and slower still on a busy two-core machine.
    testTimeout: 60_000,
    css: false,
  },
});
