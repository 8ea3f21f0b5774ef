import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { api } from './support/first-day-data.ts';
import { addSimulatorGateway } from './support/gateways.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/campaign-statistics';
const BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

/** The screens' own words, read from the catalogues the web ships. */
function words(lang: string) {
  return JSON.parse(
    readFileSync(new URL(`../../apps/web/src/locales/${lang}/campaigns.json`, import.meta.url), 'utf8'),
  ) as { statistics: Record<string, string> & { status: Record<string, string> }; tabs: Record<string, string> };
}

/** Four leads and a campaign with `{{link}}` over them, one message every five seconds. */
async function campaignOfFour(page: Page, token: string, lang: string) {
  const attributes = (await api(page, token, 'get', '/lead-attributes')) as { data: { id: number; type: string }[] };
  const phone = attributes.data.find((a) => a.type === 'phone')?.id ?? 0;
  const source = await api(page, token, 'post', '/sources', { name: `Stats ${lang}` });
  const list = await api(page, token, 'post', `/sources/${source.id}/lists`, { name: 'Buyers' });
  const leads: number[] = [];
  for (let i = 1; i <= 4; i++) {
    const lead = await api(page, token, 'post', '/leads', {
      source_id: source.id,
      list_id: list.id,
      attributes: [{ attr_id: phone, value: `+38050888${lang === 'uk' ? 1 : lang === 'en' ? 2 : 3}00${i}` }],
    });
    leads.push(Number(lead.id ?? lead.data?.id));
  }
  const campaign = await api(page, token, 'post', '/campaigns', { name: `Stats check ${lang}` });
  await api(page, token, 'post', `/campaigns/${campaign.id}/audiences`, { kind: 'source', ref_ids: [source.id] });
  await api(page, token, 'post', `/campaigns/${campaign.id}/campaign-steps`, {
    message: 'Sale today {{link}}',
    redirect_to: 'https://shop.example/sale',
    delay_minutes: 0,
  });
  await api(page, token, 'put', `/campaigns/${campaign.id}`, {
    frequency_per_minute: 12,
    quiet_hours: false,
    start_at: new Date(Date.now() - 60_000).toISOString(),
  });
  return { id: Number(campaign.id), name: String(campaign.name), leads };
}

/** A figure's button, named by its label (the first: the amounts come before the statuses and buckets). */
const figure = (page: Page, label: string) => page.getByRole('button', { name: label, exact: true }).first();

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`statistics move while the campaign sends, and "clicked" opens the people who clicked (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const w = words(lang).statistics;
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
    await signUpVerified(page, 'Olena Stats', `campaign-stats-${lang}-${Date.now()}@example.com`);
    const token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
    await page.evaluate((l) => localStorage.setItem('herald.lang', l), lang);
    await page.addInitScript((l) => localStorage.setItem('herald.lang', l), lang);
    await addSimulatorGateway(page, lang);
    const campaign = await campaignOfFour(page, token, lang);

    // A draft has no statistics (spec).
    await page.goto(`/campaigns/${campaign.id}/statistics`);
    await expect(page.getByText(w.unavailable)).toBeVisible();

    await api(page, token, 'put', `/campaigns/${campaign.id}/status`, { status: 'scheduled' });
    // The figures move by themselves while it sends: the first deliveries, then all four.
    const delivered = figure(page, w.delivered);
    await expect(delivered).toBeVisible({ timeout: 60_000 });
    await expect(delivered).toContainText(/[1-3]/, { timeout: 60_000 });
    await page.screenshot({ path: `${SHOTS}/running-${lang}-1366.png`, fullPage: true });
    await expect(delivered).toContainText('4', { timeout: 90_000 });

    // A person opens the link of the first lead's message (after the scanners' window).
    const log = await api(page, token, 'get', `/leads/${campaign.leads[0]}/log`);
    const entry = (log.data as Array<{ type: string; diff_log: Array<{ lead_attribute_value: string | null }> }>).find(
      (e) => e.type === 'campaign_message',
    );
    const code = /\/([0-9A-Za-z]{7,})\b/.exec(entry?.diff_log[0]?.lead_attribute_value ?? '')?.[1];
    expect(code).toBeTruthy();
    await page.waitForTimeout(2_500);
    const hit = await page.request.get(`/${code}`, { headers: { 'user-agent': BROWSER }, maxRedirects: 0 });
    expect(hit.status()).toBe(302);
    await page.reload();
    const clicked = figure(page, w.clicked);
    await expect(clicked).toContainText('1', { timeout: 30_000 });
    await expect(page.getByText('https://shop.example/sale')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/completed-${lang}-1366.png`, fullPage: true });

    // "Clicked" opens the lead who clicked, and the lead opens under the campaign.
    await clicked.click();
    const drawer = page.getByRole('dialog');
    await expect(drawer.getByRole('row')).toHaveCount(2);
    await expect(drawer.getByText(`+38050888${lang === 'uk' ? 1 : lang === 'en' ? 2 : 3}001`)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/clicked-leads-${lang}-1366.png` });
    await page.keyboard.press('Escape');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(figure(page, w.clicked)).toContainText('1');
    await page.screenshot({ path: `${SHOTS}/completed-${lang}-390.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}
