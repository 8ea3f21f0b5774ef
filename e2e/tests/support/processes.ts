import { expect, type Page } from '@playwright/test';

/** Opens the header's system processes popover, finds the process titled `title` (with `status`), closes it. */
export async function expectProcess(page: Page, title: string, status?: string) {
  await page.getByRole('button', { name: 'System processes' }).click();
  const popover = page.getByRole('dialog').filter({ hasText: 'System processes' });
  await expect(popover.getByText(title)).toBeVisible();
  // The status comes by its own live event, which may follow what the test saw before (the
  // modal's end, a toast) by seconds on a loaded machine.
  if (status) await expect(popover.getByText(status)).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press('Escape');
}
