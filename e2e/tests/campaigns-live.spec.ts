import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { api } from './support/first-day-data.ts';
import { addSimulatorGateway } from './support/gateways.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/campaigns-live';

/** The screens' own words, read from the catalogues the web ships. */
function words(lang: string) {
  const read = (ns: string) =>
    JSON.parse(readFileSync(new URL(`../../apps/web/src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
  return { c: read('campaigns'), common: read('common'), settings: read('settings') };
}
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ''));

/** A source with four leads, and a campaign over it sending one message every five seconds. */
async function campaignOfFour(page: Page, token: string, lang: string) {
  const attributes = (await api(page, token, 'get', '/lead-attributes')) as { data: { id: number; type: string }[] };
  const phone = attributes.data.find((a) => a.type === 'phone')?.id ?? 0;
  const source = await api(page, token, 'post', '/sources', { name: `Live ${lang}` });
  const list = await api(page, token, 'post', `/sources/${source.id}/lists`, { name: 'Visitors' });
  for (let i = 1; i <= 4; i++)
    await api(page, token, 'post', '/leads', {
      source_id: source.id,
      list_id: list.id,
      attributes: [{ attr_id: phone, value: `+38050777${lang === 'uk' ? 1 : lang === 'en' ? 2 : 3}00${i}` }],
    });
  const campaign = await api(page, token, 'post', '/campaigns', { name: `Live check ${lang}` });
  await api(page, token, 'post', `/campaigns/${campaign.id}/audiences`, { kind: 'source', ref_ids: [source.id] });
  await api(page, token, 'post', `/campaigns/${campaign.id}/campaign-steps`, {
    message: 'Live check',
    delay_minutes: 0,
  });
  await api(page, token, 'put', `/campaigns/${campaign.id}`, {
    frequency_per_minute: 12,
    quiet_hours: false,
    start_at: new Date(Date.now() - 60_000).toISOString(),
  });
  return campaign as { id: number; name: string };
}

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`a campaign moves in the list and the popover without a reload, paused and resumed there (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const { c, common, settings } = words(lang);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
    await signUpVerified(page, 'Olena Live', `campaigns-live-${lang}-${Date.now()}@example.com`);
    const token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
    await page.evaluate((l) => localStorage.setItem('herald.lang', l), lang);
    await page.addInitScript((l) => localStorage.setItem('herald.lang', l), lang);
    await addSimulatorGateway(page, lang);
    const campaign = await campaignOfFour(page, token, lang);

    await page.goto('/campaigns');
    const row = page.getByRole('row').filter({ hasText: campaign.name });
    await expect(row.getByText(c.status.draft, { exact: true })).toBeVisible();
    // Scheduled elsewhere (another tab, another member): this page moves by itself.
    await api(page, token, 'put', `/campaigns/${campaign.id}/status`, { status: 'scheduled' });
    await expect(row.getByText(c.status.active, { exact: true })).toBeVisible({ timeout: 30_000 });

    // The popover: the campaign's process with its figures and its pause.
    await page.getByRole('button', { name: common.processes.title }).click();
    const pause = page.getByRole('button', {
      name: fill(common.processes.campaign.pauseNamed, { name: campaign.name }),
    });
    await expect(pause).toBeVisible();
    await expect(
      page.getByText(new RegExp(`${fill(common.processes.message.campaign_progress, { sent: '\\d', messages: 4 })}`)),
    ).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/popover-running-${lang}-1366.png` });
    await pause.click();
    const resume = page.getByRole('button', {
      name: fill(common.processes.campaign.resumeNamed, { name: campaign.name }),
    });
    await expect(resume).toBeVisible();
    await expect(row.getByText(c.status.paused, { exact: true })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/popover-paused-${lang}-1366.png` });
    const paused = await api(page, token, 'get', `/campaigns/${campaign.id}`);
    expect(paused.status).toBe('paused');

    // Resume from the popover: it continues where it stopped and completes.
    await resume.click();
    await expect(row.getByText(c.status.completed, { exact: true })).toBeVisible({ timeout: 90_000 });
    await expect(
      page.getByText(fill(common.processes.message.campaign_progress, { sent: 4, messages: 4 })),
    ).toBeVisible();
    await page.keyboard.press('Escape');

    // The frequency cap, on the first settings tab, on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/settings');
    const messages = page.getByRole('textbox', { name: settings.frequencyCap.messages });
    await messages.fill('3');
    await messages.press('Enter');
    await expect(page.getByText(settings.frequencyCap.saved)).toBeVisible();
    await page.getByText(settings.frequencyCap.title).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/frequency-cap-${lang}-390.png` });
    const cap = await api(page, token, 'get', '/settings/campaign-frequency-cap');
    expect(cap).toEqual({ messages: 3, hours: 24 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
}
