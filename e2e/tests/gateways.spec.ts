import { mkdirSync } from 'node:fs';
import { type Browser, expect, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/gateways';

const TEXT = {
  uk: {
    tab: 'SMS-шлюзи',
    empty: 'Немає SMS-шлюзів',
    add: 'Додати шлюз',
    type: 'Тип',
    name: 'Назва',
    save: 'Зберегти',
    test: 'Перевірити з’єднання',
    connected: 'з’єднання встановлено',
    remove: 'Видалити',
    default: 'За замовчуванням',
    edit: 'Редагувати',
    sidMissing: 'Заповніть поле «Account SID».',
  },
  en: {
    tab: 'SMS Gateways',
    empty: 'No SMS Gateway',
    add: 'Add gateway',
    type: 'Type',
    name: 'Name',
    save: 'Save',
    test: 'Test connection of',
    connected: 'connected',
    remove: 'Delete',
    default: 'Default',
    edit: 'Edit',
    sidMissing: 'Fill in Account SID.',
  },
  ru: {
    tab: 'SMS-шлюзы',
    empty: 'Нет SMS-шлюзов',
    add: 'Добавить шлюз',
    type: 'Тип',
    name: 'Название',
    save: 'Сохранить',
    test: 'Проверить соединение',
    connected: 'соединение установлено',
    remove: 'Удалить',
    default: 'По умолчанию',
    edit: 'Редактировать',
    sidMissing: 'Заполните поле «Account SID».',
  },
} as const;

let token = '';

async function pageIn(browser: Browser, lang: string) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
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
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  const page = await browser.newPage();
  await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  await signUpVerified(page, 'Olena Gateways', `gateways-${Date.now()}@example.com`);
  token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  await page.close();
});

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`adds a simulator gateway, tests its connection and deletes it (${lang})`, async ({ browser }) => {
    const text = TEXT[lang];
    const page = await pageIn(browser, lang);
    await page.goto('/settings');
    await expect(page.getByRole('tab', { name: text.tab })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText(text.empty)).toBeVisible();

    await page.getByRole('button', { name: text.add }).click();
    const dialog = page.getByRole('dialog');
    const name = dialog.getByRole('textbox', { name: text.name, exact: true });
    // The name follows the type while the user has not typed one.
    await expect(name).toHaveValue('Simulator');
    await dialog.getByRole('combobox', { name: text.type }).click();
    await page.getByRole('option', { name: 'Twilio' }).click();
    await expect(name).toHaveValue('Twilio');
    // Each type asks for its own credentials, and says which are missing.
    await dialog.getByRole('button', { name: text.save }).click();
    await expect(dialog.getByText(text.sidMissing)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/sms-gateway-form-${lang}.png`, fullPage: true });
    await dialog.getByRole('combobox', { name: text.type }).click();
    await page.getByRole('option', { name: 'Simulator' }).click();
    await expect(name).toHaveValue('Simulator');
    await dialog.getByRole('button', { name: text.save }).click();
    await expect(dialog).toBeHidden();

    const row = page.getByRole('row', { name: /Simulator/ });
    await expect(row).toBeVisible();
    await page.getByRole('button', { name: `${text.test} Simulator` }).click();
    await expect(page.getByText(`Simulator: ${text.connected}`)).toBeVisible({ timeout: 20_000 });
    await page.screenshot({ path: `${SHOTS}/sms-gateways-${lang}.png`, fullPage: true });

    await page.getByRole('button', { name: `${text.remove} Simulator` }).click();
    await page.getByRole('dialog').getByRole('button', { name: text.remove }).click();
    await expect(page.getByText(text.empty)).toBeVisible();
    await page.context().close();
  });
}

test('the default gateway is dimmed and offers neither edit nor delete', async ({ browser }) => {
  const text = TEXT.en;
  const page = await pageIn(browser, 'en');
  await page.goto('/settings');
  await page.getByRole('button', { name: text.add }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /^Name/ }).fill('Main sender');
  await dialog.getByRole('checkbox', { name: text.default }).check();
  await dialog.getByRole('button', { name: text.save }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: /Main sender/ });
  await expect(row).toHaveCSS('opacity', '0.6');
  await expect(page.getByRole('button', { name: `${text.test} Main sender` })).toBeVisible();
  await expect(page.getByRole('button', { name: `${text.edit} Main sender` })).toHaveCount(0);
  await expect(page.getByRole('button', { name: `${text.remove} Main sender` })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/sms-gateways-default-en.png`, fullPage: true });
  await page.context().close();
});
