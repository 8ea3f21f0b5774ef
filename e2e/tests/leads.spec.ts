import { type Browser, expect, type Page, test } from '@playwright/test';
import { PASSWORD } from './support/accounts.ts';
import { linkFromMail } from './support/mail.ts';

/** A fresh page whose app speaks English, so the steps read like the spec. */
async function englishPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  return context.newPage();
}

async function expectToast(page: Page, text: string | RegExp) {
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: text }).first()).toBeVisible();
}

const leadRow = (page: Page, phone: string) => page.getByRole('row').filter({ hasText: phone });

test('owner builds a source and a list, adds, edits, hides, flags and deletes leads; an operator sees only leads', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const ownerEmail = `leads-owner-${stamp}@example.com`;
  const operatorEmail = `leads-operator-${stamp}@example.com`;
  const page = await englishPage(browser);

  await test.step('sign up and verify', async () => {
    await page.goto('/register');
    await page.getByLabel(/^Full name/).fill('Lesya Leads');
    await page.getByLabel(/^Email/).fill(ownerEmail);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByLabel(/^Confirm password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('heading', { name: "You're not activated yet." })).toBeVisible();
    await page.goto(await linkFromMail(ownerEmail, '/verify-email'));
    await expect(page.getByRole('heading', { name: 'Audiences' })).toBeVisible({ timeout: 15_000 });
  });

  await test.step('add a custom attribute; the system ones are locked', async () => {
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Settings' }).click();
    // Settings opens on its first tab, SMS gateways.
    await expect(page).toHaveURL(/\/settings$/);
    await page.getByRole('tab', { name: 'System Attributes' }).click();
    await expect(page).toHaveURL(/\/settings\/system-attributes$/);
    const table = page.getByRole('table', { name: 'Lead attributes' });
    await expect(table.getByRole('row').filter({ hasText: 'Phone' })).toContainText('System');
    await expect(page.getByRole('button', { name: 'Delete Phone' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Add Attribute' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Name/).fill('City');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Attributes added: 1');
    await expect(table.getByRole('row').filter({ hasText: 'City' })).toBeVisible();
  });

  await test.step('create a source and a list', async () => {
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Sources' }).click();
    await expect(page.getByText('No Sources Found')).toBeVisible();
    await page.getByRole('button', { name: 'Create Source' }).click();
    await page
      .getByRole('dialog')
      .getByLabel(/^Source Name/)
      .fill('Expo 2026');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(/\/sources\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Expo 2026' })).toBeVisible();
    await expect(page.getByText('No Lists Found')).toBeVisible();

    await page.getByRole('button', { name: 'Create List' }).click();
    await page
      .getByRole('dialog')
      .getByLabel(/^List Name/)
      .fill('Visitors');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await expect(page).toHaveURL(/\/sources\/\d+\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Visitors' })).toBeVisible();
    await expect(page.getByRole('switch', { name: 'The list is active' })).toBeChecked();
    await expect(page.getByText('No leads Found')).toBeVisible();
  });
  const listUrl = page.url();

  await test.step('add a lead with the modal and one with the quick-insert row', async () => {
    await page.getByRole('button', { name: 'Add Lead' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Lead' });
    await dialog.getByLabel(/^Phone/).fill('380501112233');
    await dialog.getByLabel(/^Email/).fill('anna@example.com');
    await dialog.getByLabel(/^City/).fill('Lviv');
    await dialog.getByRole('button', { name: 'Add Lead' }).click();
    await expectToast(page, 'Lead has been successfully added');
    await expect(leadRow(page, '+380501112233')).toContainText('anna@example.com');

    await page.getByLabel('New lead: Phone').fill('0502223344');
    await page.getByLabel('New lead: City').fill('Kyiv');
    await page.getByLabel('New lead: City').press('Enter');
    await expect(leadRow(page, '+380502223344')).toContainText('Kyiv');
    await expect(page.getByLabel('New lead: Phone')).toHaveValue('');
  });

  await test.step('hide a column and find it hidden after a reload; Phone cannot be hidden', async () => {
    await expect(page.getByRole('columnheader', { name: 'City' })).toBeVisible();
    await page.getByRole('button', { name: 'Columns' }).click();
    await expect(page.getByRole('checkbox', { name: 'Phone' })).toBeDisabled();
    await page.getByRole('checkbox', { name: 'City' }).uncheck();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('columnheader', { name: 'City' })).toHaveCount(0);
    await page.reload();
    await expect(leadRow(page, '+380501112233')).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'City' })).toHaveCount(0);
    await expect(page.getByRole('columnheader', { name: 'Phone' })).toBeVisible();
  });

  await test.step('set the status of both leads at once; blacklisted rows are dimmed', async () => {
    await leadRow(page, '+380501112233').getByRole('checkbox').check();
    await leadRow(page, '+380502223344').getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Set status' }).click();
    await expect(page.getByRole('menuitem', { name: 'Active' })).toHaveCount(0);
    await page.getByRole('menuitem', { name: 'Blacklisted' }).click();
    // Blacklisting asks first, like every destructive action.
    const confirm = page.getByRole('dialog', { name: 'Blacklist leads?' });
    await expect(confirm).toContainText('2 leads will be blacklisted');
    await confirm.getByRole('button', { name: 'Blacklisted' }).click();
    await expectToast(page, 'Leads set to Blacklisted: 2');
    for (const phone of ['+380501112233', '+380502223344']) {
      await expect(leadRow(page, phone)).toContainText('Blacklisted');
      await expect(leadRow(page, phone)).toHaveAttribute('data-status', 'blacklisted');
    }
  });

  await test.step('open a lead, edit a value inline and see it in the Timeline', async () => {
    await leadRow(page, '+380501112233')
      .getByRole('link', { name: /^Open lead #\d+$/ })
      .click();
    await expect(page).toHaveURL(/\/sources\/\d+\/\d+\/\d+$/);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
    await expect(crumbs.getByRole('link', { name: 'Expo 2026' })).toBeVisible();
    await expect(crumbs.getByRole('link', { name: 'Visitors' })).toBeVisible();

    await page.getByRole('button', { name: 'Edit Email: anna@example.com' }).click();
    const input = page.getByLabel('New value of Email');
    await input.fill('Anna.K@Example.com');
    await input.press('Enter');
    await expectToast(page, 'Value saved');
    await expect(page.getByRole('button', { name: 'Edit Email: anna.k@example.com' })).toBeVisible();

    const timeline = page.getByRole('list', { name: 'Timeline' }).or(page.getByLabel('Timeline'));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(timeline.getByText('Value changed')).toBeVisible();
    await expect(timeline.getByText('Email: anna@example.com → anna.k@example.com')).toBeVisible();
    await expect(timeline.getByText('Status changed')).toBeVisible();
    await expect(timeline.getByText('Lead created')).toBeVisible();
    // The Trial keeps 14 days of history, and the Timeline says so.
    await expect(page.getByText('Shown: the last 14 days, as your plan keeps history.')).toBeVisible();
    await page.screenshot({ path: 'test-results/leads/lead-timeline-en.png', fullPage: true });
  });

  await test.step('delete the lead and land back on the list', async () => {
    await page.getByRole('button', { name: 'Delete Lead' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(listUrl);
    await expect(leadRow(page, '+380502223344')).toBeVisible();
    await expect(leadRow(page, '+380501112233')).toHaveCount(0);
  });

  await test.step('invite an operator', async () => {
    await page.goto('/profile/team');
    await page.getByRole('button', { name: 'Invite User' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Email/).fill(operatorEmail);
    await dialog.getByRole('radio', { name: 'Team operator' }).check();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page).toHaveURL(/\/profile\/team\/invites$/);
  });
  const invitePath = await linkFromMail(operatorEmail, '/invite/');

  await test.step('the operator sees only Leads and is sent away from sources', async () => {
    const operator = await englishPage(browser);
    await operator.goto(invitePath);
    await operator.getByLabel(/^Full name/).fill('Oleh Operator');
    await operator.getByLabel(/^Password/).fill(PASSWORD);
    await operator.getByLabel(/^Confirm password/).fill(PASSWORD);
    await operator.getByRole('button', { name: 'Register' }).click();
    const menu = operator.getByRole('navigation', { name: 'Main menu' });
    await expect(menu.getByRole('link', { name: 'Leads' })).toBeVisible();
    await expect(menu.getByRole('link')).toHaveCount(1);

    await operator.goto('/sources');
    await expect(operator).toHaveURL(/\/leads$/);
    await expect(leadRow(operator, '+380502223344')).toBeVisible();
    await expect(operator.getByRole('button', { name: 'Set status' })).toHaveCount(0);
    await expect(leadRow(operator, '+380502223344').getByRole('checkbox')).toHaveCount(0);

    // The owner watches all leads while the operator adds one: the owner's table refreshes live.
    // The table loads apart from the event stream: wait for the stream itself, or the event could
    // be sent before the owner's page listens.
    const streamOpen = page.waitForResponse((r) => r.url().includes('/api/events?') && r.status() === 200);
    await page.goto('/leads');
    await streamOpen;
    await expect(leadRow(page, '+380502223344')).toBeVisible();
    await operator.getByRole('button', { name: 'Add Lead' }).click();
    const dialog = operator.getByRole('dialog', { name: 'Add Lead' });
    await dialog.getByRole('combobox', { name: /^Source/ }).click();
    await operator.getByRole('option', { name: 'Expo 2026' }).click();
    await dialog.getByRole('combobox', { name: /^List/ }).click();
    await operator.getByRole('option', { name: 'Visitors' }).click();
    await dialog.getByLabel(/^Phone/).fill('+380503334455');
    await dialog.getByRole('button', { name: 'Add Lead' }).click();
    await expectToast(operator, 'Lead has been successfully added');
    await expect(leadRow(page, '+380503334455')).toBeVisible();
    await operator.context().close();
  });
});
