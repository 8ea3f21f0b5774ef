import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { api } from './support/first-day-data.ts';
import { addSimulatorGateway } from './support/gateways.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/results-filters';
const BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

type Words = {
  filter: Record<string, string>;
  addCondition: string;
  saveFilters: string;
  filterOf: string;
  valuesOf: string;
  totalLeads: string;
  results: {
    engagement: Record<string, string>;
    period: Record<string, string>;
    create: Record<string, string>;
  };
};
/** The screens' own words, read from the catalogues the web ships. */
function words(lang: string): Words {
  return JSON.parse(readFileSync(new URL(`../../apps/web/src/locales/${lang}/segments.json`, import.meta.url), 'utf8'));
}
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ''));

/** Three leads and a completed campaign with `{{link}}` over them; the first lead's link opened by a person. */
async function clickedCampaign(page: Page, token: string, lang: string) {
  const attributes = (await api(page, token, 'get', '/lead-attributes')) as { data: { id: number; type: string }[] };
  const phone = attributes.data.find((a) => a.type === 'phone')?.id ?? 0;
  const source = await api(page, token, 'post', '/sources', { name: `Results ${lang}` });
  const list = await api(page, token, 'post', `/sources/${source.id}/lists`, { name: 'Buyers' });
  const leads: number[] = [];
  const n = lang === 'uk' ? 4 : lang === 'en' ? 5 : 6;
  for (let i = 1; i <= 3; i++) {
    const lead = await api(page, token, 'post', '/leads', {
      source_id: source.id,
      list_id: list.id,
      attributes: [{ attr_id: phone, value: `+38050${n}77${String(Date.now() % 1000).padStart(3, '0')}${i}` }],
    });
    leads.push(Number(lead.id ?? lead.data?.id));
  }
  const campaign = await api(page, token, 'post', '/campaigns', { name: `Results ${lang}` });
  await api(page, token, 'post', `/campaigns/${campaign.id}/audiences`, { kind: 'source', ref_ids: [source.id] });
  await api(page, token, 'post', `/campaigns/${campaign.id}/campaign-steps`, {
    message: 'Sale today {{link}}',
    redirect_to: 'https://shop.example/sale',
    delay_minutes: 0,
  });
  await api(page, token, 'put', `/campaigns/${campaign.id}`, {
    frequency_per_minute: 600,
    quiet_hours: false,
    start_at: new Date(Date.now() - 60_000).toISOString(),
  });
  await api(page, token, 'put', `/campaigns/${campaign.id}/status`, { status: 'scheduled' });
  await expect
    .poll(async () => (await api(page, token, 'get', `/campaigns/${campaign.id}`)).status, { timeout: 120_000 })
    .toBe('completed');
  // A person opens the first lead's link (after the link scanners' window).
  const log = await api(page, token, 'get', `/leads/${leads[0]}/log`);
  const entry = (log.data as Array<{ type: string; diff_log: Array<{ lead_attribute_value: string | null }> }>).find(
    (e) => e.type === 'campaign_message',
  );
  const code = /\/([0-9A-Za-z]{7,})\b/.exec(entry?.diff_log[0]?.lead_attribute_value ?? '')?.[1];
  expect(code).toBeTruthy();
  await page.waitForTimeout(2_500);
  const hit = await page.request.get(`/${code}`, { headers: { 'user-agent': BROWSER }, maxRedirects: 0 });
  expect(hit.status()).toBe(302);
  return { id: Number(campaign.id), name: String(campaign.name), leads };
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
const total = (page: Page, w: Words, n: number) => page.getByRole('link', { name: `${w.totalLeads}: ${n}` });

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`a segment of the people who clicked, made from the statistics; the results filters in the editor (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const w = words(lang);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
    await signUpVerified(page, 'Olena Results', `results-filters-${lang}-${Date.now()}@example.com`);
    const token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
    await page.evaluate((l) => localStorage.setItem('herald.lang', l), lang);
    await page.addInitScript((l) => localStorage.setItem('herald.lang', l), lang);
    await addSimulatorGateway(page, lang);
    const campaign = await clickedCampaign(page, token, lang);

    // From the statistics: Create segment, engaged, frozen; it opens with the one who clicked.
    await page.goto(`/campaigns/${campaign.id}/statistics`);
    await page.getByRole('button', { name: w.results.create.action }).click();
    const dialog = page.getByRole('dialog', { name: w.results.create.title });
    // Neither a status nor an engagement: the dialog says what is missing and makes nothing.
    await dialog.getByRole('button', { name: w.results.create.submit }).click();
    await expect(dialog.getByRole('alert')).toHaveText(w.results.create.needsFilter);
    await choose(page, w.results.create.engagement, w.results.engagement.engaged);
    await dialog.getByRole('switch', { name: w.results.create.dynamic }).click();
    await page.screenshot({ path: `${SHOTS}/create-segment-${lang}-1366.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/create-segment-${lang}-390.png` });
    await page.setViewportSize({ width: 1366, height: 900 });
    await dialog.getByRole('button', { name: w.results.create.submit }).click();
    await expect(page).toHaveURL(/\/audiences\/\d+\/leads$/);
    const segmentName = fill(w.results.create.defaultName, {
      campaign: campaign.name,
      what: w.results.engagement.engaged,
    });
    await expect(page.getByRole('heading', { name: segmentName })).toBeVisible();
    await expect(total(page, w, 1)).toBeVisible();
    await expect(page.getByRole('combobox', { name: fill(w.filterOf, { n: 1 }), exact: true })).toHaveValue(
      w.filter.campaigns,
    );
    await expect(page.getByRole('combobox', { name: fill(w.filterOf, { n: 2 }), exact: true })).toHaveValue(
      w.filter.engagement,
    );
    await page.screenshot({ path: `${SHOTS}/segment-from-results-${lang}-1366.png`, fullPage: true });

    // By hand: an audience, engagement period offered only once engaged is chosen.
    const audience = await api(page, token, 'post', '/segments', { name: `By hand ${lang}` });
    await page.goto(`/audiences/${audience.id}/leads`);
    await expect(total(page, w, 3)).toBeVisible();
    await page.getByRole('button', { name: w.addCondition }).click();
    await page.getByRole('combobox', { name: fill(w.filterOf, { n: 1 }), exact: true }).click();
    await expect(page.getByRole('option', { name: w.filter.engagement_period, exact: true })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await page.getByRole('option', { name: w.filter.engagement, exact: true }).click();
    await choose(page, fill(w.valuesOf, { n: 1 }), w.results.engagement.engaged);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: w.addCondition }).click();
    await page.getByRole('combobox', { name: fill(w.filterOf, { n: 2 }), exact: true }).click();
    await expect(page.getByRole('option', { name: w.filter.engagement, exact: true })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await page.getByRole('option', { name: w.filter.engagement_period, exact: true }).click();
    await choose(page, fill(w.valuesOf, { n: 2 }), w.results.period['24_hours']);
    await page.getByRole('button', { name: w.addCondition }).click();
    await choose(page, fill(w.filterOf, { n: 3 }), w.filter.campaigns);
    await choose(page, fill(w.valuesOf, { n: 3 }), campaign.name);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: w.saveFilters }).click();
    await expect(total(page, w, 1)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/filters-${lang}-1366.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/filters-${lang}-390.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}
