import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { api } from './support/first-day-data.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/lookups';

/** The screens' own words, read from the catalogues the web ships. */
function words(lang: string) {
  const read = (ns: string) =>
    JSON.parse(readFileSync(new URL(`../../apps/web/src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
  return {
    l: read('lookups'),
    common: read('common'),
    sources: read('sources'),
    segments: read('segments'),
    messages: read('messages'),
  };
}
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ''));
/** A template with its values left open, as a pattern: "Checked: {{done}} of {{phones}}" → /Checked: (\d+) of 16/. */
const pattern = (text: string, values: Record<string, string | number> = {}) =>
  new RegExp(
    text
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{\{(\w+)\}\}/g, (_, key: string) => (key in values ? String(values[key]) : '(\\d+)')),
  );

/** Kyivstar, Vodafone Ukraine and lifecell mobiles, and Kyiv landlines: what the simulator knows. */
const PREFIXES = ['+38067', '+38050', '+38063', '+38044'];
const PHONES = 12;
const MOBILES = 9;

/**
 * A simulator that looks up one phone a second (so a lookup of 12 can be watched and paused), money
 * for the lookups, and a source with one list of 12 phones, a quarter of them landlines.
 */
async function seed(page: Page, token: string, lang: string) {
  await api(page, token, 'post', '/config/gateway/messaging', {
    type: 'simulator',
    name: 'Simulator',
    active: true,
    // A gateway that looks up is not a sender's default (it may be lookup-only).
    default: false,
    allow_lookup: true,
    credentials: {
      delivery_rate: '100',
      failure_rate: '0',
      block_rate: '0',
      latency_ms: '1000',
      lookups_per_second: '1',
      lookup_latency_ms: '200',
    },
  });
  const checkout = await api(page, token, 'post', '/balance/topup', { amount: '100' });
  const paid = await page.request.post('/checkout/sandbox/complete', {
    form: { data: checkout.data, signature: checkout.signature, decision: 'pay' },
    maxRedirects: 0,
  });
  expect(paid.status()).toBe(303);
  const attributes = (await api(page, token, 'get', '/lead-attributes')) as { data: { id: number; type: string }[] };
  const phone = attributes.data.find((a) => a.type === 'phone')?.id ?? 0;
  const source = await api(page, token, 'post', '/sources', { name: `Виставка ${lang}` });
  const list = await api(page, token, 'post', `/sources/${source.id}/lists`, { name: 'Відвідувачі' });
  const n = { uk: 1, en: 2, ru: 3 }[lang];
  for (let i = 0; i < PHONES; i++)
    await api(page, token, 'post', '/leads', {
      source_id: source.id,
      list_id: list.id,
      attributes: [{ attr_id: phone, value: `${PREFIXES[i % 4]}${n}4${String(1000 + i).slice(1)}00` }],
    });
  return { source: source as { id: number; name: string }, list: list as { id: number; name: string } };
}

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`a list looked up with the simulator: watched, paused and resumed, its carriers, bars and mobiles (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { l, common, sources, segments, messages } = words(lang);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
    await signUpVerified(page, 'Olena Lookup', `lookups-${lang}-${Date.now()}@example.com`);
    const token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
    await page.evaluate((lg) => localStorage.setItem('herald.lang', lg), lang);
    await page.addInitScript((lg) => localStorage.setItem('herald.lang', lg), lang);
    const { source, list } = await seed(page, token, lang);

    // From /sources: the source selected, the dialog's figures, then the start.
    await page.goto('/sources');
    await page.getByRole('checkbox', { name: fill(common.table.selectRow, { name: source.name }) }).check();
    await page.getByRole('button', { name: fill(l.lookupSelected, { count: 1 }) }).click();
    const dialog = page.getByRole('dialog', { name: l.startTitle });
    await expect(dialog.locator('[data-figure="previewPhones"]')).toHaveText(String(PHONES));
    await expect(dialog.locator('[data-figure="previewFresh"]')).toHaveText('0');
    await page.waitForTimeout(400); // the dialog's fade-in, for the screenshot
    await page.screenshot({ path: `${SHOTS}/start-${lang}-1366.png` });
    await dialog.getByRole('button', { name: l.startLookup }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(messages.lookup_has_been_started, { exact: true })).toBeVisible();

    // The popover counts up the phones checked, and stops the lookup.
    await page.getByRole('button', { name: common.processes.title }).click();
    const progress = page.getByText(pattern(common.processes.message.lookup_progress, { phones: PHONES }));
    await expect(progress).toBeVisible();
    const first = Number(
      pattern(common.processes.message.lookup_progress, { phones: PHONES }).exec(await progress.innerText())?.[1],
    );
    await expect
      .poll(async () =>
        Number(
          pattern(common.processes.message.lookup_progress, { phones: PHONES }).exec(await progress.innerText())?.[1],
        ),
      )
      .toBeGreaterThan(first);
    await page.screenshot({ path: `${SHOTS}/popover-running-${lang}-1366.png` });
    await page.getByRole('button', { name: pattern(l.stopNamed, { name: '.+' }) }).click();
    await expect(page.getByRole('button', { name: pattern(l.startNamed, { name: '.+' }) })).toBeVisible();
    await page.keyboard.press('Escape');

    // The table: paused, with the phones left; started again from its row, it completes.
    await page.goto('/lookup-management');
    const row = page.getByRole('row').filter({ hasText: list.name });
    await expect(row.locator('[data-lookup-status="2"]')).toHaveText(l.status['2']);
    await expect(row.getByRole('link', { name: source.name })).toHaveAttribute('href', `/sources/${source.id}`);
    await expect(row.getByRole('link', { name: list.name })).toHaveAttribute(
      'href',
      `/sources/${source.id}/${list.id}`,
    );
    await page.screenshot({ path: `${SHOTS}/table-paused-${lang}-1366.png` });
    await row.getByRole('button', { name: fill(l.startNamed, { name: list.name }) }).click();
    await expect(row.locator('[data-lookup-status="1"]')).toBeVisible();
    await expect(row.locator('[data-lookup-status="3"]')).toHaveText(l.status['3'], { timeout: 30_000 });
    await expect(row.locator('[data-lookup-percent]')).toHaveText(/100/);
    await page.screenshot({ path: `${SHOTS}/table-completed-${lang}-1366.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/table-completed-${lang}-390.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.setViewportSize({ width: 1366, height: 900 });

    // The source's bars: every phone looked up.
    await page.goto('/sources');
    await expect(page.getByRole('progressbar', { name: new RegExp(`^${sources.lookup}: 100`) })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/sources-bars-${lang}-1366.png` });

    // An audience of the mobiles only.
    const audience = await api(page, token, 'post', '/segments', { name: `Mobiles ${lang}` });
    await page.goto(`/audiences/${audience.id}/leads`);
    await page.getByRole('button', { name: segments.addCondition }).click();
    await page.getByRole('combobox', { name: fill(segments.filterOf, { n: 1 }), exact: true }).click();
    await page.getByRole('option', { name: segments.filter.carrier_type, exact: true }).click();
    await page.getByRole('combobox', { name: fill(segments.valuesOf, { n: 1 }), exact: true }).click();
    await page.getByRole('option', { name: l.carrierType.mobile, exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: segments.saveFilters }).click();
    await expect(page.getByRole('link', { name: `${segments.totalLeads}: ${MOBILES}` })).toBeVisible();
    // Each phone with what the lookup found: valid, the carrier and the line type.
    await expect(page.getByText(`Kyivstar · ${l.carrierType.mobile}`).first()).toBeVisible();
    await expect(page.locator('[data-phone-check="valid"][data-carrier-type="mobile"]').first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/audience-mobiles-${lang}-1366.png`, fullPage: true });
  });
}
