import { mkdirSync } from 'node:fs';
import { type Browser, expect, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/short-links';

/** The words each step looks for, in each language. */
const UI = {
  uk: {
    tab: 'Домени коротких посилань',
    empty: 'Доменів не знайдено',
    domain: 'Домен',
    add: 'Додати домен',
    added: 'Домен додано',
    enabled: 'Увімкнено',
    long: 'замість 17',
    deleteNamed: 'Видалити',
    deleted: 'Домен видалено',
  },
  en: {
    tab: 'Short URL domains',
    empty: 'No Domains Found',
    domain: 'Domain',
    add: 'Add domain',
    added: 'Domain added',
    enabled: 'Enabled',
    long: 'instead of 17',
    deleteNamed: 'Delete',
    deleted: 'Domain deleted',
  },
  ru: {
    tab: 'Домены коротких ссылок',
    empty: 'Домены не найдены',
    domain: 'Домен',
    add: 'Добавить домен',
    added: 'Домен добавлен',
    enabled: 'Включён',
    long: 'вместо 17',
    deleteNamed: 'Удалить',
    deleted: 'Домен удалён',
  },
} as const;

let token = '';

async function pageAs(browser: Browser, lang: string) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addInitScript(
    ([t, l]) => {
      localStorage.setItem('herald.token', t);
      localStorage.setItem('herald.lang', l);
    },
    [token, lang],
  );
  return context.newPage();
}

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  const page = await browser.newPage();
  await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  await signUpVerified(page, 'Sofia Short', `short-links-${Date.now()}@example.com`);
  token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  await page.close();
});

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`Settings → Short URL domains: add, see it enabled, delete (${lang})`, async ({ browser }) => {
    const ui = UI[lang];
    const page = await pageAs(browser, lang);
    await page.goto('/settings');
    await page.getByRole('tab', { name: ui.tab }).click();
    await expect(page).toHaveURL(/\/settings\/short-url-domains$/);
    await expect(page.getByText(ui.empty)).toBeVisible();

    const host = `${lang}.shp.ua`;
    const field = page.getByLabel(ui.domain);
    // A long domain is warned about before it is added: its links take more than 17 characters.
    await field.fill('links.example-shop.com');
    await expect(page.getByText(ui.long)).toBeVisible();
    await field.fill(`https://${host}/`);
    await page.getByRole('button', { name: ui.add }).click();
    await expect(page.getByText(ui.added)).toBeVisible();
    const row = page.getByRole('row', { name: new RegExp(host.replace(/\./g, '\\.')) });
    await expect(row).toBeVisible();
    await expect(row.getByText(ui.enabled)).toBeVisible();
    await expect(row.getByText(/^17 /)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/short-url-domains-${lang}.png` });

    await row.getByRole('button', { name: `${ui.deleteNamed} ${host}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: ui.deleteNamed }).click();
    await expect(page.getByText(ui.deleted)).toBeVisible();
    await expect(page.getByText(ui.empty)).toBeVisible();
    await page.context().close();
  });
}
