import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { openSourcesImport } from './support/sources.ts';
import { googleContacts } from '../../apps/server/test/fixtures/imports/contact-exports.ts';

/** Screenshots for people to look at (not compared). */
const SHOTS = join(import.meta.dirname, '..', '..', '.scratch', 'shots-imports');

test('a Google Contacts export imports with the proposed mapping: every contact with all its phones', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addInitScript(() => {
    if (!localStorage.getItem('herald.lang')) localStorage.setItem('herald.lang', 'en');
  });
  const page = await context.newPage();
  const file = googleContacts();
  await signUpVerified(page, 'Gala Google', `google-contacts-${Date.now()}@example.com`);

  const dialog = page.getByRole('dialog');
  await test.step('drop the export into a new source and list', async () => {
    await openSourcesImport(page);
    await dialog.getByRole('textbox', { name: 'Source' }).fill('Phone book');
    await page.getByRole('option', { name: '+ Create "Phone book"' }).click();
    await dialog.getByRole('textbox', { name: 'List' }).fill('Google');
    await page.getByRole('option', { name: '+ Create "Google"' }).click();
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: file.name, mimeType: 'text/csv', buffer: file.content });
    await expect(dialog.getByRole('heading', { name: 'Match Format' })).toBeVisible({ timeout: 20_000 });
  });

  await test.step('the proposal maps the values, not their labels; accepted as it is', async () => {
    await expect(dialog.getByLabel('Import column "Phone 1 - Value" as')).toHaveValue('Phone');
    await expect(dialog.getByLabel('Import column "Phone 2 - Value" as')).toHaveValue('Phone');
    await expect(dialog.getByLabel('Import column "E-mail 1 - Value" as')).toHaveValue('Email');
    await expect(dialog.getByLabel('Import column "Phone 1 - Label" as')).toHaveValue('Do not import');
    await expect(dialog.getByLabel('Import column "E-mail 1 - Label" as')).toHaveValue('Do not import');
    await page.screenshot({ path: join(SHOTS, 'en-google-match-format.png') });
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(dialog.getByText('Import finished')).toBeVisible({ timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    // One contact had no valid phone: the import says so, with the way to its row.
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'contacts.csv imported; 1 row failed' });
    await expect(toast).toBeVisible();
    await expect(toast.getByRole('button', { name: 'Show the failed rows' })).toBeVisible();
    await page.screenshot({ path: join(SHOTS, 'en-google-imported.png') });
  });

  await test.step('every contact is a lead with all its phones', async () => {
    await page.getByRole('link', { name: 'Phone book' }).click();
    await page.getByRole('link', { name: 'Google' }).click();
    await expect(page.getByRole('heading', { name: 'Google' })).toBeVisible();
    for (const lead of file.leads) {
      const row = page.getByRole('row').filter({ hasText: lead.phones[0] });
      await expect(row).toHaveCount(1);
      for (const phone of lead.phones) await expect(row).toContainText(phone);
      for (const email of lead.emails) await expect(row).toContainText(email);
    }
    await page.screenshot({ path: join(SHOTS, 'en-google-leads.png') });
  });

  await test.step('the default phone country is shown in settings, in each language', async () => {
    await page.goto('/settings/ignore-phone-format');
    await expect(page.getByRole('combobox', { name: 'Default phone country' })).toHaveValue('Ukraine (UA)');
    await page.screenshot({ path: join(SHOTS, 'en-default-country.png') });
    for (const lang of ['uk', 'ru'] as const) {
      await page.evaluate((l) => localStorage.setItem('herald.lang', l), lang);
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByRole('combobox', { name: /Країна телефонів|Страна телефонов/ })).toHaveValue(/\(UA\)$/);
      await page.screenshot({ path: join(SHOTS, `${lang}-default-country.png`) });
    }
  });
});
