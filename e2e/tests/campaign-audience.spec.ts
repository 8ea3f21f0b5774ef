import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { api } from './support/first-day-data.ts';
import { addSimulatorGateway } from './support/gateways.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/campaign-audience';

/** The screens' own words, read from the catalogues the web ships. */
function words(lang: string) {
  const read = (ns: string) =>
    JSON.parse(readFileSync(new URL(`../../apps/web/src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
  return { c: read('campaigns'), leads: read('leads'), common: read('common') };
}
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ''));

/** A source with three leads and a two-step campaign over it, started a minute ago through the simulator. */
async function campaignOfThree(page: Page, token: string, lang: string) {
  const attributes = (await api(page, token, 'get', '/lead-attributes')) as { data: { id: number; type: string }[] };
  const phone = attributes.data.find((a) => a.type === 'phone')?.id ?? 0;
  const source = await api(page, token, 'post', '/sources', { name: `Audience ${lang}` });
  const list = await api(page, token, 'post', `/sources/${source.id}/lists`, { name: 'Visitors' });
  const n = lang === 'uk' ? 4 : lang === 'en' ? 5 : 6;
  for (let i = 1; i <= 3; i++)
    await api(page, token, 'post', '/leads', {
      source_id: source.id,
      list_id: list.id,
      attributes: [{ attr_id: phone, value: `+38050${n}88${String(Date.now() % 1000).padStart(3, '0')}${i}` }],
    });
  const campaign = await api(page, token, 'post', '/campaigns', { name: `Audience check ${lang}` });
  await api(page, token, 'post', `/campaigns/${campaign.id}/audiences`, { kind: 'source', ref_ids: [source.id] });
  for (const message of ['Audience first', 'Audience second'])
    await api(page, token, 'post', `/campaigns/${campaign.id}/campaign-steps`, { message, delay_minutes: 0 });
  await api(page, token, 'put', `/campaigns/${campaign.id}`, {
    frequency_per_minute: 600,
    quiet_hours: false,
    start_at: new Date(Date.now() - 60_000).toISOString(),
  });
  await api(page, token, 'put', `/campaigns/${campaign.id}/status`, { status: 'scheduled' });
  return campaign as { id: number; name: string };
}

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`the campaign audience tab, the list's figures, and a lead under the campaign (${lang})`, async ({ page }) => {
    test.setTimeout(180_000);
    const { c, leads, common } = words(lang);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
    await signUpVerified(page, 'Olena Audience', `campaign-audience-${lang}-${Date.now()}@example.com`);
    const token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
    await page.evaluate((l) => localStorage.setItem('herald.lang', l), lang);
    await page.addInitScript((l) => localStorage.setItem('herald.lang', l), lang);
    await addSimulatorGateway(page, lang);
    const campaign = await campaignOfThree(page, token, lang);
    await expect
      .poll(async () => (await api(page, token, 'get', `/campaigns/${campaign.id}`)).status, { timeout: 120_000 })
      .toBe('completed');

    // The list: sent of all steps, delivered of sent, clicked of delivered, and what it cost.
    await page.goto('/campaigns');
    const row = page.getByRole('row').filter({ hasText: campaign.name });
    await expect(row.locator('[data-figure="sent"]')).toHaveText(/100\s?%/);
    await expect(row.locator('[data-figure="clicked"]')).toHaveText(/0\s?%/);
    await expect(row.locator('[data-figure="cost"]')).not.toHaveText('—');
    for (const key of ['results', 'cost'])
      await expect(page.getByRole('columnheader', { name: c.column[key] })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/campaigns-list-${lang}-1366.png` });

    // The audience tab: three recipients, each step's status.
    await page.goto(`/campaigns/${campaign.id}`);
    await page.getByRole('tab', { name: c.tabs.audience }).click();
    await expect(page).toHaveURL(new RegExp(`/campaigns/${campaign.id}/audience$`));
    const table = page.getByRole('table', { name: c.tabs.audience });
    await expect(table.getByRole('row')).toHaveCount(4);
    await expect(table.getByRole('columnheader', { name: fill(c.audienceTable.step, { position: 2 }) })).toBeVisible();
    await expect(table.locator('[data-bucket]')).toHaveCount(6);
    const buckets = await table
      .locator('[data-bucket]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-bucket')));
    for (const b of buckets) expect(['delivered', 'sent', 'failed']).toContain(b);
    await page.screenshot({ path: `${SHOTS}/audience-${lang}-1366.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // Search by a phone narrows it to that recipient.
    const phone = (await table.getByRole('row').nth(1).getByRole('cell').nth(1).textContent())?.trim() ?? '';
    await page.getByRole('textbox', { name: common.table.search }).fill(phone);
    await expect(table.getByRole('row')).toHaveCount(2);
    await page.getByRole('textbox', { name: common.table.search }).fill('');
    await expect(table.getByRole('row')).toHaveCount(4);

    // Export as CSV: followed in the header, downloaded with a status and clicked column per step.
    await page.getByRole('button', { name: c.audienceTable.export }).click();
    await page.getByRole('menuitem', { name: 'CSV' }).click();
    const fileName = fill(c.audienceTable.exportName, { campaign: campaign.name });
    await expect(page.getByText(fill(c.audienceTable.exportStarted, { name: fileName }))).toBeVisible();
    // The processes popover offers the finished file.
    await page.getByRole('button', { name: common.processes.title }).click();
    const escaped = fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const popover = page.getByRole('dialog').filter({ hasText: common.processes.title });
    const link = popover.getByRole('link', { name: new RegExp(escaped) }).first();
    await expect(link).toBeVisible({ timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const text = readFileSync(await download.path(), 'utf8');
    const lines = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0].split(',')).toHaveLength(9);
    await page.keyboard.press('Escape');

    // On a phone the table scrolls inside its box, the page does not.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/audience-${lang}-390.png` });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.setViewportSize({ width: 1366, height: 900 });

    // A row opens the lead under the campaign; the crumbs name the campaign; deleting returns here.
    const first = table.getByRole('row').nth(1).getByRole('link');
    const leadId = ((await first.textContent()) ?? '').replace('#', '').trim();
    await first.click();
    await expect(page).toHaveURL(new RegExp(`/campaigns/${campaign.id}/audience/${leadId}$`));
    await expect(page.getByRole('heading', { name: fill(leads.leadNumber, { id: leadId }) })).toBeVisible();
    const crumbs = page.getByRole('navigation', { name: common.breadcrumbs });
    await expect(crumbs.getByRole('link', { name: campaign.name })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/lead-under-campaign-${lang}-1366.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/lead-under-campaign-${lang}-390.png` });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('button', { name: leads.deleteLead }).click();
    await page.getByRole('dialog').getByRole('button', { name: common.delete }).click();
    await expect(page).toHaveURL(new RegExp(`/campaigns/${campaign.id}/audience$`));
  });
}
