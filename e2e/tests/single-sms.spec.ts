import { type APIRequestContext, type Browser, expect, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';

const TEXT = {
  uk: {
    button: 'Надіслати SMS',
    phone: 'Номер телефону',
    message: 'Повідомлення',
    gateway: 'Шлюз',
    send: 'Надіслати',
    sent: 'Повідомлення надіслано',
    delivered: 'SMS доставлено',
    timeline: 'Історія',
  },
  en: {
    button: 'Send SMS',
    phone: 'Phone number',
    message: 'Message',
    gateway: 'Gateway',
    send: 'Send',
    sent: 'Message sent',
    delivered: 'SMS delivered',
    timeline: 'Timeline',
  },
  ru: {
    button: 'Отправить SMS',
    phone: 'Номер телефона',
    message: 'Сообщение',
    gateway: 'Шлюз',
    send: 'Отправить',
    sent: 'Сообщение отправлено',
    delivered: 'SMS доставлено',
    timeline: 'История',
  },
} as const;

let token = '';
let leadId = 0;
const PHONE = '+380501234567';

async function call(request: APIRequestContext, method: 'GET' | 'POST', url: string, data?: unknown) {
  const res = await request.fetch(`/api${url}`, { method, data, headers: { Authorization: `Bearer ${token}` } });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return res.json();
}

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
  const page = await browser.newPage();
  await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  await signUpVerified(page, 'Olena Sender', `single-sms-${Date.now()}@example.com`);
  token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  const request = page.request;
  // A simulator that delivers everything, half a second after it is handed a message.
  await call(request, 'POST', '/config/gateway/messaging', {
    type: 'simulator',
    name: 'Simulator',
    default: true,
    credentials: { from: 'Herald', latency_ms: '500', delivery_rate: '100', failure_rate: '0', block_rate: '0' },
  });
  const source = await call(request, 'POST', '/sources', { name: 'Expo' });
  const list = await call(request, 'POST', `/sources/${source.id}/lists`, { name: 'Visitors' });
  const attributes = (await call(request, 'GET', '/lead-attributes')).data as Array<{ id: number; slug: string }>;
  const phone = attributes.find((a) => a.slug === 'phone')?.id;
  const lead = await call(request, 'POST', '/leads', {
    source_id: source.id,
    list_id: list.id,
    attributes: [{ attr_id: phone, value: PHONE }],
  });
  leadId = lead.id;
  await page.close();
});

test('sends a single SMS to a lead from the header and watches it reach Delivered in the Timeline (en)', async ({
  browser,
}) => {
  const text = TEXT.en;
  const page = await pageIn(browser, 'en');
  await page.goto(`/leads/${leadId}`);
  await expect(page.getByText(text.timeline).first()).toBeVisible();
  await page.getByRole('button', { name: text.button }).click();
  const dialog = page.getByRole('dialog', { name: text.button });
  await dialog.getByRole('textbox', { name: text.phone }).fill('050 123 45 67');
  await dialog.getByRole('textbox', { name: text.message }).fill('Hello from Herald');
  // The team's one gateway is chosen for the user.
  await expect(dialog.getByRole('combobox', { name: text.gateway })).toHaveValue('Simulator');
  await dialog.getByRole('button', { name: text.send }).click();
  await expect(page.getByText(text.sent)).toBeVisible();
  await expect(dialog).toBeHidden();
  // Live: sent, then delivered, without a reload.
  await expect(page.getByText(text.delivered)).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Hello from Herald')).toBeVisible();
});

test('picks the recipient by searching leads (en)', async ({ browser }) => {
  const page = await pageIn(browser, 'en');
  await page.goto('/leads');
  await page.getByRole('button', { name: 'Send SMS' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send SMS' });
  await dialog.getByText('Lead', { exact: true }).click();
  const lead = dialog.getByRole('combobox', { name: 'Lead' });
  await lead.fill('501234567');
  await page.getByRole('option', { name: `#${leadId} · ${PHONE}` }).click();
  await dialog.getByRole('textbox', { name: 'Message' }).fill('Picked from the search');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Message sent')).toBeVisible();
  await page.goto(`/leads/${leadId}`);
  await expect(page.getByText('Picked from the search')).toBeVisible();
});

for (const lang of ['uk', 'ru'] as const) {
  test(`the Send SMS modal and the Timeline speak ${lang}`, async ({ browser }) => {
    const text = TEXT[lang];
    const page = await pageIn(browser, lang);
    await page.goto(`/leads/${leadId}`);
    await expect(page.getByText(text.delivered).first()).toBeVisible();
    await page.getByRole('button', { name: text.button }).click();
    const dialog = page.getByRole('dialog', { name: text.button });
    await expect(dialog.getByRole('textbox', { name: text.phone })).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: text.message })).toBeVisible();
    await expect(dialog.getByRole('combobox', { name: text.gateway })).toHaveValue('Simulator');
    await expect(dialog.getByRole('button', { name: text.send })).toBeVisible();
  });
}
