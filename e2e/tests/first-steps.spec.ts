import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';

test('a new owner is guided from the empty first screen to a first import, with a sample file in their language', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, acceptDownloads: true });
  await context.addInitScript(() => {
    if (!localStorage.getItem('herald.lang')) localStorage.setItem('herald.lang', 'en');
  });
  const page = await context.newPage();
  await signUpVerified(page, 'Petro First-Steps', `first-steps-${Date.now()}@example.com`);
  const steps = page.getByRole('region', { name: 'Get started' });
  const step = (n: number) => steps.locator(`[data-step="${n}"]`);

  await test.step('the checklist says what to do, nothing done yet', async () => {
    await expect(steps).toBeVisible();
    await expect(step(1)).toHaveAttribute('data-done', 'false');
    await expect(step(2)).toHaveAttribute('data-done', 'false');
    await page.screenshot({ path: 'test-results/first-steps/en-empty.png' });
  });

  let sample = '';
  await test.step('the sample file downloads in the user’s language', async () => {
    const download = page.waitForEvent('download');
    await step(2).getByRole('button', { name: 'Download a sample file' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('herald-sample.csv');
    sample = (await file.path()) ?? '';
    expect(readFileSync(sample, 'utf8').split('\r\n')[0]).toBe('Phone,Email,Name,City');
  });

  await test.step('Create source opens the form on the sources page; the step is ticked', async () => {
    await step(1).getByRole('button', { name: 'Create source' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Source' });
    await dialog.getByLabel('Source Name').fill('Exhibition');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(/\/sources\/\d+$/);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Audiences' }).click();
    await expect(step(1)).toHaveAttribute('data-done', 'true');
  });

  await test.step('the sample imports from the checklist; the import step is ticked', async () => {
    await step(2).getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Source' }).fill('Exhibition');
    await page.getByRole('option', { name: 'Exhibition', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'List' }).fill('Sample');
    await page.getByRole('option', { name: '+ Create "Sample"' }).click();
    // The downloaded file, under the name the browser gave it (Playwright keeps it nameless).
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'herald-sample.csv', mimeType: 'text/csv', buffer: readFileSync(sample) });
    await expect(dialog.getByRole('heading', { name: 'Match Format' })).toBeVisible({ timeout: 20_000 });
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(dialog.getByText('Import finished')).toBeVisible({ timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(step(2)).toHaveAttribute('data-done', 'true');
    await page.screenshot({ path: 'test-results/first-steps/en-imported.png' });
  });

  await test.step('in Ukrainian the checklist and the sample speak Ukrainian', async () => {
    await page.evaluate(() => localStorage.setItem('herald.lang', 'uk'));
    await page.reload();
    const uk = page.getByRole('region', { name: 'Початок роботи' });
    await expect(uk).toBeVisible();
    const download = page.waitForEvent('download');
    await uk.getByRole('button', { name: 'Завантажити зразок файлу' }).click();
    expect((await download).suggestedFilename()).toBe('herald-zrazok.csv');
    await page.screenshot({ path: 'test-results/first-steps/uk-checklist.png' });
  });

  await test.step('the first audience ends the checklist', async () => {
    const uk = page.getByRole('region', { name: 'Початок роботи' });
    await uk.locator('[data-step="3"]').getByRole('button', { name: 'Створити першу аудиторію' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox').first().fill('Усі');
    await dialog.locator('button[type=submit]').click();
    await expect(page).toHaveURL(/\/audiences\/\d+\/leads/);
    await page.getByRole('navigation', { name: 'Головне меню' }).getByRole('link', { name: 'Аудиторії' }).click();
    await expect(page.getByRole('link', { name: 'Усі', exact: true }).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Початок роботи' })).toHaveCount(0);
  });
  await context.close();
});
