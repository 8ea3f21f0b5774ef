import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API server serves the built app; in dev, Vite serves it and forwards /api (SSE included).
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // No inline scripts may run under the server's CSP (script-src 'self').
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1200,
  },
});
