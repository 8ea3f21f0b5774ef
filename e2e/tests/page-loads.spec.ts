import { expect, type Page, type Request, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';

/*
 * Playwright starts Chromium without the back/forward cache; users have it. Pages kept in that
 * cache kept their live-event streams open until the six connections per host were used up and
 * the next full load waited for one (16–58 s). This file runs with the cache on.
 */
test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  },
});

const ROUTES = [
  '/',
  '/leads',
  '/sources',
  '/settings',
  '/profile',
  '/sms-templates',
  '/alpha-names',
  '/profile/transactions',
  '/profile/team',
  '/settings/import-history',
  '/profile/security',
  '/analytics',
  '/lookup-management',
];

/** Shown: the shell's main part has text and nothing in it is still loading. */
async function shown(page: Page) {
  await expect(page.locator('main')).toContainText(/\p{L}/u, { timeout: 10_000 });
  await expect(page.locator('.mantine-Skeleton-root, .mantine-Loader-root')).toHaveCount(0, { timeout: 10_000 });
}

/**
 * Live-event streams the browser has open: requested, not finished or failed, and not of a closed
 * tab (whose requests end without an event). A page in the back/forward cache is not closed: its
 * stream counts while it stays open.
 */
function countStreams(page: Page) {
  const open = new Set<Request>();
  const context = page.context();
  context.on('request', (r) => {
    if (r.url().includes('/api/events?')) open.add(r);
  });
  context.on('requestfinished', (r) => open.delete(r));
  context.on('requestfailed', (r) => open.delete(r));
  return () => [...open].filter((r) => !r.frame().page().isClosed()).length;
}

/*
 * Before the fix the sixth to twelfth loads waited 16–58 s for a connection, and each of the others
 * took 1–2 s on a quiet machine. A two-core CI machine beside other work took up to 3 s to render a
 * page: there the bar is 5 s, still far below a stall.
 */
const LIMIT_MS = process.env.CI ? 5_000 : 2_000;

test('thirteen full page loads in a row each show within 2 s', async ({ page }) => {
  await page.addInitScript(() => {
    localStorage.setItem('herald.lang', 'en');
  });
  await signUpVerified(page, 'Olena Loads', `loads-${Date.now()}@example.com`);
  const times: string[] = [];
  for (const route of ROUTES) {
    const started = Date.now();
    await page.goto(route);
    await shown(page);
    const took = Date.now() - started;
    times.push(`${route} ${took} ms`);
    expect(took, times.join(', ')).toBeLessThan(LIMIT_MS);
  }
  // Back shows the page again, from the cache where the browser kept it (on a CI run with traces
  // recorded Chromium declined to keep it, so whether it was restored is not asserted here).
  await page.goBack({ waitUntil: 'commit' });
  await shown(page);
});

test('tabs share one stream, taken over by another tab when its tab goes', async ({ page }) => {
  const streams = countStreams(page);
  await page.context().addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  await signUpVerified(page, 'Taras Tabs', `tabs-${Date.now()}@example.com`);
  const context = page.context();
  const tabs = [page];
  for (const route of ['/leads', '/sources', '/settings', '/profile']) {
    const tab = await context.newPage();
    await tab.goto(route);
    await shown(tab);
    tabs.push(tab);
  }
  await page.goto('/');
  await shown(page);
  await expect.poll(streams).toBe(1);

  // That every tab hears the one stream's events (relayed on the channel) is unit-tested in
  // apps/web/src/lib/shared-stream.test.ts; here, the connections the browser holds.

  // Whichever tab leads, closing tabs one by one leaves one stream open until the last one goes.
  for (const tab of tabs.slice(0, -1)) {
    await tab.close();
    await expect.poll(streams).toBe(1);
  }
  await tabs[tabs.length - 1].close();
  await expect.poll(streams).toBe(0);
});
