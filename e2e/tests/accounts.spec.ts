import { type Browser, expect, type Page, test } from '@playwright/test';
import { PASSWORD } from './support/accounts.ts';
import { linkFromMail } from './support/mail.ts';

const NEW_PASSWORD = 'Better#2025';

/** A fresh page whose app speaks English, so the steps read like the spec. */
async function englishPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  return context.newPage();
}

async function expectToast(page: Page, text: string) {
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: text })).toBeVisible();
}

test('owner signs up, verifies, edits the profile, changes password and invites an operator', async ({ browser }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const ownerEmail = `owner-${stamp}@example.com`;
  const operatorEmail = `operator-${stamp}@example.com`;
  const page = await englishPage(browser);

  await test.step('sign up: the account waits for its e-mail to be verified', async () => {
    await page.goto('/register');
    await page.getByLabel(/^Full name/).fill('Olena Owner');
    await page.getByLabel(/^Email/).fill(ownerEmail);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByLabel(/^Confirm password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('heading', { name: "You're not activated yet." })).toBeVisible();
  });

  await test.step('the verification link activates the account', async () => {
    await page.goto(await linkFromMail(ownerEmail, '/verify-email'));
    await expect(page.getByText('Your email is confirmed')).toBeVisible();
    await expect(page).toHaveURL(/\/$/, { timeout: 10_000 });
    await expect(page.getByRole('heading', { name: 'Audiences' })).toBeVisible();
    await expect(page.getByText('No Audiences Found')).toBeVisible();
  });

  await test.step('the header shows the system processes popover', async () => {
    await page.getByRole('button', { name: 'System processes' }).click();
    await expect(page.getByText('No processes')).toBeVisible();
    await page.keyboard.press('Escape');
  });

  await test.step('log out after a confirmation, then sign in again and come back', async () => {
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await page.goto('/profile/security');
    await expect(page).toHaveURL(/\/signin\?redirect=%2Fprofile%2Fsecurity$/);

    await page.getByLabel(/^Email/).fill(ownerEmail);
    await page.getByLabel(/^Password/).fill('Wrong#password1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Incorrect password or user not found.' })).toBeVisible();

    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/profile\/security$/);
    await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  });

  await test.step('edit personal information', async () => {
    await page.goto('/profile');
    await expect(page.getByLabel(/^Email/)).toHaveAttribute('readonly', '');
    await page.getByLabel(/^Name/).fill('');
    await page.getByLabel(/^Phone/).click();
    await expect(page.getByText('Username is required')).toBeVisible();
    await page.getByLabel(/^Name/).fill('Olena Kovalenko');
    await page.getByLabel(/^Phone/).fill('380501234567');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Success updated User Personal Information');
    await page.reload();
    await expect(page.getByLabel(/^Phone/)).toHaveValue('+380501234567');
    await expect(page.getByRole('button', { name: 'User menu' })).toContainText('Olena Kovalenko');
  });

  await test.step('change the password; this tab keeps working with the new token', async () => {
    await page.goto('/profile/security');
    await page.getByLabel(/^Current password/).fill(PASSWORD);
    await page.getByLabel(/^New password/).fill('nodigits!');
    await page.getByLabel(/^Confirm new password/).click();
    await expect(page.getByText('Password must contain a number')).toBeVisible();
    await page.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await page.getByLabel(/^Confirm new password/).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Update password' }).click();
    await expectToast(page, 'Password updated successfully');
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  });

  await test.step('invite an operator', async () => {
    await page.goto('/profile/team');
    await expect(page.getByRole('cell', { name: ownerEmail })).toBeVisible();
    await page.getByRole('button', { name: 'Invite User' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Email/).fill(operatorEmail);
    await dialog.getByRole('radio', { name: 'Team operator' }).check();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page).toHaveURL(/\/profile\/team\/invites$/);
    const row = page.getByRole('row').filter({ hasText: operatorEmail });
    await expect(row).toContainText('Team operator');

    await row.getByRole('button', { name: `Resend invitation to ${operatorEmail}` }).click();
    await expectToast(page, 'Success Resend');
  });

  const invitePath = await linkFromMail(operatorEmail, '/invite/', 2);

  await test.step('the operator registers through the invitation in another browser', async () => {
    const operator = await englishPage(browser);
    await operator.goto(invitePath);
    const email = operator.getByLabel(/^Email/);
    await expect(email).toHaveValue(operatorEmail);
    await expect(email).toHaveAttribute('readonly', '');
    await operator.getByLabel(/^Full name/).fill('Ivan Operator');
    await operator.getByLabel(/^Password/).fill(PASSWORD);
    await operator.getByLabel(/^Confirm password/).fill(PASSWORD);
    await operator.getByRole('button', { name: 'Register' }).click();
    // Operators have no audiences page at `/`: they land on the leads (spec section 2).
    await expect(operator).toHaveURL(/\/leads$/);
    await expect(operator.getByRole('heading', { name: 'Leads', exact: true })).toBeVisible();

    await operator.goto('/profile');
    const nav = operator.getByRole('navigation', { name: 'Profile sections' });
    await expect(nav.getByRole('link', { name: 'Security' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Team' })).toHaveCount(0);
    await operator.goto('/profile/team');
    await expect(operator).toHaveURL(/\/profile$/);
    await operator.context().close();
  });

  await test.step('the owner sees the operator in the team, and the invitation is gone', async () => {
    await page.goto('/profile/team');
    const row = page.getByRole('row').filter({ hasText: operatorEmail });
    await expect(row).toContainText('Team operator');
    await expect(row.getByRole('button', { name: 'Block Ivan Operator' })).toBeVisible();
    await page.getByRole('tab', { name: 'Invites' }).click();
    await expect(page.getByText('No Invitations Found')).toBeVisible();
  });
});
