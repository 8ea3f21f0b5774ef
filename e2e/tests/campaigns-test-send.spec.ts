import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { api } from './support/first-day-data.ts';
import { addSimulatorGateway } from './support/gateways.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/campaigns-test-send';

/** The screens' own words, read from the catalogues the web ships. */
function words(lang: string) {
  const read = (ns: string) =>
    JSON.parse(readFileSync(new URL(`../../apps/web/src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
  return { c: read('campaigns'), messages: read('messages') };
}

const NAMES = { uk: 'Олена', en: 'Olena', ru: 'Елена' } as const;

/** A draft over a list whose lead has a first name: step 1 with the name and a link, step 2 an hour on. */
async function draft(page: Page, token: string, name: string, redirect: string) {
  const source = await api(page, token, 'post', '/sources', { name: 'Expo' });
  const list = await api(page, token, 'post', `/sources/${source.id}/lists`, { name: 'Visitors' });
  await api(page, token, 'post', '/lead-attributes', [{ name: 'First name' }]);
  const attributes = (await api(page, token, 'get', '/lead-attributes')) as { data: { id: number; slug: string }[] };
  const id = (slug: string) => attributes.data.find((a) => a.slug === slug)?.id ?? 0;
  await api(page, token, 'post', '/leads', {
    source_id: source.id,
    list_id: list.id,
    attributes: [
      { attr_id: id('phone'), value: '+380501230011' },
      { attr_id: id('first_name'), value: name },
    ],
  });
  const campaign = await api(page, token, 'post', '/campaigns', {});
  await api(page, token, 'post', `/campaigns/${campaign.id}/audiences`, { kind: 'list', ref_ids: [list.id] });
  await api(page, token, 'post', `/campaigns/${campaign.id}/campaign-steps`, {
    message: 'Hi {{first_name}}, spring offer: {{link}}',
    redirect_to: redirect,
    delay_minutes: 0,
  });
  await api(page, token, 'post', `/campaigns/${campaign.id}/campaign-steps`, {
    message: 'Last day today, {{first_name}}',
    delay_minutes: 60,
  });
  return Number(campaign.id);
}

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`tests a campaign on a phone: both steps, written for a lead, with their parts and status (${lang})`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const { c, messages } = words(lang);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
    await signUpVerified(page, 'Olena Tester', `campaign-test-${lang}-${Date.now()}@example.com`);
    const token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
    await page.evaluate((l) => localStorage.setItem('herald.lang', l), lang);
    await page.addInitScript((l) => localStorage.setItem('herald.lang', l), lang);
    await addSimulatorGateway(page, lang);
    const id = await draft(page, token, NAMES[lang], `${baseURL}/api/health`);

    await page.goto(`/campaigns/${id}`);
    await page.getByRole('button', { name: c.test.action }).click();
    const dialog = page.getByRole('dialog', { name: c.test.title });
    await expect(dialog).toBeVisible();

    // Nothing typed: said under the field, nothing sent.
    await dialog.getByRole('button', { name: c.test.send }).click();
    await expect(dialog.getByText(c.test.phoneRequired)).toBeVisible();

    await dialog.getByRole('textbox', { name: c.test.phone }).fill('+380671112233');
    await dialog.getByRole('button', { name: c.test.send }).click();
    const sent = dialog.getByRole('region', { name: c.test.sentTitle });
    await expect(sent.getByRole('status')).toHaveText(messages.sms_sent);
    await expect(sent.getByText(c.test.step.replace('{{position}}', '1'), { exact: true })).toBeVisible();
    await expect(sent.getByText(c.test.step.replace('{{position}}', '2'), { exact: true })).toBeVisible();
    // Written for the audience's lead, the link made live on the app's host.
    await expect(
      sent.getByText(new RegExp(`^Hi ${NAMES[lang]}, spring offer: 127\\.0\\.0\\.1(:\\d+)?/\\w+$`)),
    ).toBeVisible();
    await expect(sent.getByText(`Last day today, ${NAMES[lang]}`)).toBeVisible();
    await expect(sent.getByText(c.test.state.submitted, { exact: true })).toHaveCount(2);
    await expect(sent.getByText(c.test.parts.replace('{{parts}}', '1'), { exact: true }).first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/test-dialog-${lang}-1366.png` });

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(sent.getByText(c.test.step.replace('{{position}}', '2'), { exact: true })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/test-dialog-${lang}-390.png`, fullPage: true });

    // The campaign stays a draft.
    const campaign = (await api(page, token, 'get', `/campaigns/${id}`)) as { status: string };
    expect(campaign.status).toBe('draft');
  });
}
