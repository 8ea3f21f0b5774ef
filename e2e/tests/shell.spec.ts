import { expect, test } from '@playwright/test';

test('the app loads in Ukrainian by default, with no inline script', async ({ page }) => {
  const response = await page.goto('/signin');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  const html = await response?.text();
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);

  await expect(page.getByRole('heading', { name: 'Вхід до Herald' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'uk');
  // Mantine's own words are the user's language too: the password field's show/hide button.
  await expect(page.getByRole('button', { name: 'Показати або сховати пароль' })).toBeVisible();
});

test('the guard sends a signed-out visitor of /profile to sign in, keeping the way back', async ({ page }) => {
  await page.goto('/profile/security');
  await expect(page).toHaveURL(/\/signin\?redirect=%2Fprofile%2Fsecurity$/);
  await expect(page.getByRole('button', { name: 'Увійти' })).toBeVisible();
});

test('switching language changes the text and survives a reload', async ({ page }) => {
  await page.goto('/signin');
  await page.getByRole('button', { name: /Мова|Language|Язык/ }).click();
  await page.getByRole('menuitem', { name: 'English' }).click();

  await expect(page.getByRole('heading', { name: 'Sign in to Herald' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show or hide the password' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to Herald' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('herald.lang'))).toBe('en');

  await page.getByRole('button', { name: /Language/ }).click();
  await page.getByRole('menuitem', { name: 'Русский' }).click();
  await expect(page.getByRole('heading', { name: 'Вход в Herald' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
});

test('an unknown signed-out address also asks to sign in', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/signin\?redirect=%2Fno%2Fsuch%2Fpage$/);
});
