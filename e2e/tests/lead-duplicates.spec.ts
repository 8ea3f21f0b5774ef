import { expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';

async function api(page: Page, token: string, method: 'get' | 'post', path: string, data?: unknown) {
  const response = await page.request[method](`/api${path}`, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return response.json();
}

test('a lead’s duplicates lead to the leads sharing its phones, and the table filters to duplicates', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  const page = await context.newPage();
  await signUpVerified(page, 'Dmytro Duplicates', `duplicates-${Date.now()}@example.com`);
  const token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  const attributes = (await api(page, token, 'get', '/lead-attributes')) as { data: { id: number; type: string }[] };
  const phone = attributes.data.find((a) => a.type === 'phone')?.id ?? 0;
  const place = async (name: string) => {
    const source = await api(page, token, 'post', '/sources', { name });
    const list = await api(page, token, 'post', `/sources/${source.id}/lists`, { name: `${name} list` });
    return { source_id: source.id as number, list_id: list.id as number };
  };
  const fair = await place('Fair');
  const site = await place('Website');
  const lead = async (where: { source_id: number; list_id: number }, value: string) =>
    (await api(page, token, 'post', '/leads', { ...where, attributes: [{ attr_id: phone, value }] })).id as number;
  const first = await lead(fair, '+380501234567');
  const second = await lead(site, '+380501234567');
  await lead(fair, '+380509876543');

  await page.goto(`/leads/${first}`);
  await page.getByRole('button', { name: 'Show the leads that share its phones' }).click();
  const region = page.getByRole('region', { name: 'Leads that share its phones' });
  await expect(region.getByText('Website › Website list')).toBeVisible();
  await expect(region.getByText('+380501234567')).toBeVisible();
  await page.screenshot({ path: 'test-results/lead-duplicates/lead.png' });
  await region.getByRole('link', { name: `Lead #${second}` }).click();
  await expect(page).toHaveURL(new RegExp(`/leads/${second}$`));

  await page.goto('/leads');
  await expect(page.getByRole('row').filter({ hasText: '+380509876543' })).toBeVisible();
  await page.getByRole('switch', { name: 'Only duplicates' }).check();
  await expect(page).toHaveURL(/duplicates=1/);
  await expect(page.getByRole('row').filter({ hasText: '+380509876543' })).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: '+380501234567' })).toHaveCount(2);
  await page.screenshot({ path: 'test-results/lead-duplicates/filtered.png' });
  await context.close();
});
