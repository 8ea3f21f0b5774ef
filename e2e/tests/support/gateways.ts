import { expect, type Page } from '@playwright/test';

/** Settings → SMS gateways, in each language: what adding a simulator looks for. */
export const GATEWAY_TEXT = {
  uk: {
    tab: 'SMS-шлюзи',
    add: 'Додати шлюз',
    name: 'Назва',
    save: 'Зберегти',
    delivered: 'Доставлено, %',
    failed: 'Помилка, %',
    blocked: 'Заблоковано оператором, %',
  },
  en: {
    tab: 'SMS Gateways',
    add: 'Add gateway',
    name: 'Name',
    save: 'Save',
    delivered: 'Delivered, %',
    failed: 'Failed, %',
    blocked: 'Blocked by carrier, %',
  },
  ru: {
    tab: 'SMS-шлюзы',
    add: 'Добавить шлюз',
    name: 'Название',
    save: 'Сохранить',
    delivered: 'Доставлено, %',
    failed: 'Ошибка, %',
    blocked: 'Заблокировано оператором, %',
  },
} as const;

/**
 * Adds a simulator that delivers every message (the type's defaults fail or block some, which a
 * test of delivery cannot have) through Settings → SMS gateways, and waits for its row.
 */
export async function addSimulatorGateway(page: Page, lang: keyof typeof GATEWAY_TEXT, shot?: string) {
  const text = GATEWAY_TEXT[lang];
  await page.goto('/settings');
  await expect(page.getByRole('tab', { name: text.tab })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: text.add }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('textbox', { name: text.name, exact: true })).toHaveValue('Simulator');
  await dialog.getByLabel(text.delivered).fill('100');
  await dialog.getByLabel(text.failed).fill('0');
  await dialog.getByLabel(text.blocked).fill('0');
  if (shot) await page.screenshot({ path: shot });
  await dialog.getByRole('button', { name: text.save }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: /Simulator/ })).toBeVisible();
}
