import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { expectProcess } from './support/processes.ts';
import { openSourcesImport } from './support/sources.ts';
import { truncateSheetData, xlsx } from '../../apps/server/test/fixtures/imports/hostile-files.ts';

/** Screenshots of the import screens, in each language, for people to look at (not compared). */
const SHOTS = join(import.meta.dirname, '..', '..', '.scratch', 'shots-imports');

async function englishPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addInitScript(() => {
    if (!localStorage.getItem('herald.lang')) localStorage.setItem('herald.lang', 'en');
  });
  return context.newPage();
}

async function expectToast(page: Page, text: string | RegExp) {
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: text }).first()).toBeVisible();
}

/** A CSV with a phone, an e-mail, a column for a new attribute, one ignored column, a duplicate and an invalid phone. */
function leadsCsv(): Buffer {
  return Buffer.from(
    [
      'Phone,E-mail,Company,Note',
      '+380501234567,anna@example.com,Acme,first',
      '0671112233,bohdan@example.com,Globex,second',
      '380501234567,anna.work@example.com,Initech,same phone as the first',
      '777,broken@example.com,Umbrella,phone too short',
    ].join('\n'),
    'utf8',
  );
}

const FILE = { name: 'expo-leads.csv', mimeType: 'text/csv', buffer: leadsCsv() };

/** The drop zone is a button; the file goes to the input behind it, as a drop would deliver it. */
async function dropFile(dialog: Locator, label = 'File to import') {
  await expect(dialog.getByRole('button', { name: label })).toBeVisible();
  await dialog.locator('input[type=file]').setInputFiles(FILE);
}

function counter(scope: Locator, name: string) {
  return scope.getByRole('group', { name, exact: true });
}

test('owner imports a CSV into a new source and list, maps a new attribute, watches it complete and reads the history', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const stamp = Date.now();
  const page = await englishPage(browser);

  await test.step('sign up and verify', async () => {
    await signUpVerified(page, 'Ira Importer', `imports-owner-${stamp}@example.com`);
  });

  const dialog = page.getByRole('dialog');
  await test.step('a file is refused until a source and a list are chosen', async () => {
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Sources' }).click();
    await expect(page.getByText('No Sources Found')).toBeVisible();
    await page.getByRole('button', { name: 'Import' }).click();
    await expect(dialog.getByRole('heading', { name: 'Import file' })).toBeVisible();
    await dropFile(dialog);
    await expect(dialog.getByRole('alert')).toHaveText('Please, select a Source first');
    await expect(dialog.getByText('Choose one or type a new name')).toHaveCount(2);
  });

  await test.step('create the source and the list from the modal, then drop the CSV', async () => {
    await dialog.getByRole('textbox', { name: 'Source' }).fill('Kyiv Expo');
    await page.getByRole('option', { name: '+ Create "Kyiv Expo"' }).click();
    await dialog.getByRole('textbox', { name: 'List' }).fill('Visitors');
    await page.getByRole('option', { name: '+ Create "Visitors"' }).click();
    await expect(dialog.getByText('Choose one or type a new name')).toHaveCount(0);
    await page.screenshot({ path: join(SHOTS, 'en-1-import-file.png') });
    // A file whose extension lies is refused with the server's reason, translated.
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'not-really.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from('Phone\n+380501234567\n'),
    });
    await expect(dialog.getByRole('alert')).toContainText("The file's content does not match its extension.");
    await dropFile(dialog);
    await expect(dialog.getByRole('heading', { name: 'Match Format' })).toBeVisible({ timeout: 20_000 });
  });

  await test.step('Match Format: the proposal is preselected; Company and Note are proposed as new attributes', async () => {
    await expect(dialog.getByLabel('Import column "Phone" as')).toHaveValue('Phone');
    await expect(dialog.getByLabel('Import column "E-mail" as')).toHaveValue('Email');
    await expect(dialog.getByRole('row').filter({ hasText: 'Company' })).toContainText('Acme');
    await expect(dialog.getByLabel('Import column "Company" as')).toHaveValue('New attribute');
    await expect(dialog.getByLabel('Name of the new attribute for "Company"')).toHaveValue('Company');
    // A column can still be left out.
    await expect(dialog.getByLabel('Import column "Note" as')).toHaveValue('New attribute');
    await dialog.getByLabel('Import column "Note" as').click();
    await page.getByRole('option', { name: 'Do not import' }).click();
    await expect(dialog.getByLabel('Import column "Note" as')).toHaveValue('Do not import');
    await page.screenshot({ path: join(SHOTS, 'en-2-match-format.png') });
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expectToast(page, 'File expo-leads.csv import started!');
    await expect(dialog.getByRole('heading', { name: 'Import progress' })).toBeVisible();
  });

  await test.step('the progress modal and the header popover reach Completed', async () => {
    await expect(dialog.getByText('Import finished')).toBeVisible({ timeout: 60_000 });
    await expect(counter(dialog, 'Parsed')).toContainText('4');
    await expect(counter(dialog, 'Failed')).toContainText('1');
    await expect(counter(dialog, 'Invalid')).toContainText('1');
    await page.screenshot({ path: join(SHOTS, 'en-3-import-progress.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);

    await expectProcess(page, 'expo-leads.csv', 'Completed');
  });

  await test.step('the source, the list and its leads are there, with the new attribute column', async () => {
    await expect(page.getByRole('link', { name: 'Kyiv Expo' })).toBeVisible();
    await page.getByRole('link', { name: 'Kyiv Expo' }).click();
    await page.getByRole('link', { name: 'Visitors' }).click();
    await expect(page.getByRole('heading', { name: 'Visitors' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Company' })).toBeVisible();
    // The phone the file holds twice: both rows are leads, each counting the other as a duplicate.
    const twice = page.getByRole('row').filter({ hasText: '+380501234567' });
    await expect(twice).toHaveCount(2);
    await expect(twice.filter({ hasText: 'Acme' })).toContainText('anna@example.com');
    await expect(twice.filter({ hasText: 'Initech' })).toContainText('anna.work@example.com');
    await expect(page.getByRole('row').filter({ hasText: '+380671112233' })).toContainText('Globex');
    await expect(page.getByRole('row').filter({ hasText: 'broken@example.com' })).toHaveCount(0);
  });

  let leadUrl = '';
  await test.step("an imported lead's Timeline shows its creation from the file, with its values", async () => {
    await page
      .getByRole('row')
      .filter({ hasText: '+380671112233' })
      .getByRole('link', { name: /^Open lead #\d+$/ })
      .click();
    const timeline = page.getByRole('list', { name: 'Timeline' }).or(page.getByLabel('Timeline'));
    await expect(timeline.getByText('Lead created')).toBeVisible();
    await expect(timeline.getByText('expo-leads.csv')).toBeVisible();
    await expect(timeline.getByText('Company: Globex')).toBeVisible();
    await page.screenshot({ path: join(SHOTS, 'en-6-imported-lead-timeline.png') });
    leadUrl = page.url();
    await page.goBack();
  });

  await test.step('the import history lists the file; its page shows the failed lead and why', async () => {
    await page.goto('/settings/import-history');
    const table = page.getByRole('table', { name: 'Import history' });
    const row = table.getByRole('row').filter({ hasText: 'expo-leads.csv' });
    await expect(row).toContainText('Completed');
    await page.screenshot({ path: join(SHOTS, 'en-4-import-history.png') });
    await row.getByRole('link', { name: 'Open expo-leads.csv' }).click();
    await expect(page).toHaveURL(/\/settings\/import-history\/\d+$/);
    await expect(page.getByRole('heading', { name: 'expo-leads.csv' })).toBeVisible();
    const failed = page.getByRole('table', { name: 'Failed leads' });
    await expect(failed.getByRole('columnheader', { name: 'Company' })).toBeVisible();
    const bad = failed.getByRole('row').filter({ hasText: 'broken@example.com' });
    await expect(bad).toContainText('Umbrella');
    await expect(bad).toContainText('777');
    await expect(bad).toContainText('is not a valid phone number');
    await page.screenshot({ path: join(SHOTS, 'en-5-failed-leads.png') });
  });

  await test.step('the same screens in Ukrainian and Russian', async () => {
    const fileUrl = page.url();
    const texts = {
      uk: { import: 'Імпорт', file: 'Файл для імпорту', run: 'Імпортувати', done: 'Імпорт завершено' },
      ru: { import: 'Импорт', file: 'Файл для импорта', run: 'Импортировать', done: 'Импорт завершён' },
    };
    for (const lang of ['uk', 'ru'] as const) {
      await page.evaluate((l) => localStorage.setItem('herald.lang', l), lang);
      await page.goto(fileUrl);
      await expect(page.getByRole('heading', { name: 'expo-leads.csv' })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await page.screenshot({ path: join(SHOTS, `${lang}-5-failed-leads.png`) });
      if (lang === 'uk') {
        // The failed rows as a CSV to fix and import again: the attributes by their names (so the
        // new upload maps them back), then the row and the reason in the user's language.
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Завантажити неімпортовані рядки expo-leads.csv у CSV' }).click(),
        ]);
        expect(download.suggestedFilename()).toBe('expo-leads-failed.csv');
        const text = (await readFile(await download.path())).toString('utf8');
        expect(text.split('\r\n')).toEqual([
          '\uFEFFPhone,Email,Company,Рядок,Причина',
          '777,broken@example.com,Umbrella,4,«777» — неправильний номер телефону',
          '',
        ]);
      }
      await page.goto('/settings/import-history');
      await expect(page.getByRole('row').filter({ hasText: 'expo-leads.csv' }).first()).toBeVisible();
      await page.screenshot({ path: join(SHOTS, `${lang}-4-import-history.png`) });
      await page.goto(leadUrl);
      await expect(page.getByText('expo-leads.csv')).toBeVisible();
      await page.screenshot({ path: join(SHOTS, `${lang}-6-imported-lead-timeline.png`) });
      // The modals, opened from the list screen (source and list preset), importing the file again.
      await page.goto('/sources');
      await page.getByRole('link', { name: 'Kyiv Expo' }).click();
      await page.getByRole('link', { name: 'Visitors' }).click();
      // The source screen has an Import button too: wait for the list's, or the modal opens on the
      // source screen and goes with it when the list screen replaces it.
      await expect(page.getByRole('heading', { name: 'Visitors' })).toBeVisible();
      await page.getByRole('button', { name: texts[lang].import, exact: true }).click();
      await expect(dialog.getByRole('textbox').first()).toHaveValue('Kyiv Expo');
      await page.screenshot({ path: join(SHOTS, `${lang}-1-import-file.png`) });
      await dropFile(dialog, texts[lang].file);
      await expect(dialog.getByRole('table')).toBeVisible({ timeout: 20_000 });
      await page.screenshot({ path: join(SHOTS, `${lang}-2-match-format.png`) });
      await dialog.getByRole('button', { name: texts[lang].run, exact: true }).click();
      await expect(dialog.getByText(texts[lang].done)).toBeVisible({ timeout: 60_000 });
      await page.screenshot({ path: join(SHOTS, `${lang}-3-import-progress.png`) });
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
    }
  });
});

type UploadFile = { name: string; mimeType: string; buffer: Buffer };

/** From the Sources screen: a new source and list made in the modal, the file dropped; the modal is at Match Format. */
async function uploadIntoNewList(page: Page, source: string, list: string, file: UploadFile) {
  await openSourcesImport(page);
  const modal = page.getByRole('dialog');
  await modal.getByRole('textbox', { name: 'Source' }).fill(source);
  await page.getByRole('option', { name: `+ Create "${source}"` }).click();
  await modal.getByRole('textbox', { name: 'List' }).fill(list);
  await page.getByRole('option', { name: `+ Create "${list}"` }).click();
  await modal.locator('input[type=file]').setInputFiles(file);
  await expect(modal.getByRole('heading', { name: 'Match Format' })).toBeVisible({ timeout: 30_000 });
  return modal;
}

/** From the Sources screen: a new source and list made in the modal, the file dropped, its proposed mapping run. */
async function importIntoNewList(page: Page, source: string, list: string, file: UploadFile) {
  const modal = await uploadIntoNewList(page, source, list, file);
  await modal.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(modal.getByRole('heading', { name: 'Import progress' })).toBeVisible();
}

/** From the Sources screen: the list holds no lead of the file, and the history shows it ended `status`. */
async function expectNothingLeft(page: Page, source: string, list: string, fileName: string, status: string) {
  await page.getByRole('link', { name: source }).click();
  await page.getByRole('link', { name: list }).click();
  await expect(page.getByRole('heading', { name: list })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: '+38050' })).toHaveCount(0);
  await page.goto('/settings/import-history');
  await expect(page.getByRole('row').filter({ hasText: fileName })).toContainText(status);
}

test('an upload left at Match Format is continued from the import history, in Russian, and runs to Completed', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  const page = await englishPage(browser);
  await signUpVerified(page, 'Roman Returner', `imports-continue-${Date.now()}@example.com`);
  const later = { ...FILE, name: 'walk-ins.csv' };

  await test.step('upload, then leave Match Format without running', async () => {
    const modal = await uploadIntoNewList(page, 'Spring Fair', 'Walk-ins', later);
    await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(modal).toHaveCount(0);
  });

  const row = page.getByRole('table', { name: 'История импорта' }).getByRole('row').filter({ hasText: 'walk-ins.csv' });
  const dialog = page.getByRole('dialog');
  await test.step('the history offers Continue beside Discard; it opens Match Format with the columns read again', async () => {
    await page.evaluate(() => localStorage.setItem('herald.lang', 'ru'));
    await page.goto('/settings/import-history');
    await expect(row).toContainText('Не начат');
    await row.getByRole('button', { name: 'Сопоставить столбцы walk-ins.csv и запустить импорт' }).click();
    await expect(dialog.getByRole('heading', { name: 'Соответствие колонок' })).toBeVisible();
    // The click in the row's actions did not open the file's page.
    await expect(page).toHaveURL(/\/settings\/import-history$/);
    await expect(dialog.getByLabel('Импортировать колонку «Phone» как')).toHaveValue('Телефон');
    await expect(dialog.getByRole('row').filter({ hasText: 'Company' })).toContainText('Acme');
    await page.screenshot({ path: join(SHOTS, 'ru-continue-match-format.png') });
  });

  await test.step('run it: the progress reaches Completed and the row follows', async () => {
    await dialog.getByRole('button', { name: 'Импортировать', exact: true }).click();
    await expectToast(page, 'Импорт файла walk-ins.csv начат!');
    await expect(dialog.getByRole('heading', { name: 'Ход импорта' })).toBeVisible();
    await expect(dialog.getByText('Импорт завершён')).toBeVisible({ timeout: 60_000 });
    await expect(counter(dialog, 'Обработано')).toContainText('3');
    await page.screenshot({ path: join(SHOTS, 'ru-continue-progress.png') });
    await dialog.getByRole('button', { name: 'Закрыть' }).first().click();
    await expect(dialog).toHaveCount(0);
    // The row follows the import's own event, which may come after the modal's.
    await expect(row).toContainText('Завершён', { timeout: 30_000 });
    await expect(row.getByRole('button')).toHaveCount(0);
  });
});

test('owner cancels a large import midway: nothing of it stays in the list', async ({ browser }) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const page = await englishPage(browser);
  await signUpVerified(page, 'Cleo Canceller', `imports-cancel-${Date.now()}@example.com`);
  // Big enough to be caught while it runs on any machine (parse, then publishing in chunks).
  const rows = Array.from({ length: 150_000 }, (_, i) => `+38050${String(1_000_000 + i)},Kyiv`);
  const big = { name: 'big-fair.csv', mimeType: 'text/csv', buffer: Buffer.from(['Phone,City', ...rows].join('\n')) };

  const dialog = page.getByRole('dialog').filter({ hasText: 'Import progress' });
  await test.step('start the import of a big file', async () => {
    await importIntoNewList(page, 'Big Fair', 'Everyone', big);
  });

  await test.step('cancel it, confirming; it takes its leads back and ends Cancelled', async () => {
    await dialog.getByRole('button', { name: 'Cancel import' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel this import?' });
    await expect(confirm).toContainText('nothing of this file stays in the list');
    await page.screenshot({ path: join(SHOTS, 'en-6-cancel-confirm.png') });
    await confirm.getByRole('button', { name: 'Cancel import' }).click();
    await expect(dialog.getByText('Import cancelled: nothing of it was kept')).toBeVisible({ timeout: 120_000 });
    await expect(dialog.getByRole('button', { name: 'Cancel import' })).toHaveCount(0);
    await page.screenshot({ path: join(SHOTS, 'en-7-cancelled.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();

    await expectProcess(page, 'big-fair.csv', 'Cancelled');
  });

  await test.step('the list is empty and the history says Cancelled', async () => {
    await expectNothingLeft(page, 'Big Fair', 'Everyone', 'big-fair.csv', 'Cancelled');
  });
});

test('a file found broken midway shows Failing while its leads are taken back, then Failed with the reason', async ({
  browser,
}) => {
  // Writing and cutting a 100,000-row sheet, then reading it, has taken most of three minutes on a busy machine.
  test.setTimeout(300_000);
  mkdirSync(SHOTS, { recursive: true });
  const page = await englishPage(browser);
  await signUpVerified(page, 'Fedir Failing', `imports-broken-${Date.now()}@example.com`);
  // The sheet's compressed data is cut short: some chunks are published before the reader finds the break.
  const rows = [
    ['Phone', 'City'],
    ...Array.from({ length: 100_000 }, (_, i) => [`+38050${String(2_000_000 + i)}`, 'Lviv']),
  ];
  const broken = {
    name: 'broken-fair.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: truncateSheetData(await xlsx(rows), 0.85),
  };

  const dialog = page.getByRole('dialog').filter({ hasText: 'Import progress' });
  await test.step('start the import of the broken file', async () => {
    await importIntoNewList(page, 'Broken Fair', 'Everyone', broken);
  });

  await test.step('the take-back shows as Failing with the reason, then the import ends Failed', async () => {
    const failing = dialog.getByText('The import cannot finish: taking back the leads imported from the file');
    await expect(failing).toBeVisible({ timeout: 60_000 });
    await expect(dialog.getByRole('alert')).toContainText('Import failed!');
    // Why, under it: the file's fault, not a plan's limit or ours.
    await expect(dialog.getByRole('alert')).toContainText('The file is damaged or cut short');
    await page.screenshot({ path: join(SHOTS, 'en-8-failing.png') });
    await expect(dialog.getByText('Import failed', { exact: true })).toBeVisible({ timeout: 120_000 });
    // The file's fault: nothing is kept, so there is nothing to cancel or resume.
    await expect(dialog.getByRole('button', { name: 'Cancel import' })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Resume import' })).toHaveCount(0);
    // Nothing is kept, so the bar is empty, not at the take-back's last step.
    await expect(dialog.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    await page.screenshot({ path: join(SHOTS, 'en-9-failed.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expectProcess(page, 'broken-fair.xlsx', 'Failed');
  });

  await test.step('nothing of it stays in the list', async () => {
    await expectNothingLeft(page, 'Broken Fair', 'Everyone', 'broken-fair.xlsx', 'Failed');
  });
});

test('an import left running is cancelled from the import history, an upload never run is discarded there', async ({
  browser,
}) => {
  // Two imports and their take-back; at a load of ~16 three minutes were not enough.
  test.setTimeout(300_000);
  const shots = join(import.meta.dirname, '..', '..', '.scratch', 'shots-ui');
  mkdirSync(shots, { recursive: true });
  const page = await englishPage(browser);
  await signUpVerified(page, 'Hanna History', `imports-history-${Date.now()}@example.com`);
  // Still running after the history has been opened, checked and shot in Ukrainian (150,000 rows
  // end within seconds on a fast machine).
  const rows = Array.from({ length: 600_000 }, (_, i) => `+38050${String(3_000_000 + i)},Odesa`);
  const big = { name: 'late-fair.csv', mimeType: 'text/csv', buffer: Buffer.from(['Phone,City', ...rows].join('\n')) };
  const draft = { ...FILE, name: 'draft-leads.csv' };

  await test.step('leave one upload at Match Format, and a big import running with its modal closed', async () => {
    const modal = await uploadIntoNewList(page, 'Draft Fair', 'Maybe', draft);
    await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(modal).toHaveCount(0);
    await importIntoNewList(page, 'Late Fair', 'Everyone', big);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  const table = page.getByRole('table', { name: 'Import history' });
  const running = table.getByRole('row').filter({ hasText: 'late-fair.csv' });
  const unstarted = table.getByRole('row').filter({ hasText: 'draft-leads.csv' });
  await test.step('the history offers Cancel for the running one and Discard for the upload, never Resume', async () => {
    await page.goto('/settings/import-history');
    await expect(running).toContainText('Running');
    await expect(running.getByRole('button', { name: 'Cancel import of late-fair.csv' })).toBeVisible();
    await expect(unstarted).toContainText('Not started');
    await expect(unstarted.getByRole('button', { name: 'Discard draft-leads.csv' })).toBeVisible();
    await expect(table.getByRole('button', { name: /^Resume import/ })).toHaveCount(0);
    await page.evaluate(() => localStorage.setItem('herald.lang', 'uk'));
    await page.reload();
    await expect(page.getByRole('table', { name: 'Історія імпорту' })).toBeVisible();
    await page.getByRole('button', { name: 'Скасувати імпорт late-fair.csv' }).hover();
    await expect(page.getByRole('tooltip', { name: 'Скасувати імпорт' })).toBeVisible();
    await page.screenshot({ path: join(shots, 'uk-import-history-actions.png') });
    await page.evaluate(() => localStorage.setItem('herald.lang', 'en'));
    await page.reload();
  });

  await test.step('cancel the running import from its row, confirming; it ends Cancelled', async () => {
    await running.getByRole('button', { name: 'Cancel import of late-fair.csv' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel this import?' });
    await expect(confirm).toContainText('nothing of this file stays in the list');
    await confirm.getByRole('button', { name: 'Cancel import' }).click();
    await expectToast(page, 'Cancelling the import of late-fair.csv');
    // The confirmation is in the row: its click did not open the file's page.
    await expect(page).toHaveURL(/\/settings\/import-history$/);
    await expect(running).toContainText('Cancelled', { timeout: 120_000 });
    await expect(running.getByRole('button')).toHaveCount(0);
  });

  await test.step("discard the upload from its file's page: it ends Cancelled at once", async () => {
    await unstarted.getByRole('link', { name: 'Open draft-leads.csv' }).click();
    await expect(page.getByRole('heading', { name: 'draft-leads.csv' })).toBeVisible();
    await page.evaluate(() => localStorage.setItem('herald.lang', 'uk'));
    await page.reload();
    await expect(page.getByRole('button', { name: 'Відкинути' })).toBeVisible();
    await page.screenshot({ path: join(shots, 'uk-import-file-discard.png') });
    await page.evaluate(() => localStorage.setItem('herald.lang', 'en'));
    await page.reload();
    await page.getByRole('button', { name: 'Discard' }).click();
    const confirm = page.getByRole('dialog', { name: 'Discard this upload?' });
    await confirm.getByRole('button', { name: 'Discard' }).click();
    await expectToast(page, 'draft-leads.csv discarded');
    await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Discard' })).toHaveCount(0);
    await page.goBack();
    await expect(unstarted).toContainText('Cancelled');
    await expect(unstarted.getByRole('button')).toHaveCount(0);
  });

  await test.step('nothing of the cancelled import stays in its list', async () => {
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Sources' }).click();
    await expectNothingLeft(page, 'Late Fair', 'Everyone', 'late-fair.csv', 'Cancelled');
  });
});
