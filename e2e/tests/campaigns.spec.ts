import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { api } from './support/first-day-data.ts';
import { addSimulatorGateway } from './support/gateways.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/campaigns';

/** The screens' own words, read from the catalogues the web ships. */
function words(lang: string) {
  const read = (ns: string) =>
    JSON.parse(readFileSync(new URL(`../../apps/web/src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
  return { c: read('campaigns'), common: read('common') };
}

const PHONES = ['+380501230001', '+380501230002'];

/** A source with a list of two leads with phones. */
async function seed(page: Page, token: string) {
  const attributes = (await api(page, token, 'get', '/lead-attributes')) as { data: { id: number; type: string }[] };
  const phone = attributes.data.find((a) => a.type === 'phone')?.id ?? 0;
  const source = await api(page, token, 'post', '/sources', { name: 'Expo' });
  const list = await api(page, token, 'post', `/sources/${source.id}/lists`, { name: 'Visitors' });
  for (const number of PHONES) {
    await api(page, token, 'post', '/leads', {
      source_id: source.id,
      list_id: list.id,
      attributes: [{ attr_id: phone, value: number }],
    });
  }
  return source as { id: number; name: string };
}

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`creates a campaign with two steps and {{link}}, previews it, reads its log, deletes it (${lang})`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const { c, common } = words(lang);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
    await signUpVerified(page, 'Olena Campaigns', `campaigns-${lang}-${Date.now()}@example.com`);
    const token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
    await page.evaluate((l) => localStorage.setItem('herald.lang', l), lang);
    await page.addInitScript((l) => localStorage.setItem('herald.lang', l), lang);
    await addSimulatorGateway(page, lang);
    const source = await seed(page, token);

    // The menu leads to the list; with nothing yet it says so.
    await page.getByRole('link', { name: common.nav.campaigns }).first().click();
    await expect(page).toHaveURL(/\/campaigns$/);
    await expect(page.getByText(c.empty)).toBeVisible();

    // Create lands on the new campaign.
    await page.getByRole('button', { name: c.create }).first().click();
    await expect(page).toHaveURL(/\/campaigns\/\d+$/);
    const id = Number(/\/campaigns\/(\d+)$/.exec(page.url())?.[1]);

    // The gateway: the team's only one, chosen already.
    await expect(page.getByRole('combobox', { name: c.gateway })).toHaveValue('Simulator');

    // The audience: the source.
    await page.getByRole('combobox', { name: c.audience, exact: true }).click();
    await page.getByRole('option', { name: c.audienceKind.source }).click();
    await page.getByRole('combobox', { name: c.audienceKind.source, exact: true }).click();
    await page.getByRole('option', { name: source.name }).click();
    await page.getByRole('button', { name: c.addAudience, exact: true }).click();
    await expect(page.getByText(`${c.audienceKind.source}: ${source.name}`)).toBeVisible();

    // Two steps, the first with a link; a step is kept once it has its message.
    const messages = page.getByRole('textbox', { name: c.message, exact: true });
    await page.getByRole('button', { name: c.addStep }).click();
    await expect(page.getByRole('heading', { name: c.step.replace('{{position}}', '1') })).toBeVisible();
    await messages.nth(0).fill('Spring offer: {{link}}');
    await page.getByRole('textbox', { name: c.redirectTo }).fill(`${baseURL}/api/health`);
    await page.getByRole('button', { name: c.save, exact: true }).nth(1).click();
    await expect(page.getByRole('button', { name: c.addStep })).toBeEnabled();
    await page.getByRole('button', { name: c.addStep }).click();
    await expect(page.getByRole('heading', { name: c.step.replace('{{position}}', '2') })).toBeVisible();
    await messages.nth(1).fill('Last day of the offer');
    await page.getByRole('button', { name: c.save, exact: true }).nth(2).click();
    await expect(page.getByRole('button', { name: c.addStep })).toBeEnabled();

    // The preview counts both leads and both steps.
    const preview = page.getByTestId('campaign-preview');
    await expect(preview.getByText(c.previewRecipients).locator('xpath=..')).toContainText('2');
    await expect(preview.getByText(c.step.replace('{{position}}', '2'))).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/campaign-${lang}-1366.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/campaign-${lang}-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });

    // The log tells what happened.
    await page.getByRole('tab', { name: c.tabs.logs }).click();
    await expect(page).toHaveURL(`/campaigns/${id}/logs`);
    await expect(page.getByText(c.log.campaign_created)).toBeVisible();
    await expect(page.getByText(c.log.campaign_step_created).first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/logs-${lang}-1366.png`, fullPage: true });

    // The list shows it as a draft; delete asks first, then it is gone.
    await page.goto('/campaigns');
    const row = page.getByRole('row').nth(1);
    await expect(row).toContainText(c.status.draft);
    await page.screenshot({ path: `${SHOTS}/list-${lang}-1366.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/list-${lang}-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
    await row.getByRole('button').last().click();
    await page.getByRole('menuitem', { name: common.delete }).click();
    await page.getByRole('dialog').getByRole('button', { name: common.delete }).click();
    await expect(page.getByText(c.empty)).toBeVisible();
  });
}
