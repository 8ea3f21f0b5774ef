import { expect, type Page } from '@playwright/test';

/** Opens the header's system processes popover, finds the process titled `title` (with `status`), closes it. */
export async function expectProcess(page: Page, title: string, status?: string) {
  await page.getByRole('button', { name: 'System processes' }).click();
  const popover = page.getByRole('dialog').filter({ hasText: 'System processes' });
  await expect(popover.getByText(title)).toBeVisible();
  if (status) await expect(popover.getByText(status)).toBeVisible();
  await page.keyboard.press('Escape');
}
