import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// Another port when several checkouts run their browser tests on one machine at once.
const PORT = Number(process.env.HERALD_E2E_PORT ?? 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// One fresh data directory per run. The config is also loaded by the workers: they inherit this
// variable from the runner, so tests read the mails of the same server.
process.env.HERALD_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'herald-e2e-'));
const dataDir = process.env.HERALD_E2E_DATA_DIR;

// Node 24 is the one running Playwright (npm scripts put the `node` package first on PATH).
const node = JSON.stringify(process.execPath);
const build = process.env.HERALD_E2E_SKIP_BUILD ? '' : `npm run build -w @herald/web --silent && `;

export default defineConfig({
  testDir: './tests',
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  // A 2-core machine at a load of ~16 (two suites and benchmarks side by side) took over 60 s to
  // open one browser context: on CI a test may take twice as long before it counts as failed.
  timeout: process.env.CI ? 120_000 : 60_000,
  // A busy 2-core machine (CI beside other work) has taken over 10 s to render a page after a click.
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
        },
      },
    },
  ],
  webServer: {
    // The server serves the built web app, so the current web code is built first.
    command: `cd .. && ${build}${node} apps/server/src/main.ts`,
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      APP_URL: BASE_URL,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // The app's own checkout (billing.spec.ts pays through it), asked for as a server would.
      HERALD_PAYMENTS: 'sandbox',
      // Demo requests are mailed here (no form service in tests): billing.spec.ts reads the mail.
      HERALD_SUPPORT_EMAIL: 'support@herald.test',
      // The installation admin of the alpha-name review (templates.spec.ts).
      HERALD_ADMIN_EMAILS: 'installation-admin@herald.test',
      // The shipped plans, the Trial's import and lead limits raised to 1,000,000: specs import
      // files of 150,000 rows, and the billing specs meet the shipped Trial's other limits. The
      // server runs from the repository's root.
      HERALD_PLANS_FILE: 'e2e/fixtures/plans.json',
      // Short-URL domains are proven by asking this server itself, with the domain as Host, as a
      // domain pointed here would be asked (short-links.spec.ts); no DNS or port 80 is needed.
      DOMAIN_CHECK_BASE_URL: BASE_URL,
    },
  },
});
