import { readFile } from 'node:fs/promises';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';
import { expectProcess } from './support/processes.ts';

async function englishPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true });
  await context.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  return context.newPage();
}

async function expectToast(page: Page, text: string | RegExp) {
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: text }).first()).toBeVisible();
}

/** The API as the signed-in owner, to seed data fast. */
function apiOf(request: APIRequestContext, token: string) {
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async post<T>(path: string, data: unknown): Promise<T> {
      const response = await request.post(`/api${path}`, { headers, data });
      expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBe(true);
      return (await response.json()) as T;
    },
    async get<T>(path: string): Promise<T> {
      const response = await request.get(`/api${path}`, { headers });
      expect(response.ok()).toBe(true);
      return (await response.json()) as T;
    },
  };
}

/** Picks an option of a Mantine Select/MultiSelect named `label`. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('owner builds an audience with two conditions, adds a segment, exports CSV, duplicates and deletes it', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const page = await englishPage(browser);
  await signUpVerified(page, 'Alla Audience', `audiences-${stamp}@example.com`);
  await expect(page.getByText('No Audiences Found')).toBeVisible();

  await test.step('seed two sources with leads through the API', async () => {
    const token = await page.evaluate(() => localStorage.getItem('herald.token'));
    const api = apiOf(page.request, token ?? '');
    await api.post('/lead-attributes', [{ name: 'City', sort_order: 10 }]);
    const { data: attributes } = await api.get<{ data: { id: number; name: string; type: string }[] }>(
      '/lead-attributes',
    );
    const phone = attributes.find((a) => a.type === 'phone')?.id ?? 0;
    const city = attributes.find((a) => a.name === 'City')?.id ?? 0;
    const place = async (source: string, list: string) => {
      const s = await api.post<{ id: number }>('/sources', { name: source });
      const l = await api.post<{ id: number }>(`/sources/${s.id}/lists`, { name: list, status: 'active' });
      return { source_id: s.id, list_id: l.id };
    };
    const expo = await place('Expo', 'Visitors');
    const web = await place('Web', 'Forms');
    const leads: [typeof expo, string, string][] = [
      [expo, '+380501110001', 'Kyiv'],
      [expo, '+380501110002', 'Lviv'],
      [expo, '+380501110003', 'Kyiv'],
      [web, '+380501110004', 'Kyiv'],
      [web, '+380501110005', 'Odesa'],
    ];
    for (const [where, number, town] of leads) {
      await api.post('/leads', {
        ...where,
        attributes: [
          { attr_id: phone, value: number },
          { attr_id: city, value: town },
        ],
      });
    }
  });

  await test.step('create an audience: every lead, until it has conditions', async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Create Audience' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Audience' });
    await expect(dialog.getByRole('switch', { name: 'Update dynamically' })).toBeChecked();
    await dialog.getByLabel(/^Audience Name/).fill('Kyiv visitors');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(/\/audiences\/\d+\/leads$/);
    await expect(page.getByRole('heading', { name: 'Kyiv visitors' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Total leads: 5' })).toBeVisible();
  });
  const audienceUrl = page.url();

  await test.step('two conditions: source is Expo, City contains Kyiv', async () => {
    await page.getByRole('button', { name: 'Add condition' }).click();
    await choose(page, 'Filter 1', 'Source');
    await expect(page.getByRole('combobox', { name: 'Operator 1', exact: true })).toHaveValue('is');
    await choose(page, 'Values 1', 'Expo');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByRole('combobox', { name: 'Filter 2', exact: true }).click();
    // One source filter only (spec section 5).
    await expect(page.getByRole('option', { name: 'Source', exact: true })).toHaveAttribute('aria-disabled', 'true');
    await page.getByRole('option', { name: 'City', exact: true }).click();
    await expect(page.getByRole('combobox', { name: 'Operator 2', exact: true })).toHaveValue('contains');
    await page.getByRole('combobox', { name: 'Values 2', exact: true }).fill('kyiv');
    await page.getByRole('combobox', { name: 'Values 2', exact: true }).press('Enter');

    await page.getByRole('button', { name: 'Save filters' }).click();
    await expectToast(page, 'Filters saved');
    await expect(page.getByRole('link', { name: 'Total leads: 2' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Leads' });
    await expect(table.getByRole('row').filter({ hasText: '+380501110001' })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: '+380501110003' })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: '+380501110004' })).toHaveCount(0);
  });

  await test.step('a child segment narrows the audience', async () => {
    await page.getByRole('button', { name: 'Create Segment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Segment' });
    await dialog.getByLabel(/^Segment Name/).fill('Number ending 3');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(/\/audiences\/\d+\/segments\/\d+\/leads$/);
    await expect(page.getByRole('heading', { name: 'Number ending 3' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Total leads: 2' })).toBeVisible();

    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByRole('combobox', { name: 'Filter 1', exact: true }).click();
    // A segment has a parent: source and list belong to the audience.
    await expect(page.getByRole('option', { name: 'Source', exact: true })).toHaveAttribute('aria-disabled', 'true');
    await expect(page.getByRole('option', { name: 'List', exact: true })).toHaveAttribute('aria-disabled', 'true');
    await page.getByRole('option', { name: 'Phone', exact: true }).click();
    await page.getByRole('combobox', { name: 'Values 1', exact: true }).fill('110003');
    await page.getByRole('combobox', { name: 'Values 1', exact: true }).press('Enter');
    await page.getByRole('button', { name: 'Save filters' }).click();
    await expect(page.getByRole('link', { name: 'Total leads: 1' })).toBeVisible();

    const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
    await crumbs.getByRole('link', { name: 'Kyiv visitors' }).click();
    await page.getByRole('link', { name: 'Segments: 1' }).click();
    await expect(page).toHaveURL(/\/audiences\/\d+\/segments$/);
    await expect(page.getByRole('table', { name: 'Segments' }).getByRole('row')).toHaveCount(2);
    await expect(page.getByRole('link', { name: 'Number ending 3' })).toBeVisible();
  });

  await test.step("a lead's page shows its audience and segment as chips that lead there", async () => {
    await page.goto(audienceUrl);
    await page.getByRole('table', { name: 'Leads' }).getByRole('row').filter({ hasText: '+380501110003' }).click();
    await expect(page).toHaveURL(/\/audiences\/\d+\/leads\/\d+$/);
    await expect(page.getByRole('link', { name: 'Kyiv visitors', exact: true }).last()).toBeVisible();
    const chip = page.getByRole('link', { name: 'Number ending 3', exact: true });
    await expect(chip).toBeVisible();
    await chip.click();
    await expect(page).toHaveURL(/\/audiences\/\d+\/segments\/\d+\/leads$/);
    await expect(page.getByRole('heading', { name: 'Number ending 3' })).toBeVisible();
  });

  await test.step('export as CSV and open the file', async () => {
    await page.goto(audienceUrl);
    await page.getByRole('button', { name: 'Export as CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export as CSV' });
    await dialog.getByRole('button', { name: 'Export' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await dialog.getByLabel(/^File name/).fill('kyiv export');
    await dialog.getByRole('button', { name: 'Export' }).click();
    await expectToast(page, 'Export "kyiv export" started');

    const link = page.getByRole('link', { name: 'Download kyiv export' });
    await expect(link).toBeVisible({ timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const bytes = await readFile(await download.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text).toContain('Kyiv');
    expect(text).toMatch(/380501110001/);
    expect(text).not.toMatch(/380501110004/);

    await expectProcess(page, 'Export kyiv export');
  });

  await test.step('duplicate goes to the copy; delete returns to the audiences', async () => {
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Duplicate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Duplicate' });
    await expect(dialog.getByLabel(/^Audience Name/)).toHaveValue('Kyiv visitors (copy)');
    await dialog.getByRole('button', { name: 'Duplicate' }).click();
    await expect(page.getByRole('heading', { name: 'Kyiv visitors (copy)' })).toBeVisible();
    expect(page.url()).not.toBe(audienceUrl);
    await expect(page).toHaveURL(/\/audiences\/\d+\/leads$/);
    await expect(page.getByRole('link', { name: 'Total leads: 2' })).toBeVisible();

    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete audience' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/$/);
    const table = page.getByRole('table', { name: 'Audiences' });
    await expect(table.getByRole('link', { name: 'Kyiv visitors', exact: true })).toBeVisible();
    await expect(table.getByRole('link', { name: 'Kyiv visitors (copy)' })).toHaveCount(0);
    await expect(table.getByRole('link', { name: 'Segments of Kyiv visitors: 1' })).toBeVisible();
  });
});
