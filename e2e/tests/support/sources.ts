import { expect, type Page } from '@playwright/test';

/**
 * Opens the Sources screen from the main menu and its Import modal. The screen loads lazily, and a
 * new team's first screen (the Get started checklist) has an Import button of its own: the click
 * waits for the Sources heading, or it opens the checklist's modal, which goes with that screen.
 */
export async function openSourcesImport(page: Page) {
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Sources' }).click();
  await expect(page.getByRole('heading', { name: 'Sources', level: 2 })).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('dialog').getByRole('heading', { name: 'Import file' })).toBeVisible();
}
