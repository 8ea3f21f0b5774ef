import { mkdirSync } from 'node:fs';
import { type Browser, expect, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/templates';

/** The words each step looks for, in each language. */
const UI = {
  uk: {
    add: 'Додати SMS-шаблон',
    name: 'Назва',
    message: 'Повідомлення',
    improve: 'Зробити дешевшим',
    plain: 'Застосувати: Прості лапки й тире',
    save: 'Зберегти',
    load: 'Завантажити шаблон',
    select: 'Вибрати шаблон',
    edit: 'Змінити SMS-шаблон',
    saveAs: 'Зберегти як шаблон',
    cancel: 'Скасувати',
    unicode: 'Unicode',
    alphaName: 'Альфа-ім’я',
    addAlpha: 'Додати альфа-ім’я',
    onReview: 'На перевірці',
    created: 'Ви створили нове альфа-ім’я',
    limit: 'Ви вичерпали безкоштовні альфа-імена',
  },
  en: {
    add: 'Add SMS Template',
    name: 'Name',
    message: 'Message',
    improve: 'Make it cheaper',
    plain: 'Apply: Plain quotes and dashes',
    save: 'Save',
    load: 'Load template',
    select: 'Select template',
    edit: 'Update SMS Template',
    saveAs: 'Save as template',
    cancel: 'Cancel',
    unicode: 'Unicode',
    alphaName: 'Alpha name',
    addAlpha: 'Add alpha name',
    onReview: 'On review',
    created: 'You have created new alpha name',
    limit: 'You have reached your free alpha names',
  },
  ru: {
    add: 'Добавить SMS-шаблон',
    name: 'Название',
    message: 'Сообщение',
    improve: 'Сделать дешевле',
    plain: 'Применить: Простые кавычки и тире',
    save: 'Сохранить',
    load: 'Загрузить шаблон',
    select: 'Выбрать шаблон',
    edit: 'Изменить SMS-шаблон',
    saveAs: 'Сохранить как шаблон',
    cancel: 'Отмена',
    unicode: 'Unicode',
    alphaName: 'Альфа-имя',
    addAlpha: 'Добавить альфа-имя',
    onReview: 'На проверке',
    created: 'Вы создали новое альфа-имя',
    limit: 'Вы исчерпали бесплатные альфа-имена',
  },
} as const;

let token = '';
const ADMIN_EMAIL = 'installation-admin@herald.test';
const TAB = { uk: 'Альфа-імена', en: 'Alpha names', ru: 'Альфа-имена' } as const;
const REVIEW = { uk: 'Перевірка альфа-імен', en: 'Alpha name review', ru: 'Проверка альфа-имён' } as const;

async function pageAs(browser: Browser, lang: string, as = token, width = 1366) {
  const context = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
  await context.addInitScript(
    ([t, l]) => {
      localStorage.setItem('herald.token', t);
      localStorage.setItem('herald.lang', l);
    },
    [as, lang],
  );
  return context.newPage();
}

test.beforeAll(async ({ browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  const page = await browser.newPage();
  await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  await signUpVerified(page, 'Taras Templates', `templates-${Date.now()}@example.com`);
  token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  // An attribute named in Ukrainian: its placeholder reads like the word, {{imia}}.
  const made = await page.request.post('/api/lead-attributes', {
    data: [{ name: "Ім'я" }],
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(made.ok(), await made.text()).toBe(true);
  await page.close();
});

/** The refusal of a placeholder that names no attribute, as the composer and the server word it. */
const UNKNOWN = {
  uk: 'Жоден атрибут не має змінної {{name}}',
  en: 'No attribute has the placeholder {{name}}',
  ru: 'Ни у одного атрибута нет переменной {{name}}',
} as const;
const FALLBACK = { uk: 'друже', en: 'friend', ru: 'друг' } as const;

// Each language once, both widths among them: every wording and both layouts are seen.
for (const [lang, width] of [
  ['uk', 1366],
  ['en', 390],
  ['ru', 390],
] as const) {
  test(`a template with a placeholder naming nothing is marked and refused; one with a fallback is saved (${lang}, ${width} px)`, async ({
    browser,
  }) => {
    const ui = UI[lang];
    const page = await pageAs(browser, lang, token, width);
    await page.goto('/sms-templates');
    await page.getByRole('button', { name: ui.add }).click();
    const dialog = page.getByRole('dialog', { name: ui.add });
    const name = `Greeting ${lang} ${width} ${Date.now()}`;
    await dialog.getByRole('textbox', { name: ui.name, exact: true }).fill(name);
    const message = dialog.getByRole('textbox', { name: ui.message, exact: true });
    await message.fill('Hello {{name}}, see you on Sunday!');
    await expect(dialog.getByText(UNKNOWN[lang])).toBeVisible();
    const refused = page.waitForResponse((r) => r.url().includes('/api/config/template/sms') && r.status() === 422);
    await dialog.getByRole('button', { name: ui.save }).click();
    await refused;
    // The server's refusal in the same words, once, under the field; no toast besides.
    await expect(dialog.getByText(UNKNOWN[lang])).toHaveCount(1);
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/template-unknown-${lang}-${width}.png` });

    await message.fill(`Hello {{imia|${FALLBACK[lang]}}}, see you on Sunday!`);
    await expect(dialog.getByText(UNKNOWN[lang])).toHaveCount(0);
    await dialog.getByRole('button', { name: ui.save }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(name)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/template-fallback-${lang}-${width}.png` });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.context().close();
  });
}

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`saves a template with the composer counting parts, then loads it (${lang})`, async ({ browser }) => {
    const ui = UI[lang];
    const page = await pageAs(browser, lang);
    await page.goto('/sms-templates');
    await page.getByRole('button', { name: ui.add }).click();
    const dialog = page.getByRole('dialog', { name: ui.add });
    const name = `Spring ${lang} ${Date.now()}`;
    await dialog.getByRole('textbox', { name: ui.name, exact: true }).fill(name);
    // Latin text turned Unicode by its typographic quotes: 2 parts until they are made plain.
    const text = `Don’t miss our “Spring sale” — everything 20% off until Sunday in every shop: {{link}}`;
    await dialog.getByRole('textbox', { name: ui.message, exact: true }).fill(text);
    const counter = dialog.getByTestId('sms-counter');
    await expect(counter).toContainText(/·\s*2 SMS/);
    await expect(counter).toContainText(ui.unicode);
    await expect(dialog.getByText('’', { exact: true })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/template-unicode-${lang}.png` });

    await dialog.getByRole('button', { name: ui.improve }).click();
    await page.getByRole('button', { name: ui.plain }).click();
    await expect(counter).toContainText(/·\s*1 SMS/);
    await expect(counter).toContainText('GSM-7');
    await expect(dialog.getByRole('textbox', { name: ui.message, exact: true })).toHaveValue(
      `Don't miss our "Spring sale" - everything 20% off until Sunday in every shop: {{link}}`,
    );
    await dialog.getByRole('button', { name: ui.save }).click();
    await expect(dialog).toBeHidden();
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/templates-${lang}.png` });

    // A new template started from the saved one: the composer counts what was loaded.
    await page.getByRole('button', { name: ui.add }).click();
    await dialog.getByRole('button', { name: ui.load }).click();
    await page
      .getByRole('dialog', { name: ui.select })
      .getByRole('row', { name: new RegExp(name) })
      .click();
    await expect(dialog.getByRole('textbox', { name: ui.message, exact: true })).toHaveValue(
      /^Don't miss our "Spring sale"/,
    );
    await expect(counter).toContainText(/·\s*1 SMS/);
    await expect(counter).toContainText('GSM-7');
    await page.screenshot({ path: `${SHOTS}/template-loaded-${lang}.png` });
    await dialog.getByRole('button', { name: ui.cancel }).click();
    await expect(dialog).toBeHidden();

    // Editing it, its text is kept as a second template beside it.
    await page.getByRole('row', { name: new RegExp(name) }).click();
    const editor = page.getByRole('dialog', { name: ui.edit });
    await expect(editor.getByTestId('sms-counter')).toContainText(/·\s*1 SMS/);
    await editor.getByRole('button', { name: ui.saveAs }).click();
    const saveAs = page.getByRole('dialog', { name: ui.saveAs });
    await saveAs.getByRole('textbox', { name: ui.name, exact: true }).fill(`${name} copy`);
    await saveAs.getByRole('button', { name: ui.save }).click();
    await expect(saveAs).toBeHidden();
    await editor.getByRole('button', { name: ui.cancel }).click();
    await expect(page.getByRole('row', { name: new RegExp(`${name} copy`) })).toBeVisible();
    await page.context().close();
  });

  test(`asks for an alpha name, which waits on review; a second is over the Trial's limit (${lang})`, async ({
    browser,
  }) => {
    const ui = UI[lang];
    // A team of its own: the Trial gives one alpha name.
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    await context.addInitScript(() => {
      if (!localStorage.getItem('herald.lang')) localStorage.setItem('herald.lang', 'en');
    });
    const page = await context.newPage();
    await signUpVerified(page, `Alpha ${lang}`, `alpha-${lang}-${Date.now()}@example.com`);
    await page.evaluate((l) => localStorage.setItem('herald.lang', l), lang);
    await page.goto('/alpha-names');
    const alpha = `Shop${lang.toUpperCase()}`;
    await page.getByRole('textbox', { name: ui.alphaName, exact: true }).fill(alpha);
    await page.getByRole('button', { name: ui.addAlpha }).click();
    await expect(page.getByText(ui.created)).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(`${alpha}.*${ui.onReview}`) })).toBeVisible();
    await page.getByRole('textbox', { name: ui.alphaName, exact: true }).fill('Second');
    await page.getByRole('button', { name: ui.addAlpha }).click();
    await expect(page.getByText(ui.limit)).toBeVisible();
    await expect(page.getByRole('row', { name: /Second/ })).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/alpha-names-${lang}.png` });
    await context.close();
  });
}

test('the installation admin approves a name on review; it becomes the team default', async ({ browser }) => {
  const owner = await pageAs(browser, 'en');
  await owner.goto('/alpha-names');
  await owner.getByRole('textbox', { name: 'Alpha name', exact: true }).fill('Kvitka');
  await owner.getByRole('button', { name: 'Add alpha name' }).click();
  await expect(owner.getByRole('row', { name: /Kvitka.*On review/ })).toBeVisible();

  const admin = await browser.newPage();
  await admin.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  await signUpVerified(admin, 'Ivan Installation', ADMIN_EMAIL);
  const adminToken = (await admin.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  await admin.goto('/alpha-names');
  await admin.getByRole('link', { name: REVIEW.en }).click();
  await expect(admin.getByRole('heading', { name: REVIEW.en })).toBeVisible();
  await admin.getByRole('button', { name: 'Approve "Kvitka"' }).click();
  await expect(admin.getByRole('button', { name: 'Approve "Kvitka"' })).toBeHidden();
  await admin.close();

  await owner.reload();
  await expect(owner.getByRole('row', { name: /Kvitka.*Active.*Default/ })).toBeVisible();
  await owner.screenshot({ path: `${SHOTS}/alpha-names-approved-en.png` });
  await owner.context().close();

  // The review page in each language (its queue is empty now), and the settings tab.
  for (const lang of ['uk', 'en', 'ru'] as const) {
    const page = await pageAs(browser, lang, adminToken);
    await page.goto('/admin/alpha-names');
    await expect(page.getByRole('heading', { name: REVIEW[lang] })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/admin-alpha-names-${lang}.png` });
    await page.context().close();
    const settings = await pageAs(browser, lang);
    await settings.goto('/settings/alpha-names');
    await expect(settings.getByRole('tab', { name: TAB[lang], selected: true })).toBeVisible();
    await expect(settings.getByRole('row', { name: /Kvitka/ })).toBeVisible();
    await settings.screenshot({ path: `${SHOTS}/settings-alpha-names-${lang}.png` });
    await settings.context().close();
  }
});

test('someone who is not an installation admin is sent away from the review', async ({ browser }) => {
  const page = await pageAs(browser, 'en');
  await page.goto('/admin/alpha-names');
  await expect(page).toHaveURL(/\/leads$/);
  await page.context().close();
});
