import { expect, test } from '@playwright/test';
import { signUpVerified } from './support/accounts.ts';

const now = new Date().toISOString();
const process = (
  id: number,
  status: string,
  progress: number,
  title: string,
  message: { code: string; params: Record<string, string | number> } | null = null,
  phase: string | null = null,
) => ({
  id,
  kind: 'imports.run',
  title,
  status,
  phase,
  progress,
  message,
  created_at: now,
  updated_at: now,
});
const sse = (id: number, payload: unknown) => `id: ${id}\nevent: ProcessStatus\ndata: ${JSON.stringify(payload)}\n\n`;

// The list and the event stream are played back here, so every state shows without a real job;
// what is checked is the header: its badge, its list, and that live events update it in place.
test('the system processes popover lists processes and follows ProcessStatus events', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  await signUpVerified(page, 'Petro Processes', `processes-${Date.now()}@example.com`);

  // The mocks model one server: once the events are streamed, the list answers with their state too,
  // so the check holds whichever of the two requests the page sees first.
  const state = new Map([
    [1, process(1, 'running', 20, 'leads-march.csv')],
    [2, process(2, 'completed', 100, 'old.xlsx', { code: 'leads_failed', params: { count: 2, import_id: 77 } })],
    [3, process(3, 'paused', 35, 'Spring sale')],
  ]);
  await page.route('**/api/processes', (route) =>
    route.fulfill({ json: { data: [...state.values()].sort((a, b) => b.id - a.id) } }),
  );
  let streamed = false;
  await page.route('**/api/events?**', (route) => {
    let events = '';
    if (!streamed) {
      const changes = [
        process(1, 'running', 64, 'leads-march.csv', null, 'resolving'),
        process(5, 'failed', 12, 'broken.xls'),
        // An import taking back what it published from a file found broken midway.
        process(4, 'running', 40, 'cut-short.xlsx', { code: 'import_file_broken', params: {} }, 'failing'),
      ];
      for (const change of changes) state.set(change.id, change);
      events = changes.map((change, i) => sse(6 + i, change)).join('');
    }
    streamed = true;
    return route.fulfill({ headers: { 'content-type': 'text/event-stream' }, body: `retry: 600000\n\n${events}` });
  });
  await page.reload();

  const button = page.getByRole('button', { name: 'System processes' });
  await button.click();
  const dropdown = page.getByRole('dialog');
  await expect(dropdown.getByText('broken.xls')).toBeVisible();
  await expect(dropdown.getByText('Failed', { exact: true })).toBeVisible();
  await expect(dropdown.getByText('Resolving')).toBeVisible();
  await expect(dropdown.getByText('Completed')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'leads-march.csv: 64%' })).toBeVisible();
  await expect(dropdown.getByText('Failing')).toBeVisible();
  await expect(dropdown.getByText('The file is damaged or cut short', { exact: false })).toBeVisible();
  // What a job left behind is read from the message's params: the import's refused rows, linked.
  await expect(dropdown.getByRole('link', { name: '2 rows failed: show' })).toHaveAttribute(
    'href',
    '/settings/import-history/77',
  );
  // A paused process is shown as such, and is neither counted as under way nor cleared.
  await expect(dropdown.getByText('Paused')).toBeVisible();
  // Two under way (resolving, failing): the badge counts both.
  await expect(page.locator('.mantine-Indicator-indicator')).toHaveText('2');
  await page.screenshot({ path: 'test-results/processes-popover.png' });
});
