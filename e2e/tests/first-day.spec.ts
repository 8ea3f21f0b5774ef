import { mkdirSync } from 'node:fs';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { PASSWORD, signUpVerified } from './support/accounts.ts';
import { AUDIENCE, api, type Seed, seedFirstDay } from './support/first-day-data.ts';
import { linkFromMail } from './support/mail.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/first-day';
const VIEWPORTS = [
  { name: 'laptop', width: 1366, height: 768 },
  { name: 'desktop', width: 1920, height: 1080 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const LANGUAGES = ['uk', 'en', 'ru'] as const;
const USER_MENU = { uk: 'Меню користувача', en: 'User menu', ru: 'Меню пользователя' };
const LOGOUT = { uk: 'Вийти', en: 'Log out', ru: 'Выйти' };
const PROFILE = { uk: 'Профіль', en: 'Profile', ru: 'Профиль' };
const STATUS = { uk: 'Статус', en: 'Status', ru: 'Статус' };
const REASON = { uk: 'Причина', en: 'Reason', ru: 'Причина' };
// The Trial keeps 14 days of history: the import history says so.
const WINDOW = { uk: 'Показано: останні 14 днів', en: 'Shown: the last 14 days', ru: 'Показаны последние 14 дней' };

async function pageAs(browser: Browser, token: string, lang: string, viewport?: { width: number; height: number }) {
  const context = await browser.newContext({ viewport: viewport ?? { width: 1366, height: 768 } });
  await context.addInitScript(
    ([t, l]) => {
      localStorage.setItem('herald.token', t);
      localStorage.setItem('herald.lang', l);
    },
    [token, lang],
  );
  return context.newPage();
}

/** Fails when the element is not wholly inside the viewport (off-screen or behind an overflow). */
async function expectInViewport(page: Page, locator: Locator) {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  expect(box && size, 'element has a box').toBeTruthy();
  if (!box || !size) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(size.width + 1);
}

/**
 * Fails when a header cell or a chip (status, phase) of the screen is cut: its content is wider
 * than its box. Cell values may be cut at two lines on purpose (they show in full on hover).
 */
async function expectNothingClipped(page: Page, screen: string) {
  const clipped = await page.evaluate(() =>
    [...document.querySelectorAll('main th, main .mantine-Badge-root, main .mantine-Badge-label')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()} "${el.textContent?.trim()}" ${el.scrollWidth} > ${el.clientWidth}`),
  );
  expect(clipped, `${screen}: cut header cells or chips`).toEqual([]);
}

/** The page itself never scrolls sideways: wide tables scroll inside their own container. */
async function expectNoPageOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

let ownerToken = '';
let seed: Seed;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await browser.newPage();
  await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  const stamp = Date.now();
  await signUpVerified(page, 'Olena First-Day', `first-day-${stamp}@example.com`);
  ownerToken = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  seed = await seedFirstDay(page, ownerToken);
  await page.context().close();
});

test('an operator who opens an audience link lands on the leads, still signed in', async ({ browser }) => {
  test.setTimeout(240_000);
  const owner = await pageAs(browser, ownerToken, 'en');
  const email = `first-day-operator-${Date.now()}@example.com`;
  await owner.goto('/leads');
  await api(owner, ownerToken, 'post', '/invitations', { email, role: 'team_operator' });
  const invitePath = await linkFromMail(email, '/invite/');
  await owner.context().close();

  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  const operator = await context.newPage();
  await operator.goto(invitePath);
  await operator.getByLabel(/^Full name/).fill('Ivan Operator');
  await operator.getByLabel(/^Password/).fill(PASSWORD);
  await operator.getByLabel(/^Confirm password/).fill(PASSWORD);
  await operator.getByRole('button', { name: 'Register' }).click();
  await expect(operator).toHaveURL(/\/leads$/);

  const refusals: string[] = [];
  operator.on('response', (r) => {
    if (r.status() === 403) refusals.push(r.url());
  });
  await operator.goto('/audiences/1/leads');
  await expect(operator).toHaveURL(/\/leads$/);
  await expect(operator.getByRole('heading', { name: 'Leads', exact: true })).toBeVisible();
  await operator.goto('/audiences/1/segments/2/leads');
  await expect(operator).toHaveURL(/\/leads$/);
  await operator.reload();
  await expect(operator.getByRole('heading', { name: 'Leads', exact: true })).toBeVisible();
  expect(await operator.evaluate(() => localStorage.getItem('herald.token'))).toBeTruthy();
  expect(refusals).toEqual([]);

  // A refusal answered by the server (the role may not read audiences) leaves the session alone.
  const token = (await operator.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  await operator.evaluate(async (t) => {
    const { status } = await fetch('/api/segments/1', { headers: { Authorization: `Bearer ${t}` } });
    if (status !== 403) throw new Error(`expected 403, got ${status}`);
  }, token);
  await operator.goto('/leads');
  await expect(operator.getByRole('heading', { name: 'Leads', exact: true })).toBeVisible();
  await context.close();
});

for (const viewport of VIEWPORTS) {
  for (const lang of LANGUAGES) {
    test(`${viewport.name} ${viewport.width}×${viewport.height} in ${lang}: user menu reachable, key columns in view`, async ({
      browser,
    }) => {
      // Eight screens, each loaded on a machine that may be busy.
      test.setTimeout(300_000);
      mkdirSync(SHOTS, { recursive: true });
      const page = await pageAs(browser, ownerToken, lang, viewport);

      const wide = viewport.width >= 1366;
      const shot = (screen: string) => page.screenshot({ path: `${SHOTS}/${screen}-${viewport.name}-${lang}.png` });

      await page.goto('/leads');
      const leads = page.getByRole('table').first();
      await expect(leads.getByRole('row')).toHaveCount(6, { timeout: 30_000 });
      // The key column of the leads table is the phone: its first cell is on screen.
      await expectInViewport(page, leads.getByRole('cell', { name: '+380501110002' }));
      await expectNoPageOverflow(page);
      await expectNothingClipped(page, 'leads');
      await shot('leads');

      await page.goto(`/sources/${seed.sourceId}/${seed.listId}`);
      const list = page.getByRole('table').first();
      await expect(list.getByRole('cell', { name: '+380501110002' })).toBeVisible({ timeout: 30_000 });
      if (wide) {
        // On a laptop the whole row fits, up to its status (the last column).
        await expectInViewport(page, list.getByRole('cell', { name: '+380501110002' }));
        await expectInViewport(page, list.getByRole('columnheader', { name: STATUS[lang] }));
      } else {
        // On a phone the row's ID stays in view (the phone column may start under the edge).
        await expectInViewport(
          page,
          list.getByRole('cell', { name: '+380501110002' }).locator('xpath=..').getByRole('cell').nth(1),
        );
      }
      await expectNoPageOverflow(page);
      await expectNothingClipped(page, 'list');
      await shot('list');

      await page.goto('/sources');
      const sources = page.getByRole('table').first();
      await expect(sources.getByRole('cell', { name: /Агро-2026/ }).first()).toBeVisible({ timeout: 30_000 });
      await expectInViewport(page, sources.getByRole('cell', { name: /Агро-2026/ }).first());
      await expectNoPageOverflow(page);
      await expectNothingClipped(page, 'sources');
      await shot('sources');

      await page.goto('/');
      const audiences = page.getByRole('table').first();
      const audience = audiences.getByRole('cell', { name: AUDIENCE, exact: true });
      await expect(audience).toBeVisible({ timeout: 30_000 });
      await expectInViewport(page, audience);
      await expectNoPageOverflow(page);
      await expectNothingClipped(page, 'audiences');
      await shot('audiences');

      await page.goto('/settings/import-history');
      const history = page.getByRole('table').first();
      await expect(history.getByRole('cell', { name: /agro_2026/ })).toBeVisible({ timeout: 30_000 });
      await expectInViewport(page, history.getByRole('cell', { name: /agro_2026/ }));
      await expect(page.getByText(WINDOW[lang])).toBeVisible();
      await expectNoPageOverflow(page);
      await expectNothingClipped(page, 'import history');
      await shot('import-history');

      await page.goto(`/settings/import-history/${seed.fileId}`);
      const failed = page.getByRole('table').first();
      await expect(failed.getByRole('row')).toHaveCount(3, { timeout: 30_000 });
      // The reason is what the page is for: in view at every width.
      await expectInViewport(page, failed.getByRole('columnheader', { name: REASON[lang] }));
      await expectNoPageOverflow(page);
      await expectNothingClipped(page, 'failed rows');
      await shot('failed-rows');

      const menu = page.getByRole('button', { name: USER_MENU[lang] });
      await expectInViewport(page, menu);
      await menu.click();
      await expect(page.getByRole('menuitem', { name: PROFILE[lang] })).toBeVisible();
      await expectInViewport(page, page.getByRole('menuitem', { name: LOGOUT[lang] }));
      await shot('user-menu');
      await page.getByRole('menuitem', { name: PROFILE[lang] }).click();
      await expect(page).toHaveURL(/\/profile$/);
      await expectNoPageOverflow(page);
      await shot('profile');
      await page.context().close();
    });
  }
}
