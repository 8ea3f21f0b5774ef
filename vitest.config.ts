import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          sequence: { groupOrder: 1 },
          include: ['apps/server/test/**/*.api.test.ts'],
          environment: 'node',
          // Import tests took 40–150 s on a loaded two-core machine; a test’s own waits fail first
          // with what they waited for, and this only stops one that hangs.
          testTimeout: 300_000,
          hookTimeout: 120_000,
          // On CI a failed API test gets one more try, as a browser test does (e2e/playwright.config.ts):
          // a slow moment of a busy machine shows as flaky in `npm test`'s summary, not as a failure.
          retry: process.env.CI ? 1 : 0,
          // Each file starts its own app (PGlite in a worker, or its own PostgreSQL schema).
          maxWorkers: 2,
        },
      },
    ],
  },
});
