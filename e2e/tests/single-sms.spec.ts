import { mkdirSync } from 'node:fs';
import { type APIRequestContext, type Browser, devices, expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { addSimulatorGateway } from './support/gateways.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/single-sms';

const TEXT = {
  uk: {
    button: 'Надіслати SMS',
    byLead: 'Лід',
    phone: 'Номер телефону',
    normalised: 'Буде надіслано на +380501234567',
    tooShort: 'Закороткий для номера телефону.',
    lead: 'Лід',
    message: 'Повідомлення',
    countedWithValues: 'Пораховано зі значеннями вибраного ліда.',
    longLink: 'Посилання на 127.0.0.1',
    redirect: 'Посилання для переходу',
    gateway: 'Шлюз',
    send: 'Надіслати',
    sent: 'Повідомлення надіслано',
    delivered: 'SMS доставлено',
    clicked: 'Перехід за посиланням',
    shortLink: 'Коротке посилання',
    timeline: 'Історія змін',
    refresh: 'Оновити',
    name: 'Олена',
  },
  en: {
    button: 'Send SMS',
    byLead: 'Lead',
    phone: 'Phone number',
    normalised: 'Sent to +380501234567',
    tooShort: 'Too short for a phone number.',
    lead: 'Lead',
    message: 'Message',
    countedWithValues: "Counted with the chosen lead's values.",
    longLink: 'Links on 127.0.0.1',
    redirect: 'Redirect link',
    gateway: 'Gateway',
    send: 'Send',
    sent: 'Message sent',
    delivered: 'SMS delivered',
    clicked: 'Link clicked',
    shortLink: 'Short link',
    timeline: 'Timeline',
    refresh: 'Refresh',
    name: 'Olena',
  },
  ru: {
    button: 'Отправить SMS',
    byLead: 'Лид',
    phone: 'Номер телефона',
    normalised: 'Будет отправлено на +380501234567',
    tooShort: 'Слишком короткий для номера телефона.',
    lead: 'Лид',
    message: 'Сообщение',
    countedWithValues: 'Посчитано со значениями выбранного лида.',
    longLink: 'Ссылки на 127.0.0.1',
    redirect: 'Ссылка для перехода',
    gateway: 'Шлюз',
    send: 'Отправить',
    sent: 'Сообщение отправлено',
    delivered: 'SMS доставлено',
    clicked: 'Переход по ссылке',
    shortLink: 'Короткая ссылка',
    timeline: 'История изменений',
    refresh: 'Обновить',
    name: 'Елена',
  },
} as const;

const PHONE = '+380501234567';
const MESSAGE = 'Hi {{first_name}}, your offer: {{link}}';
// Clicks this soon after a link is made are a carrier's scanner, not a person (bot-filter.ts).
const SCANNER_WINDOW_MS = 2_000;

async function call(request: APIRequestContext, token: string, method: 'GET' | 'POST', url: string, data?: unknown) {
  const res = await request.fetch(`/api${url}`, { method, data, headers: { Authorization: `Bearer ${token}` } });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return res.json();
}

/** A new team with one lead (a first name and a phone); each language gets its own. */
async function teamWithLead(browser: Browser, lang: string, name: string) {
  const page = await browser.newPage();
  await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  await signUpVerified(page, 'Olena Sender', `single-sms-${lang}-${Date.now()}@example.com`);
  const token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  const request = page.request;
  const source = await call(request, token, 'POST', '/sources', { name: 'Expo' });
  const list = await call(request, token, 'POST', `/sources/${source.id}/lists`, { name: 'Visitors' });
  await call(request, token, 'POST', '/lead-attributes', [{ name: 'First name' }]);
  const attributes = (await call(request, token, 'GET', '/lead-attributes')).data as Array<{
    id: number;
    slug: string;
  }>;
  const id = (slug: string) => attributes.find((a) => a.slug === slug)?.id;
  expect(id('first_name')).toBeDefined();
  const lead = await call(request, token, 'POST', '/leads', {
    source_id: source.id,
    list_id: list.id,
    attributes: [
      { attr_id: id('phone'), value: PHONE },
      { attr_id: id('first_name'), value: name },
    ],
  });
  await page.close();
  return { token, leadId: lead.id as number };
}

async function pageIn(browser: Browser, token: string, lang: string): Promise<Page> {
  // A browser's own User-Agent: the headless one names itself and its clicks count as a bot's.
  const userAgent = devices['Desktop Chrome'].userAgent;
  expect(userAgent).not.toMatch(/headless/i);
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, userAgent });
  await context.addInitScript(
    ([t, l]) => {
      localStorage.setItem('herald.token', t);
      localStorage.setItem('herald.lang', l);
    },
    [token, lang],
  );
  return context.newPage();
}

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`sends a single SMS with {{link}} to a lead, sees it Delivered, opens the link and sees the click (${lang})`, async ({
    browser,
    baseURL,
  }) => {
    // A sign-up, a gateway, a send and its reports: over two minutes on a busy 2-core machine.
    test.setTimeout(240_000);
    const text = TEXT[lang];
    const { token, leadId } = await teamWithLead(browser, lang, text.name);
    const page = await pageIn(browser, token, lang);
    await addSimulatorGateway(page, lang, `${SHOTS}/gateway-form-${lang}.png`);

    await page.goto(`/leads/${leadId}`);
    await expect(page.getByText(text.timeline).first()).toBeVisible();
    await page.getByRole('button', { name: text.button }).click();
    const dialog = page.getByRole('dialog', { name: text.button });

    // A typed number shows the form it is sent to, and a refusal says why once the field is left.
    const phone = dialog.getByRole('textbox', { name: text.phone });
    await phone.fill('050 123 45 67');
    await expect(dialog.getByText(text.normalised)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/send-sms-phone-valid-${lang}.png` });
    await phone.fill('050 12');
    await phone.blur();
    await expect(dialog.getByText(text.tooShort)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/send-sms-phone-${lang}.png` });

    // To the lead, found by its number: the message is counted with its first name in it.
    await dialog.getByText(text.byLead, { exact: true }).click();
    await dialog.getByRole('textbox', { name: text.message }).fill(MESSAGE);
    const counter = dialog.getByTestId('sms-counter');
    // Before a lead is chosen, {{first_name}} counts as its 14 characters and {{link}} as 17.
    await expect(counter).toContainText(/^48 /);
    await dialog.getByRole('combobox', { name: text.lead }).fill('501234567');
    // The search names the lead by its first name, then its phone.
    await page.getByRole('option', { name: `${text.name} · ${PHONE}` }).click();
    // "Hi <5-letter name>, your offer: " is 22, and the link 17.
    await expect(counter).toContainText(/^39 /);
    await expect(dialog.getByText(text.countedWithValues)).toBeVisible();
    // The app's own host (127.0.0.1:<port>) is longer than 9 characters, so its links are too.
    await expect(dialog.getByText(text.longLink)).toBeVisible();
    await dialog.getByRole('textbox', { name: text.redirect }).fill(`${baseURL}/api/health`);
    await expect(dialog.getByRole('combobox', { name: text.gateway })).toHaveValue('Simulator');
    await page.screenshot({ path: `${SHOTS}/send-sms-composer-${lang}.png` });
    await dialog.getByRole('button', { name: text.send }).click();
    await expect(page.getByText(text.sent)).toBeVisible();
    // The answer comes after the link was made: the scanners' window is counted from here.
    const sentAt = Date.now();
    await expect(dialog).toBeHidden();

    // Live: the status reaches Delivered without a reload; the Timeline shows the text as sent.
    await expect(page.getByText(text.delivered, { exact: true })).toBeVisible({ timeout: 30_000 });
    const sent = page.getByText(new RegExp(`^Hi ${text.name}, your offer: `));
    await expect(sent).toBeVisible();
    const link = /your offer: (\S+\/[0-9A-Za-z]{7,15})$/.exec((await sent.textContent()) ?? '')?.[1];
    expect(link, 'the short link in the sent text').toMatch(/^127\.0\.0\.1:\d+\/[0-9A-Za-z]{7}$/);
    await page.screenshot({ path: `${SHOTS}/timeline-delivered-${lang}.png` });

    // A person opens it (after the scanners' window) and lands on the redirect target.
    await page.waitForTimeout(Math.max(0, sentAt + SCANNER_WINDOW_MS + 500 - Date.now()));
    const landed = await page.goto(`http://${link}`);
    expect(landed?.status()).toBe(200);
    expect(page.url()).toBe(`${baseURL}/api/health`);

    await page.goto(`/leads/${leadId}`);
    const refresh = page.getByRole('button', { name: text.refresh });
    // Clicks are written in batches a moment after the redirect answers.
    await expect(async () => {
      await refresh.click();
      await expect(page.getByText(text.clicked)).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    await expect(page.getByText(`${text.shortLink}: ${link}`)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/timeline-clicked-${lang}.png` });
    await page.context().close();
  });
}

/** Words of the placeholder and sender checks, as each language shows them. */
const CHECKS = {
  uk: {
    attribute: "Ім'я",
    slug: 'imia',
    fallback: 'друже',
    unknown: 'Жоден атрибут не має змінної {{name}}',
    from: 'Відправник',
    gap: 'одержувач без значення {{imia}} отримає там «друже»',
    preview: 'Попередній перегляд: Привіт, друже!',
    greeting: 'Привіт',
    parts: '1 частина',
  },
  en: {
    attribute: 'First name',
    slug: 'first_name',
    fallback: 'friend',
    unknown: 'No attribute has the placeholder {{name}}',
    from: 'From',
    gap: 'recipient has no {{first_name}} and gets “friend” there',
    preview: 'Preview: Hi, friend!',
    greeting: 'Hi',
    parts: '1 part',
  },
  ru: {
    attribute: 'Имя',
    slug: 'imia',
    fallback: 'друг',
    unknown: 'Ни у одного атрибута нет переменной {{name}}',
    from: 'Отправитель',
    gap: 'получатель без значения {{imia}} получит там «друг»',
    preview: 'Предпросмотр: Привет, друг!',
    greeting: 'Привет',
    parts: '1 часть',
  },
} as const;

async function callIn(
  request: APIRequestContext,
  token: string,
  lang: string,
  method: 'GET' | 'POST',
  url: string,
  data?: unknown,
) {
  const res = await request.fetch(`/api${url}`, {
    method,
    data,
    headers: { Authorization: `Bearer ${token}`, 'Accept-Language': lang },
  });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return res.json();
}

// Each language once, both widths among them: every wording and both layouts are seen.
for (const [lang, width] of [
  ['uk', 1366],
  ['en', 390],
  ['ru', 390],
] as const) {
  test(`refuses a placeholder that names nothing, sends a fallback and the default alpha name (${lang}, ${width} px)`, async ({
    browser,
  }) => {
    // A sign-up, a gateway and the simulator's 30-second review of the alpha name.
    test.setTimeout(240_000);
    const text = TEXT[lang];
    const check = CHECKS[lang];
    const signup = await browser.newPage();
    await signup.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
    await signUpVerified(signup, 'Olena Sender', `placeholders-${lang}-${width}-${Date.now()}@example.com`);
    const token = (await signup.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
    await signup.close();
    const context = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
    await context.addInitScript(
      ([t, l]) => {
        localStorage.setItem('herald.token', t);
        localStorage.setItem('herald.lang', l);
      },
      [token, lang],
    );
    const page = await context.newPage();
    const request = page.request;
    // The attribute is named in the team's language; its slug reads like the word.
    await callIn(request, token, lang, 'POST', '/lead-attributes', [{ name: check.attribute }]);
    const attributes = (await callIn(request, token, lang, 'GET', '/lead-attributes')).data as Array<{
      id: number;
      slug: string;
    }>;
    expect(attributes.map((a) => a.slug)).toContain(check.slug);
    const phoneId = attributes.find((a) => a.slug === 'phone')?.id;
    const source = await callIn(request, token, lang, 'POST', '/sources', { name: 'Expo' });
    const list = await callIn(request, token, lang, 'POST', `/sources/${source.id}/lists`, { name: 'Visitors' });
    // A lead with a phone and no name: it gets the fallback.
    const leadPhone = '+380671230001';
    const lead = await callIn(request, token, lang, 'POST', '/leads', {
      source_id: source.id,
      list_id: list.id,
      attributes: [{ attr_id: phoneId, value: leadPhone }],
    });
    await addSimulatorGateway(page, lang);
    // A team that sends only through the simulator has its alpha name approved by itself (30 s).
    const alpha = `Herald${lang.toUpperCase()}${width === 390 ? 'M' : ''}`;
    await callIn(request, token, lang, 'POST', '/alpha-names/store', { name: alpha });

    await page.goto(`/leads/${lead.id}`);
    await expect(page.getByText(text.timeline).first()).toBeVisible();
    await page.getByRole('button', { name: text.button }).click();
    const dialog = page.getByRole('dialog', { name: text.button });

    // The typed number takes the +380 form when the field is left.
    const phone = dialog.getByRole('textbox', { name: text.phone });
    await phone.fill('067 123 00 02');
    await phone.blur();
    await expect(phone).toHaveValue('+380671230002');

    // A tag that names no attribute is marked in the composer, and the server refuses it with
    // the same words, said once: no toast besides.
    const message = dialog.getByRole('textbox', { name: text.message });
    await message.fill(`${check.greeting}, {{name}}!`);
    await expect(dialog.getByText(check.unknown)).toBeVisible();
    const refused = page.waitForResponse((r) => r.url().includes('/api/leads/single-sms') && r.status() === 422);
    await dialog.getByRole('button', { name: text.send }).click();
    await refused;
    await expect(dialog.getByText(check.unknown)).toHaveCount(1);
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/placeholder-unknown-${lang}-${width}.png` });

    // To the lead without a name: the preview shows the fallback and says who gets it.
    await dialog.getByText(text.byLead, { exact: true }).click();
    await message.fill(`${check.greeting}, {{${check.slug}|${check.fallback}}}!`);
    await dialog.getByRole('combobox', { name: text.lead }).fill('671230001');
    await page.getByRole('option', { name: `#${lead.id} · ${leadPhone}` }).click();
    await expect(dialog.getByText(check.preview)).toBeVisible();
    await expect(dialog.getByText(check.gap)).toBeVisible();

    // The default alpha name, once approved, is the sender the form starts from.
    await expect(async () => {
      const names = (await callIn(request, token, lang, 'GET', '/alpha-names')).data as Array<{ status: number }>;
      expect(names[0]?.status).toBe(1);
    }).toPass({ timeout: 90_000 });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await page.reload();
    await page.getByRole('button', { name: text.button }).click();
    await dialog.getByText(text.byLead, { exact: true }).click();
    await message.fill(`${check.greeting}, {{${check.slug}|${check.fallback}}}!`);
    await dialog.getByRole('combobox', { name: text.lead }).fill('671230001');
    await page.getByRole('option', { name: `#${lead.id} · ${leadPhone}` }).click();
    await expect(dialog.getByRole('combobox', { name: check.from, exact: true })).toHaveValue(alpha);
    await page.screenshot({ path: `${SHOTS}/placeholder-fallback-${lang}-${width}.png` });
    await dialog.getByRole('button', { name: text.send }).click();
    await expect(page.getByText(text.sent)).toBeVisible();
    await expect(dialog).toBeHidden();

    // The Timeline shows the text as sent, from the default alpha name, with its parts.
    await expect(page.getByText(`${check.greeting}, ${check.fallback}!`, { exact: true })).toBeVisible({
      timeout: 30_000,
    });
    const details = page.getByTestId('timeline-message').first();
    await expect(details).toContainText(alpha);
    await expect(details).toContainText('Simulator');
    await expect(details).toContainText(check.parts);
    await page.screenshot({ path: `${SHOTS}/placeholder-timeline-${lang}-${width}.png`, fullPage: true });
    // Nothing on the page is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await context.close();
  });
}
