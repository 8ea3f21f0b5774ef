import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { PASSWORD, signUpVerified } from './support/accounts.ts';
import { decodeMail, linkFromMail } from './support/mail.ts';

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

async function shot(page: Page, name: string, fullPage = true) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
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

async function api(page: Page, token: string, method: 'get' | 'post', path: string, data?: unknown) {
  const response = await page.request[method](`/api${path}`, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return response.json();
}

/** The value of a feature of the team's plan in force, as the API says it. */
async function featureValue(page: Page, token: string, slug: string): Promise<number> {
  const user = (await api(page, token, 'get', '/user')) as {
    subscriptions: { features: { slug: string; value: number }[] }[];
  };
  return user.subscriptions[0].features.find((f) => f.slug === slug)?.value ?? 0;
}

/** Tops up through the sandbox checkout as its Pay button would (the UI flow has a test of its own). */
async function topUpViaSandbox(page: Page, token: string, amount: string) {
  const checkout = await api(page, token, 'post', '/balance/topup', { amount });
  const paid = await page.request.post('/checkout/sandbox/complete', {
    form: { data: checkout.data, signature: checkout.signature, decision: 'pay' },
    maxRedirects: 0,
  });
  expect(paid.status()).toBe(303);
}

/** A new team owner, signed up and verified through the UI, and the session's token. */
async function newOwner(browser: Browser, name: string): Promise<string> {
  const page = await browser.newPage();
  await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  await signUpVerified(page, name, `billing-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`);
  const token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  await page.context().close();
  return token;
}

/** Invites an operator by the API and registers them through the mailed link. */
async function addOperator(browser: Browser, ownerToken: string, name: string) {
  const page = await browser.newPage();
  const email = `operator-${Date.now()}@example.com`;
  await api(page, ownerToken, 'post', '/invitations', { email, role: 'team_operator' });
  const token = (await linkFromMail(email, '/invite/')).split('/invite/')[1];
  const registered = await page.request.post('/api/auth/invite/register', {
    data: { name, email, password: PASSWORD, password_confirmation: PASSWORD, token },
  });
  expect(registered.ok()).toBe(true);
  await page.context().close();
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

test('top up through the sandbox checkout, in English: the balance changes live in a second tab', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const token = await newOwner(browser, 'Taras Topup');
  const context = await browser.newContext({ viewport: LAPTOP });
  await context.addInitScript(
    ([t]) => {
      localStorage.setItem('herald.token', t);
      localStorage.setItem('herald.lang', 'en');
    },
    [token],
  );
  const watcher = await context.newPage();
  await watcher.goto('/leads');
  await expect(watcher.getByRole('status', { name: /^Balance:/ })).toHaveText('UAH 0.00');

  const payer = await context.newPage();
  await payer.goto('/profile/transactions');
  await expect(payer.getByText('No Transactions Found')).toBeVisible();
  await payer.getByRole('button', { name: 'Top up balance' }).click();
  const dialog = payer.getByRole('dialog', { name: 'Top up balance' });
  await dialog.getByLabel(/^Amount/).fill('12,34');
  await dialog.getByRole('button', { name: 'Go to payment' }).click();
  await expect(dialog.getByText('Please enter correct amount')).toBeVisible();
  await dialog.getByLabel(/^Amount/).fill('250.50');
  await shot(payer, 'top-up-en-laptop');
  await dialog.getByRole('button', { name: 'Go to payment' }).click();

  await expect(payer.getByRole('heading', { name: 'Sandbox checkout' })).toBeVisible();
  await payer.getByRole('button', { name: 'Pay' }).click();
  // Back on the page, it says how the payment went, and the address loses the order's name.
  await expect(payer.getByText('Payment received. New balance: UAH 250.50')).toBeVisible();
  await expect(payer).toHaveURL(/\/profile\/transactions$/);

  // The other tab heard BalanceChanged: no reload.
  await expect(watcher.getByRole('status', { name: /^Balance:/ })).toHaveText('UAH 250.50');
  const row = payer.getByRole('row', { name: /Top-up by card/ });
  await expect(row).toContainText('UAH 250.50');
  await expect(row).toContainText('Order h');
  await expect(payer.getByRole('group', { name: 'Totals' })).toContainText('Credited: UAH 250.50');
  await shot(payer, 'transactions-en-laptop');
  await context.close();
});

test('share balance to an operator, in Russian: auto-refill offered, the member sees the money', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const token = await newOwner(browser, 'Roman Share');
  await addOperator(browser, token, 'Oksana Operator');
  const page = await pageAs(browser, token, 'ru');
  await page.goto('/profile/team');
  const share = page.getByRole('button', { name: 'Поделиться балансом с Oksana Operator' });
  // No money of one's own yet: the button waits for it.
  await expect(share).toBeDisabled();

  await topUpViaSandbox(page, token, '300');
  await expect(page.getByRole('status', { name: /^Баланс:/ })).toContainText('300,00');
  await expect(share).toBeEnabled();
  await share.click();
  const dialog = page.getByRole('dialog', { name: 'Поделиться балансом с Oksana Operator' });
  await dialog.getByLabel(/^Сумма/).fill('120');
  await dialog.getByLabel('Автопополнение').check();
  await shot(page, 'share-ru-laptop');
  await dialog.getByRole('button', { name: 'Поделиться' }).click();
  await expect(page.getByText('Баланс успешно передан')).toBeVisible();
  await expect(page.getByRole('row', { name: /Oksana Operator/ })).toContainText('120,00');
  await expect(page.getByRole('status', { name: /^Баланс:/ })).toContainText('180,00');
  await shot(page, 'team-ru-laptop');

  const phone = await pageAs(browser, token, 'ru', PHONE);
  await phone.goto('/profile/team');
  await expect(phone.getByRole('row', { name: /Oksana Operator/ })).toBeVisible();
  await shot(phone, 'team-ru-phone');
  await phone.context().close();
  await page.context().close();
});

test('hit the plan limit, in Ukrainian: the refusal is said in the language of the page', async ({ browser }) => {
  const token = await newOwner(browser, 'Ulyana Limit');
  const page = await pageAs(browser, token, 'uk');
  // As many sources as the Trial allows, then one more from the page.
  const limit = await featureValue(page, token, 'source-limit');
  for (let i = 1; i <= limit; i += 1) await api(page, token, 'post', '/sources', { name: `Джерело ${i}` });
  await page.goto('/sources');
  await page.getByRole('button', { name: 'Створити джерело' }).click();
  const dialog = page.getByRole('dialog', { name: 'Створити джерело' });
  await dialog.getByLabel(/^Назва джерела/).fill('Ще одне');
  await dialog.getByRole('button', { name: 'Створити' }).click();
  await expect(
    page.getByText(`Ліміт джерел у вашому тарифі: ${limit}. Видаліть одне або змініть тариф.`).first(),
  ).toBeVisible();
  await shot(page, 'limit-uk-laptop');
  await page.context().close();
});

test('the plans page, in English: the Trial in force, plans with prices, Enterprise to contact, the price list', async ({
  browser,
}) => {
  const page = await pageAs(browser, ownerToken, 'en');
  await page.goto('/profile');
  await expect(page.getByRole('group', { name: 'Plan usage' })).toContainText('Plan: Trial');
  await expect(page.getByRole('group', { name: 'Plan usage' })).toContainText('Imported contacts0/1,000');
  await page.getByRole('link', { name: 'Change plan' }).click();
  await expect(page).toHaveURL(/\/profile\/subscriptions$/);

  const active = page.getByRole('region', { name: 'Active subscription' });
  await expect(active.getByRole('heading', { name: 'Trial' })).toBeVisible();
  await expect(active.getByRole('row', { name: /Team management/ })).toContainText('+');
  const sources = await featureValue(page, ownerToken, 'source-limit');
  await expect(active.getByRole('row', { name: /Sources/ })).toContainText(`0/${sources}`);
  await active.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByText('Coming soon')).toBeVisible();

  // The Trial is never offered; Enterprise has no price and no button.
  await expect(page.getByRole('region', { name: 'Trial' })).toHaveCount(0);
  const starter = page.getByRole('region', { name: 'Starter Pack' });
  await expect(starter).toContainText('UAH 299.00 per month');
  await expect(starter.getByRole('listitem').filter({ hasText: 'Team management' })).toContainText('-');
  await expect(starter.getByRole('button', { name: 'Buy Starter Pack' })).toBeEnabled();
  const enterprise = page.getByRole('region', { name: 'Enterprise' });
  await expect(enterprise).toContainText('Contact us');
  await expect(enterprise.getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Prices' })).toContainText('Phone lookup');
  await shot(page, 'plans-en-laptop');

  const phone = await pageAs(browser, ownerToken, 'en', PHONE);
  await phone.goto('/profile/subscriptions');
  await expect(phone.getByRole('region', { name: 'Basic' })).toBeVisible();
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await shot(phone, 'plans-en-phone');
  await phone.getByRole('button', { name: 'Balance and free SMS' }).click();
  await expect(phone.getByRole('status', { name: /^Balance:/ })).toBeVisible();
  await shot(phone, 'header-en-phone', false);
  await phone.context().close();
  await page.context().close();
});

test('the old profile, in Russian: tabs, and the test tab counts 10 contacts against the import limit', async ({
  browser,
}) => {
  const token = await newOwner(browser, 'Ruslan Classic');
  const page = await pageAs(browser, token, 'ru');
  await page.goto('/old-profile');
  for (const tab of ['Подписки', 'Смена пароля', 'Транзакции', 'Тест']) {
    await expect(page.getByRole('tab', { name: tab })).toBeVisible();
  }
  await page.getByRole('tab', { name: 'Транзакции' }).click();
  await expect(page.getByText('Транзакции не найдены')).toBeVisible();
  await page.getByRole('tab', { name: 'Тест' }).click();
  await expect(page).toHaveURL(/\?tab=test$/);
  await page.getByRole('button', { name: 'Импортировать 10 контактов' }).click();
  await expect(page.getByRole('status').filter({ hasText: '10 контактов засчитано в лимит импорта.' })).toBeVisible();
  await shot(page, 'old-profile-ru-laptop');
  // The card beside counts them at once.
  await page.goto('/profile');
  await expect(page.getByRole('group', { name: 'Использование тарифа' })).toContainText('10/1');
  await page.context().close();
});

test('buy a plan, in English: from the balance at once, then one the balance does not cover through the checkout', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const token = await newOwner(browser, 'Bohdan Buyer');
  const page = await pageAs(browser, token, 'en');
  await topUpViaSandbox(page, token, '300');
  await page.goto('/profile/subscriptions');
  await expect(page.getByRole('status', { name: /^Balance:/ })).toHaveText('UAH 300.00');

  // Buying asks first, naming the plan, its price and what pays it.
  await page.getByRole('button', { name: 'Buy Starter Pack' }).click();
  const confirm = page.getByRole('dialog', { name: 'Buy Starter Pack' });
  await expect(confirm).toContainText(
    'Buy Starter Pack for UAH 299.00 a month? It is paid from your balance (UAH 300.00).',
  );
  await confirm.getByRole('button', { name: 'Buy' }).click();
  await expect(page.getByText('Successfully subscribed to new plan')).toBeVisible();
  // The page reloads 2 s later with the new plan in force.
  const active = page.getByRole('region', { name: 'Active subscription' });
  await expect(active.getByRole('heading', { name: 'Starter Pack' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('status', { name: /^Balance:/ })).toHaveText('UAH 1.00');
  await expect(page.getByRole('status', { name: /^Free SMS:/ })).toHaveText('100 of 100');
  const starter = page.getByRole('region', { name: 'Starter Pack' });
  await expect(starter).toContainText('Your plan');
  // The plan in force is not bought again.
  await expect(starter.getByRole('button', { name: 'Buy Starter Pack' })).toBeDisabled();

  // UAH 1.00 does not cover Basic: the card pays the rest, and the plan follows the payment.
  await expect(page.getByRole('region', { name: 'Basic' })).toContainText(
    'Your balance pays UAH 1.00; UAH 798.00 by card.',
  );
  await page.getByRole('button', { name: 'Buy Basic' }).click();
  const byCard = page.getByRole('dialog', { name: 'Buy Basic' });
  await expect(byCard).toContainText('Your balance pays UAH 1.00; the rest, UAH 798.00, is paid by card');
  await byCard.getByRole('button', { name: 'Buy' }).click();
  await expect(page.getByRole('heading', { name: 'Sandbox checkout' })).toBeVisible();
  await expect(page.getByText('798.00')).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();
  // The checkout returns to the billing history, where both payments are.
  await expect(page.getByText(/Payment received: the plan Basic is yours/)).toBeVisible();
  await expect(page).toHaveURL(/\/profile\/transactions$/);
  await expect(page.getByRole('row', { name: /Plan payment/ }).first()).toBeVisible();
  await expect(page.getByRole('row', { name: /Plan payment/ }).filter({ hasText: '-UAH 299.00' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Plan “Basic”, paid by card/ })).toContainText('-UAH 799.00');
  await page.goto('/profile/subscriptions');
  await expect(active.getByRole('heading', { name: 'Basic' })).toBeVisible({ timeout: 15_000 });
  await shot(page, 'bought-en-laptop');
  await page.context().close();
});

/** The Starter Pack's import limit (the shipped figure; e2e/fixtures/plans.json raises only the Trial's). */
const STARTER = { id: 2, importLimit: 5_000 };

const LIMIT_TEXTS = {
  uk: {
    failed: 'Імпорт не вдався!',
    why: 'У файлі більше лідів, ніж ваш тариф ще дозволяє імпортувати.',
    topUp: 'Поповнити баланс',
    submit: 'Перейти до оплати',
    field: 'Будь ласка, введіть коректну суму',
    alert: 'Коректне число',
  },
  en: {
    failed: 'Import failed!',
    why: 'The file holds more leads than your plan still lets you import.',
    topUp: 'Top up balance',
    submit: 'Go to payment',
    field: 'Please enter correct amount',
    alert: 'Correct number',
  },
  ru: {
    failed: 'Импорт не удался!',
    why: 'В файле больше лидов, чем ваш тариф ещё позволяет импортировать.',
    topUp: 'Пополнить баланс',
    submit: 'Перейти к оплате',
    field: 'Пожалуйста, введите корректную сумму',
    alert: 'Корректное число',
  },
} as const;

test('hit the import limit, in Ukrainian, English and Russian: the import fails with the translated alert', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  // The Starter Pack keeps the shipped import limit, so the other specs' large Trial stays as it is.
  const token = await newOwner(browser, 'Iryna Importer');
  const setup = await browser.newPage();
  await topUpViaSandbox(setup, token, '299');
  expect((await api(setup, token, 'post', '/balance/subscribe', { plan_id: STARTER.id })).status).toBe('subscribed');
  expect(await featureValue(setup, token, 'import-limit')).toBe(STARTER.importLimit);
  const source = await api(setup, token, 'post', '/sources', { name: 'Limit' });
  const list = await api(setup, token, 'post', `/sources/${source.id}/lists`, { name: 'Limit list' });
  const attributes = (await api(setup, token, 'get', '/lead-attributes')) as { data: { slug: string; id: number }[] };
  const phone = attributes.data.find((a) => a.slug === 'phone')?.id;
  // One row more than the whole limit.
  const rows = Array.from({ length: STARTER.importLimit + 1 }, (_, i) => `+38050${String(1_000_000 + i)}`);
  const file = Buffer.from(['Phone', ...rows].join('\n'));
  await setup.context().close();

  for (const lang of ['uk', 'en', 'ru'] as const) {
    const text = LIMIT_TEXTS[lang];
    const page = await pageAs(browser, token, lang);
    await page.goto('/profile/transactions');
    await expect(page.getByRole('status', { name: /:/ }).first()).toBeVisible();
    const uploaded = await page.request.post('/api/imports', {
      headers: { Authorization: `Bearer ${token}` },
      multipart: {
        black_list: '0',
        'list_id[0]': String(list.id),
        file: { name: `limit-${lang}.csv`, mimeType: 'text/csv', buffer: file },
      },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    const doc = (await uploaded.json()) as { id: number; attributes: { id: number; name: string }[] };
    await api(page, token, 'post', `/sync-import/${doc.id}/import-attributes/multiple`, {
      list: doc.attributes.map((c) => ({ processing_document_attribute_id: c.id, lead_attribute_id: phone })),
    });
    await api(page, token, 'post', `/imports/${doc.id}/dispatch`);
    // Wherever the user is, the failure is announced in the page's language, with the plan's reason.
    const alert = page.getByRole('alert').filter({ hasText: text.failed });
    await expect(alert).toContainText(`limit-${lang}.csv: ${text.why}`, { timeout: 120_000 });
    await shot(page, `import-limit-${lang}-laptop`, false);

    // An amount the top-up cannot take: 'Correct number' in the alert, the field's reason under it.
    await page.getByRole('button', { name: text.topUp }).first().click();
    const dialog = page.getByRole('dialog', { name: text.topUp });
    await dialog.getByRole('textbox').fill('12,34');
    await dialog.getByRole('button', { name: text.submit }).click();
    await expect(dialog.getByText(text.field)).toBeVisible();
    await expect(dialog.getByText(text.alert, { exact: true })).toBeVisible();
    await shot(page, `top-up-refused-${lang}-laptop`, false);
    await page.context().close();
  }
});

/** The words of the payment round trips, per language (the web's and the test checkout's). */
const ROUND_TRIP = {
  uk: {
    topUp: 'Поповнити баланс',
    go: 'Перейти до оплати',
    test: 'Тестові платежі — без справжніх грошей',
    checkout: 'Тестова оплата',
    pay: 'Сплатити',
    decline: 'Відхилити',
    paid: /^Оплату отримано\. Новий баланс: 40,00\sгрн\.?$/,
    declined: 'Оплату відхилено. Нічого не списано.',
    row: 'Поповнення карткою',
    wallet: 'Баланс і безкоштовні SMS',
  },
  en: {
    topUp: 'Top up balance',
    go: 'Go to payment',
    test: 'Test payments — no real money',
    checkout: 'Sandbox checkout',
    pay: 'Pay',
    decline: 'Decline',
    paid: /^Payment received\. New balance: UAH\s40\.00$/,
    declined: 'Payment declined. Nothing was charged.',
    row: 'Top-up by card',
    wallet: 'Balance and free SMS',
  },
  ru: {
    topUp: 'Пополнить баланс',
    go: 'Перейти к оплате',
    test: 'Тестовые платежи — без настоящих денег',
    checkout: 'Тестовая оплата',
    pay: 'Оплатить',
    decline: 'Отклонить',
    paid: /^Оплата получена\. Новый баланс: 40,00\sгрн\.?$/,
    declined: 'Оплата отклонена. Ничего не списано.',
    row: 'Пополнение картой',
    wallet: 'Баланс и бесплатные SMS',
  },
} as const;

for (const [lang, w] of Object.entries(ROUND_TRIP)) {
  for (const [device, viewport] of [
    ['laptop', LAPTOP],
    ['phone', PHONE],
  ] as const) {
    test(`the payment round trips say what happened, in ${lang} on a ${device}: test payments marked, declined, then paid`, async ({
      browser,
    }) => {
      test.setTimeout(150_000);
      const token = await newOwner(browser, `Payer ${lang} ${device}`);
      const page = await pageAs(browser, token, lang, viewport);
      await page.goto('/profile/transactions');
      // On a phone the balance folds behind the wallet button, the test mark with it.
      const openWallet = async () => {
        if (device !== 'phone') return;
        await page.getByRole('button', { name: w.wallet }).click();
        await expect(page.getByText(w.test)).toBeVisible();
      };
      const topUp = async (amount: string) => {
        await openWallet();
        await page.getByRole('button', { name: w.topUp }).click();
        const dialog = page.getByRole('dialog', { name: w.topUp });
        await expect(dialog.getByTestId('top-up-test-payments')).toHaveText(new RegExp(w.test));
        await dialog.getByRole('textbox').fill(amount);
        await dialog.getByRole('button', { name: w.go }).click();
        await expect(page.getByRole('heading', { name: w.checkout })).toBeVisible();
        await expect(page.getByTestId('test-payments')).toHaveText(w.test);
      };
      if (device === 'laptop') await expect(page.getByTestId('test-payments')).toBeVisible();

      await topUp('15');
      await shot(page, `checkout-${lang}-${device}`);
      await page.getByRole('button', { name: w.decline }).click();
      await expect(page.getByText(w.declined)).toBeVisible();
      await expect(page).toHaveURL(/\/profile\/transactions$/);

      await topUp('40');
      await page.getByRole('button', { name: w.pay }).click();
      await expect(page.getByText(w.paid)).toBeVisible();
      await expect(page.getByRole('row', { name: new RegExp(w.row) })).toBeVisible();
      await shot(page, `paid-${lang}-${device}`);
      // Nothing is wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.context().close();
    });
  }
}
