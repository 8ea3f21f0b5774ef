import { mkdirSync } from 'node:fs';
import { type APIRequestContext, type Browser, chromium, devices, expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { addSimulatorGateway } from './support/gateways.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/short-links';

/** The words each step looks for, in each language. */
const UI = {
  uk: {
    tab: 'Домени коротких посилань',
    empty: 'Доменів не знайдено',
    domain: 'Домен',
    add: 'Додати домен',
    added: 'Домен додано',
    waiting: 'Очікує підтвердження',
    steps: 'Підтвердьте, що домен ваш',
    verifyNow: 'Перевірити зараз',
    verified: 'Домен підтверджено',
    verifiedBadge: 'Підтверджено',
    long: 'замість 17',
    port: 'Домен вказується без порту',
    deleteNamed: 'Видалити',
    deleted: 'Домен видалено',
    button: 'Надіслати SMS',
    message: 'Повідомлення',
    lead: 'Лід',
    redirect: 'Посилання для переходу',
    send: 'Надіслати',
    sent: 'Повідомлення надіслано',
    delivered: 'SMS доставлено',
    timeline: 'Історія змін',
  },
  en: {
    tab: 'Short URL domains',
    empty: 'No Domains Found',
    domain: 'Domain',
    add: 'Add domain',
    added: 'Domain added',
    waiting: 'Waiting for verification',
    steps: 'Prove the domain is yours',
    verifyNow: 'Verify now',
    verified: 'Domain verified',
    verifiedBadge: 'Verified',
    long: 'instead of 17',
    port: 'A domain takes no port',
    deleteNamed: 'Delete',
    deleted: 'Domain deleted',
    button: 'Send SMS',
    message: 'Message',
    lead: 'Lead',
    redirect: 'Redirect link',
    send: 'Send',
    sent: 'Message sent',
    delivered: 'SMS delivered',
    timeline: 'Timeline',
  },
  ru: {
    tab: 'Домены коротких ссылок',
    empty: 'Домены не найдены',
    domain: 'Домен',
    add: 'Добавить домен',
    added: 'Домен добавлен',
    waiting: 'Ожидает подтверждения',
    steps: 'Подтвердите, что домен ваш',
    verifyNow: 'Проверить сейчас',
    verified: 'Домен подтверждён',
    verifiedBadge: 'Подтверждён',
    long: 'вместо 17',
    port: 'Домен указывается без порта',
    deleteNamed: 'Удалить',
    deleted: 'Домен удалён',
    button: 'Отправить SMS',
    message: 'Сообщение',
    lead: 'Лид',
    redirect: 'Ссылка для перехода',
    send: 'Отправить',
    sent: 'Сообщение отправлено',
    delivered: 'SMS доставлено',
    timeline: 'История изменений',
  },
} as const;

const PHONE = '+380501234567';
// An IDN host and a Cyrillic path and query: the browser resolves the host to this server.
const IDN_HOST = 'xn--80aairftm.xn--j1amh';
// Clicks this soon after a link is made are a carrier's scanner, not a person (bot-filter.ts).
const SCANNER_WINDOW_MS = 2_000;

let browser: Browser;

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // Its own browser, so `магазин.укр` (punycode above) reaches this server as a real site would.
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', `--host-resolver-rules=MAP ${IDN_HOST} 127.0.0.1`],
  });
});
test.afterAll(() => browser?.close());

async function call(request: APIRequestContext, token: string, method: 'GET' | 'POST', url: string, data?: unknown) {
  const res = await request.fetch(`/api${url}`, { method, data, headers: { Authorization: `Bearer ${token}` } });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return res.json();
}

/** A new team with one lead; each language gets its own. */
async function teamWithLead(baseURL: string, lang: string) {
  const page = await (await browser.newContext({ baseURL })).newPage();
  await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  await signUpVerified(page, 'Sofia Short', `short-links-${lang}-${Date.now()}@example.com`);
  const token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  const source = await call(page.request, token, 'POST', '/sources', { name: 'Expo' });
  const list = await call(page.request, token, 'POST', `/sources/${source.id}/lists`, { name: 'Visitors' });
  const attributes = (await call(page.request, token, 'GET', '/lead-attributes')).data as Array<{
    id: number;
    slug: string;
  }>;
  const phone = attributes.find((a) => a.slug === 'phone')?.id;
  const lead = await call(page.request, token, 'POST', '/leads', {
    source_id: source.id,
    list_id: list.id,
    attributes: [{ attr_id: phone, value: PHONE }],
  });
  await page.context().close();
  return { token, leadId: lead.id as number };
}

async function pageAs(baseURL: string, token: string, lang: string): Promise<Page> {
  // A browser's own User-Agent: the headless one names itself and its clicks count as a bot's.
  const userAgent = devices['Desktop Chrome'].userAgent;
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 900 }, userAgent });
  await context.addInitScript(
    ([t, l]) => {
      localStorage.setItem('herald.token', t);
      localStorage.setItem('herald.lang', l);
    },
    [token, lang],
  );
  return context.newPage();
}

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`Short URL domain: add, wait for verification, verify; a {{link}} to a Cyrillic URL opens (${lang})`, async ({
    baseURL,
  }) => {
    // A sign-up, a gateway, a send and its reports: over two minutes on a busy 2-core machine.
    test.setTimeout(240_000);
    const ui = UI[lang];
    const base = baseURL as string;
    const port = new URL(base).port;
    const { token, leadId } = await teamWithLead(base, lang);
    const page = await pageAs(base, token, lang);
    await page.goto('/settings');
    await page.getByRole('tab', { name: ui.tab }).click();
    await expect(page).toHaveURL(/\/settings\/short-url-domains$/);
    await expect(page.getByText(ui.empty)).toBeVisible();

    const field = page.getByLabel(ui.domain);
    // A long domain is warned about before it is added: its links take more than 17 characters.
    await field.fill('links.example-shop.com');
    await expect(page.getByText(ui.long)).toBeVisible();
    // A port is refused, and says so.
    await field.fill('go.shp.ua:8080');
    await page.getByRole('button', { name: ui.add }).click();
    await expect(page.getByText(ui.port)).toBeVisible();

    // Unique in the installation, also when the test runs again against the same server.
    const host = `${lang}${Date.now().toString(36).slice(-3)}.shp.ua`;
    await field.fill(`https://${host}/`);
    await page.getByRole('button', { name: ui.add }).click();
    await expect(page.getByText(ui.added)).toBeVisible();
    const card = page.getByRole('listitem', { name: host });
    await expect(card.getByText(ui.waiting)).toBeVisible();
    await expect(card.getByText(ui.steps)).toBeVisible();
    await expect(card.getByText(`_herald.${host}`)).toBeVisible();
    await expect(
      card.getByText(new RegExp(`^http://${host.replace(/\./g, '\\.')}/\\.well-known/herald/[0-9a-f]{32}$`)),
    ).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/domain-waiting-${lang}.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(card.getByRole('button', { name: ui.verifyNow })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/domain-waiting-390-${lang}.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });

    // The check asks this server with the domain as Host (DOMAIN_CHECK_BASE_URL), as DNS would route it.
    await card.getByRole('button', { name: ui.verifyNow }).click();
    await expect(page.getByText(ui.verified)).toBeVisible();
    await expect(card.getByText(ui.verifiedBadge, { exact: true })).toBeVisible();
    await expect(card.getByText(ui.steps)).toBeHidden();
    await page.screenshot({ path: `${SHOTS}/domain-verified-${lang}.png` });

    // A {{link}} to a Cyrillic URL on an IDN host, sent to the lead through a simulator.
    await addSimulatorGateway(page, lang);
    await page.goto(`/leads/${leadId}`);
    await expect(page.getByText(ui.timeline).first()).toBeVisible();
    await page.getByRole('button', { name: ui.button }).click();
    const dialog = page.getByRole('dialog', { name: ui.button });
    await dialog.getByRole('textbox', { name: ui.message }).fill('Sale: {{link}}');
    await dialog.getByText(ui.lead, { exact: true }).click();
    await dialog.getByRole('combobox', { name: ui.lead }).fill('501234567');
    await page.getByRole('option', { name: `#${leadId} · ${PHONE}` }).click();
    await dialog.getByRole('textbox', { name: ui.redirect }).fill(`http://магазин.укр:${port}/api/health?акція=10`);
    await dialog.getByRole('button', { name: ui.send }).click();
    await expect(page.getByText(ui.sent)).toBeVisible();
    const sentAt = Date.now();
    await expect(page.getByText(ui.delivered).first()).toBeVisible({ timeout: 30_000 });
    const sent = page.getByText(/^Sale: /);
    const link = /^Sale: (\S+)$/.exec((await sent.textContent()) ?? '')?.[1] ?? '';
    // Made on the verified domain.
    expect(link).toMatch(new RegExp(`^${host.replace(/\./g, '\\.')}/[0-9A-Za-z]{7,15}$`));

    // Opened (on the app's own host, which serves every team's links) after the scanners' window.
    await page.waitForTimeout(Math.max(0, sentAt + SCANNER_WINDOW_MS + 500 - Date.now()));
    const code = link.split('/')[1];
    const landed = await page.goto(`/${code}`);
    expect(landed?.status()).toBe(200);
    expect(page.url()).toBe(`http://${IDN_HOST}:${port}/api/health?%D0%B0%D0%BA%D1%86%D1%96%D1%8F=10`);
    await page.screenshot({ path: `${SHOTS}/cyrillic-landed-${lang}.png` });

    // Deleting the domain: new links go back to the app's host.
    await page.goto('/settings/short-url-domains');
    await page.getByRole('button', { name: `${ui.deleteNamed} ${host}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: ui.deleteNamed }).click();
    await expect(page.getByText(ui.deleted)).toBeVisible();
    await expect(page.getByText(ui.empty)).toBeVisible();
    await page.context().close();
  });
}
