import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { api } from './support/first-day-data.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/campaigns-lookup-step';

/** The screens' own words, read from the catalogues the web ships. */
function words(lang: string) {
  const read = (ns: string) =>
    JSON.parse(readFileSync(new URL(`../../apps/web/src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
  return { c: read('campaigns'), l: read('lookups') };
}
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ''));

/**
 * Simulators that send and look up (Kyivstar mobiles and a Kyiv landline, as it knows them),
 * money for the lookups, and a campaign over a list of four phones, ready for its steps.
 */
async function seed(page: Page, token: string, lang: string) {
  // A gateway that looks up is no sender (it may be lookup-only): one of each.
  const sender = await api(page, token, 'post', '/config/gateway/messaging', {
    type: 'simulator',
    name: 'Sender',
    active: true,
    credentials: { from: 'Herald', delivery_rate: '100', latency_ms: '0' },
  });
  const gateway = await api(page, token, 'post', '/config/gateway/messaging', {
    type: 'simulator',
    name: 'Carrier DB',
    active: true,
    allow_lookup: true,
    credentials: { from: 'Herald', delivery_rate: '100', latency_ms: '0', lookup_latency_ms: '300' },
  });
  const checkout = await api(page, token, 'post', '/balance/topup', { amount: '100' });
  const paid = await page.request.post('/checkout/sandbox/complete', {
    form: { data: checkout.data, signature: checkout.signature, decision: 'pay' },
    maxRedirects: 0,
  });
  expect(paid.status()).toBe(303);
  const attributes = (await api(page, token, 'get', '/lead-attributes')) as { data: { id: number; type: string }[] };
  const phone = attributes.data.find((a) => a.type === 'phone')?.id ?? 0;
  const source = await api(page, token, 'post', '/sources', { name: `Lookup step ${lang}` });
  const list = await api(page, token, 'post', `/sources/${source.id}/lists`, { name: 'Visitors' });
  const n = { uk: 1, en: 2, ru: 3 }[lang];
  for (const prefix of ['+38067', '+38067', '+38067', '+38044'])
    await api(page, token, 'post', '/leads', {
      source_id: source.id,
      list_id: list.id,
      attributes: [
        { attr_id: phone, value: `${prefix}${n}5${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}` },
      ],
    });
  const campaign = await api(page, token, 'post', '/campaigns', { name: `Verified ${lang}`, gateway_id: sender.id });
  await api(page, token, 'post', `/campaigns/${campaign.id}/audiences`, { kind: 'list', ref_ids: [list.id] });
  return { campaign: campaign as { id: number }, gateway: gateway as { id: number; name: string } };
}

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`a lookup step before an SMS step: added in the composer, run, its findings shown, and on the statistics (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const { c, l } = words(lang);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
    await signUpVerified(page, 'Olena Lookup Step', `campaigns-lookup-${lang}-${Date.now()}@example.com`);
    const token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
    await page.evaluate((x) => localStorage.setItem('herald.lang', x), lang);
    await page.addInitScript((x) => localStorage.setItem('herald.lang', x), lang);
    const { campaign } = await seed(page, token, lang);
    await page.goto(`/campaigns/${campaign.id}`);

    // Step 1: Lookup, through the team's lookup gateway.
    await page.getByRole('button', { name: c.addStep }).click();
    await page.getByText(c.lookupStep.type, { exact: true }).click();
    const lookupCard = page.getByTestId('lookup-step-1');
    await expect(lookupCard.getByText(c.lookupStep.hint)).toBeVisible();
    await lookupCard.getByRole('button', { name: c.save, exact: true }).click();
    await expect(lookupCard.getByText(fill(c.lookupStep.through, { gateway: 'Carrier DB' }))).toBeVisible();
    // Step 2: an SMS.
    await page.getByRole('button', { name: c.addStep }).click();
    await page.getByRole('textbox', { name: c.message, exact: true }).fill('Only to mobiles');
    await page.getByRole('button', { name: c.save, exact: true }).last().click();
    await expect(page.getByRole('heading', { name: fill(c.step, { position: 2 }) })).toBeVisible();
    await expect(page.getByRole('button', { name: c.addStep })).toBeEnabled();
    await page.screenshot({ path: `${SHOTS}/composer-${lang}-1366.png`, fullPage: true });

    // Started now: the lookup runs, then the SMS step goes to the mobiles only.
    await api(page, token, 'put', `/campaigns/${campaign.id}`, {
      quiet_hours: false,
      start_at: new Date(Date.now() - 60_000).toISOString(),
    });
    await api(page, token, 'put', `/campaigns/${campaign.id}/status`, { status: 'scheduled' });
    const progress = lookupCard.getByTestId('lookup-step-progress');
    // No reload: the steps are read again while the lookup step is not sent.
    await expect(progress.getByText(l.status['3'], { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(progress.getByText(fill(c.lookupStep.done, { done: 4, phones: 4 }))).toBeVisible();
    await expect(progress.getByRole('link', { name: c.lookupStep.open })).toHaveAttribute('href', '/lookup-management');
    await page.screenshot({ path: `${SHOTS}/finished-${lang}-1366.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/finished-${lang}-390.png`, fullPage: true });

    // The landline is among the non-mobiles, and it got no message.
    const steps = (await api(page, token, 'get', `/campaigns/${campaign.id}/campaign-steps`)) as Array<{
      lookup: { not_mobile: number; invalid: number } | null;
    }>;
    expect(steps[0].lookup?.not_mobile).toBeGreaterThanOrEqual(1);
    const count = steps[0].lookup?.not_mobile ?? 0;
    const form = new Intl.PluralRules(lang).select(count);
    await expect(progress.getByText(fill(c.lookupStep[`notMobile_${form}`], { count }))).toBeVisible();

    // The statistics: the lookup step as its own card, before the SMS step, with what it found and cost.
    await page.setViewportSize({ width: 1366, height: 900 });
    const stat = (await api(page, token, 'get', `/campaigns/${campaign.id}/statistic`)) as {
      lookup_steps: Array<{ position: number; done: number; phones: number; lookup_status: number | null }>;
      steps: Array<{ position: number }>;
    };
    expect(stat.lookup_steps.map((x) => x.position)).toEqual([1]);
    expect(stat.steps.map((x) => x.position)).toEqual([2]);
    const found = stat.lookup_steps[0];
    expect(found).toMatchObject({ phones: 4, done: 4, lookup_status: 3 });
    await page.goto(`/campaigns/${campaign.id}/statistics`);
    const card = page.getByTestId('statistic-lookup-step-1');
    await expect(card.getByText(fill(c.lookupStep.done, { done: 4, phones: 4 }))).toBeVisible();
    await expect(card.getByText(l.status['3'], { exact: true })).toBeVisible();
    await expect(card.getByText(c.statistics.lookup.validMobile, { exact: true })).toBeVisible();
    await expect(card.getByText(c.statistics.lookup.notMobile, { exact: true })).toBeVisible();
    await expect(card.getByText(c.statistics.lookup.cost, { exact: true })).toBeVisible();
    await expect(card.getByRole('link', { name: c.lookupStep.open })).toHaveAttribute('href', '/lookup-management');
    // The steps table in step order: the lookup step's row first, then the SMS step's.
    const rows = page.locator('[data-testid^="statistic-step-row-"]');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toHaveAttribute('data-testid', 'statistic-step-row-1');
    await expect(rows.first().getByText(c.lookupStep.type, { exact: true })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/statistics-${lang}-1366.png`, fullPage: true });
    // The lookup step's own scope shows its card alone.
    await page.getByText(fill(c.statistics.lookup.stepN, { n: 1 }), { exact: true }).click();
    await expect(page.getByTestId('statistic-lookup-step-1')).toBeVisible();
    await expect(page.getByText(c.statistics.buckets, { exact: true })).toHaveCount(0);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/statistics-${lang}-390.png`, fullPage: true });
  });
}
