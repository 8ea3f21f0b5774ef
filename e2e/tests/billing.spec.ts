import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { decodeMail } from './support/mail.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/billing';
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

async function pageAs(browser: Browser, token: string, lang: string, viewport = LAPTOP) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(
    ([t, l]) => {
      localStorage.setItem('herald.token', t);
      localStorage.setItem('herald.lang', l);
    },
    [token, lang],
  );
  return context.newPage();
}

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** The mails written to the support address (no SMTP in tests), decoded. */
function supportMails(): string[] {
  const dir = join(process.env.HERALD_E2E_DATA_DIR ?? '', 'mail');
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('-support@herald.test.eml'));
  } catch {
    return [];
  }
  return files.map((f) => decodeMail(readFileSync(join(dir, f), 'utf8')));
}

let ownerToken = '';

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await browser.newPage();
  await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  await signUpVerified(page, 'Olena Billing', `billing-${Date.now()}@example.com`);
  ownerToken = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  await page.context().close();
});

test('request demo from the menu, in Ukrainian: the phone is checked and the request reaches support', async ({
  browser,
}) => {
  const page = await pageAs(browser, ownerToken, 'uk');
  await page.goto('/leads');
  await page.getByRole('button', { name: 'Замовити демо' }).click();
  const dialog = page.getByRole('dialog', { name: 'Замовити демо' });
  await expect(dialog.getByLabel(/^Ім'я/)).toHaveValue('Olena Billing');
  await dialog.getByLabel(/^Телефон/).fill('12ab');
  await dialog.getByLabel(/^Повідомлення/).fill('Покажіть кампанії, будь ласка');
  await dialog.getByRole('button', { name: 'Підтвердити' }).click();
  await expect(dialog.getByText('Введіть коректний номер телефону')).toBeVisible();
  await shot(page, 'demo-uk-laptop');

  await dialog.getByLabel(/^Телефон/).fill('067 123 45 67');
  await dialog.getByRole('button', { name: 'Підтвердити' }).click();
  await expect(page.getByText('Запит на демо надіслано')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect
    .poll(() => supportMails().some((m) => m.includes('Phone: +380671234567') && m.includes('Покажіть кампанії')))
    .toBe(true);
  await page.context().close();
});

test('request demo on a phone: the menu folds and the modal fits', async ({ browser }) => {
  const page = await pageAs(browser, ownerToken, 'en', PHONE);
  await page.goto('/leads');
  await page.getByRole('button', { name: 'Toggle menu' }).click();
  await page.getByRole('button', { name: 'Request demo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request demo' });
  await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeVisible();
  await shot(page, 'demo-en-phone');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.context().close();
});
