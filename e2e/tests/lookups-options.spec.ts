import { mkdirSync, readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { api } from './support/first-day-data.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/lookups-options';

/** The screens' own words, read from the catalogues the web ships. */
function words(lang: string) {
  const read = (ns: string) =>
    JSON.parse(readFileSync(new URL(`../../apps/web/src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
  return { c: read('campaigns'), i: read('imports'), l: read('lookups'), g: read('gateways'), common: read('common') };
}

/** Kyivstar and Vodafone Ukraine mobiles and Kyiv landlines: what the simulator knows. */
const PREFIXES = ['+38067', '+38050', '+38044'];
const phonesFor = (lang: string, n: number) => {
  const stamp = String(Date.now() % 10_000).padStart(4, '0');
  const k = { uk: 1, en: 2, ru: 3 }[lang];
  return Array.from({ length: n }, (_, i) => `${PREFIXES[i % 3]}${k}${stamp}${i}0`);
};

/** A team in `lang` with a sending simulator, a lookup-only simulator and money for lookups. */
async function team(page: Page, lang: string, who: string) {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  await signUpVerified(page, 'Olena Options', `${who}-${lang}-${Date.now()}@example.com`);
  const token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  await page.evaluate((lg) => localStorage.setItem('herald.lang', lg), lang);
  await page.addInitScript((lg) => localStorage.setItem('herald.lang', lg), lang);
  const simulator = { delivery_rate: '100', failure_rate: '0', block_rate: '0', lookup_latency_ms: '50' };
  await api(page, token, 'post', '/config/gateway/messaging', {
    type: 'simulator',
    name: 'Sender',
    active: true,
    default: true,
    allow_lookup: false,
    credentials: simulator,
  });
  await api(page, token, 'post', '/config/gateway/messaging', {
    type: 'simulator',
    name: 'Lookups',
    active: true,
    default: false,
    allow_lookup: true,
    credentials: simulator,
  });
  const checkout = await api(page, token, 'post', '/balance/topup', { amount: '100' });
  const paid = await page.request.post('/checkout/sandbox/complete', {
    form: { data: checkout.data, signature: checkout.signature, decision: 'pay' },
    maxRedirects: 0,
  });
  expect(paid.status()).toBe(303);
  const source = (await api(page, token, 'post', '/sources', { name: `Options ${lang}` })) as { id: number };
  const list = (await api(page, token, 'post', `/sources/${source.id}/lists`, { name: `Visitors ${lang}` })) as {
    id: number;
    name: string;
  };
  return { token, source, list };
}

type PhoneValue = { value: string; status_label: string | null; carrier_type: string | null };
/** The list's phones with what the lookup found, as the API gives them. */
async function phoneResults(page: Page, token: string, listId: number): Promise<PhoneValue[]> {
  const leads = (await api(page, token, 'get', `/lists/${listId}/leads?limit=50`)) as {
    data: { lead_values: Array<PhoneValue & { attribute: { type: string } }> }[];
  };
  return leads.data.flatMap((l) => l.lead_values.filter((v) => v.attribute.type === 'phone'));
}

async function lookupsOf(page: Page, token: string) {
  return ((await api(page, token, 'get', '/lookup?limit=100')) as { data: { list: { id: number }; status: number }[] })
    .data;
}

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

for (const lang of ['uk', 'en', 'ru'] as const) {
  test(`a campaign skips non-mobile and invalid phones by default, and sends to all with the option off (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { c } = words(lang);
    const { token, source, list } = await team(page, lang, 'campaign-skip');
    const attributes = (await api(page, token, 'get', '/lead-attributes')) as { data: { id: number; type: string }[] };
    const phone = attributes.data.find((a) => a.type === 'phone')?.id ?? 0;
    const phones = phonesFor(lang, 6);
    for (const p of phones)
      await api(page, token, 'post', '/leads', {
        source_id: source.id,
        list_id: list.id,
        attributes: [{ attr_id: phone, value: p }],
      });
    await api(page, token, 'post', '/sources/lists/lookup', { ids: [list.id] });
    await expect
      .poll(async () => (await lookupsOf(page, token)).find((x) => x.list.id === list.id)?.status, { timeout: 60_000 })
      .toBe(3);
    // What the preview must leave out: every phone the lookup did not find a valid mobile.
    const results = await phoneResults(page, token, list.id);
    expect(results).toHaveLength(phones.length);
    const skipped = results.filter((r) => r.status_label !== 'valid' || r.carrier_type !== 'mobile').length;
    expect(skipped).toBeGreaterThanOrEqual(2); // the two Kyiv landlines at least

    const campaign = (await api(page, token, 'post', '/campaigns', { name: `Skip check ${lang}` })) as { id: number };
    await api(page, token, 'post', `/campaigns/${campaign.id}/audiences`, { kind: 'source', ref_ids: [source.id] });
    await api(page, token, 'post', `/campaigns/${campaign.id}/campaign-steps`, { message: 'Hello', delay_minutes: 0 });

    await page.goto(`/campaigns/${campaign.id}`);
    const option = page.getByRole('switch', { name: c.skipInvalidPhones });
    await expect(option).toBeChecked();
    await expect(page.getByText(c.skipInvalidPhonesHint)).toBeVisible();
    const preview = page.getByTestId('campaign-preview');
    const recipients = preview.getByText(c.previewRecipients, { exact: true }).locator('xpath=following-sibling::*[1]');
    await expect(recipients).toHaveText(String(phones.length - skipped));
    await expect(preview.getByText(`${c.skipped.not_valid_mobile}: ${skipped}`)).toBeVisible();
    await option.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/campaign-skip-on-${lang}-1366.png`, fullPage: true });

    // Off and saved: every phone is a recipient again, and the preview says no one is left out.
    await option.click({ force: true });
    await expect(option).not.toBeChecked();
    const settings = page
      .locator('.mantine-Paper-root')
      .filter({ has: page.getByRole('heading', { name: c.settings, exact: true }) });
    await settings.getByRole('button', { name: c.save, exact: true }).click();
    await expect(page.getByText(c.saved, { exact: true })).toBeVisible();
    await expect(recipients).toHaveText(String(phones.length));
    await expect(preview.getByText(c.skipped.not_valid_mobile, { exact: false })).toHaveCount(0);
    const saved = (await api(page, token, 'get', `/campaigns/${campaign.id}`)) as { skip_invalid_phones: boolean };
    expect(saved.skip_invalid_phones).toBe(false);
    await page.screenshot({ path: `${SHOTS}/campaign-skip-off-${lang}-1366.png`, fullPage: true });
  });

  test(`an import with "check mobile status" starts a lookup of its list that completes (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { i, l } = words(lang);
    const { token, source, list } = await team(page, lang, 'import-check');
    const phones = phonesFor(lang, 4);

    await page.goto(`/sources/${source.id}/${list.id}`);
    await page.getByRole('main').getByRole('button', { name: i.import, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('button', { name: i.dropzoneLabel })).toBeVisible();
    await dialog.locator('input[type=file]').setInputFiles({
      name: `check-${lang}.csv`,
      mimeType: 'text/csv',
      buffer: Buffer.from(['Phone', ...phones].join('\n'), 'utf8'),
    });
    await expect(dialog.getByRole('heading', { name: i.matchFormat })).toBeVisible({ timeout: 20_000 });
    const check = dialog.getByRole('checkbox', { name: i.checkMobileStatus });
    await expect(check).not.toBeChecked();
    await check.check();
    await expect(dialog.getByText(i.checkMobileStatusHint)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/import-check-${lang}-1366.png` });
    await dialog.getByRole('button', { name: i.run, exact: true }).click();
    await expect(dialog.getByText(i.stage.completed)).toBeVisible({ timeout: 60_000 });
    await dialog.getByRole('button', { name: i.close }).click();

    // The list's lookup was started by the import, runs to the end, and every phone has its result.
    await page.goto('/lookup-management');
    const row = page.getByRole('row').filter({ hasText: list.name });
    await expect(row).toHaveCount(1);
    await expect(row.locator('[data-lookup-status="3"]')).toHaveText(l.status['3'], { timeout: 60_000 });
    await expect(row.locator('[data-lookup-percent]')).toHaveText(/100/);
    await page.screenshot({ path: `${SHOTS}/import-lookup-done-${lang}-1366.png` });
    const results = await phoneResults(page, token, list.id);
    expect(results).toHaveLength(phones.length);
    for (const r of results) expect(r.status_label).not.toBeNull();
  });

  test(`a generic HTTP gateway offers "lookup only" once it declares a lookup URL (${lang})`, async ({ page }) => {
    test.setTimeout(90_000);
    const { g, common } = words(lang);
    const { token } = await team(page, lang, 'generic-lookup');
    await page.goto('/settings');
    await page.getByRole('button', { name: g.add }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: g.type }).click();
    await page.getByRole('option', { name: 'Generic HTTP', exact: true }).click();
    await dialog.getByRole('textbox', { name: g.name, exact: true }).fill(`Own lookup ${lang}`);
    await dialog.getByRole('textbox', { name: g.fields.url }).fill('https://sms.example.net/v1/send');
    const lookupOnly = dialog.getByRole('checkbox', { name: g.allowLookup });
    // Without a lookup URL the type has no lookup: the switch is not offered.
    await expect(lookupOnly).toHaveCount(0);
    // The URL's label and help show the placeholder as it is to be typed.
    const url = dialog.getByRole('textbox', { name: g.fields.lookup_url });
    await expect(url).toBeVisible();
    await expect(dialog.getByText(g.help.lookup_url)).toBeVisible();
    await url.fill('https://sms.example.net/v1/number?msisdn={{phone}}');
    await dialog.getByRole('textbox', { name: g.fields.lookup_type_path }).fill('result.line');
    await dialog.getByRole('textbox', { name: g.fields.lookup_valid_path }).fill('result.state');
    await dialog.getByRole('textbox', { name: g.fields.lookup_valid_map }).fill('LIVE=valid\nDEAD=invalid');
    await lookupOnly.check();
    await url.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/generic-lookup-form-${lang}-1366.png` });
    await dialog.getByRole('button', { name: common.save }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('row', { name: new RegExp(`Own lookup ${lang}`) })).toContainText(g.lookupOnly);
    const gateways = (await api(page, token, 'get', '/config/gateway/messaging')) as {
      data: Array<{
        name: string;
        allow_lookup: boolean;
        capabilities: { lookup: boolean };
        params: Record<string, string>;
      }>;
    };
    const saved = gateways.data.find((x) => x.name === `Own lookup ${lang}`);
    expect(saved).toMatchObject({ allow_lookup: true, capabilities: { lookup: true } });
    expect(saved?.params).toMatchObject({
      lookup_url: 'https://sms.example.net/v1/number?msisdn={{phone}}',
      lookup_valid_map: 'LIVE=valid\nDEAD=invalid',
    });
  });
}
