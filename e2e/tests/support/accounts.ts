import { expect, type Page } from '@playwright/test';
import { linkFromMail } from './mail.ts';

export const PASSWORD = 'Start#2024';

/** Registers a new team owner through the UI and opens the verification link (English UI). */
export async function signUpVerified(page: Page, name: string, email: string) {
  await page.goto('/register');
  await page.getByLabel(/^Full name/).fill(name);
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByLabel(/^Confirm password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: "You're not activated yet." })).toBeVisible();
  await page.goto(await linkFromMail(email, '/verify-email'));
  // The first screen loads lazily after the verification: on a loaded two-core machine it took over 15 s.
  await expect(page.getByRole('heading', { name: 'Audiences' })).toBeVisible({ timeout: 40_000 });
}
