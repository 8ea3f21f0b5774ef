import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `.br` and `.gz` beside every text asset once, at build time, so the server sends them
 * as they are (@fastify/static `preCompressed`) instead of compressing on each request: the first
 * screen's JavaScript travels at its gzip size (DESIGN §5: ≤ 400 kB).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'herald-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = await readdir(outDir, { recursive: true });
      await Promise.all(
        files
          .filter((f) => /\.(js|css|html|svg|json)$/.test(f))
          .map(async (f) => {
            const path = join(outDir, f);
            const body = await readFile(path);
            if (body.length < 1024) return;
            await writeFile(`${path}.br`, await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
            await writeFile(`${path}.gz`, await gzipAsync(body, { level: 9 }));
          }),
      );
    },
  };
}

// The API server serves the built app; in dev, Vite serves it and forwards /api (SSE included).
export default defineConfig({
  plugins: [react(), precompress()],
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
