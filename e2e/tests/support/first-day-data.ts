import { expect, type Page } from '@playwright/test';

export async function api(page: Page, token: string, method: 'get' | 'post' | 'put', path: string, data?: unknown) {
  const response = await page.request[method](`/api${path}`, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return response.json();
}

/**
 * A file as a first-day user brings one: a phone that is already a lead (a duplicate), long
 * Ukrainian notes, and rows that fail (a wrong phone, a short one), so the history and the
 * failed-rows screens have something to show.
 */
const FILE = [
  'Phone,Email,Коментар',
  '+380501110001,olena.kovalenko@example.com,Повторний візит: просила надіслати прайс на насіння кукурудзи',
  '+380501110010,taras.shevchuk.agro@example.com,Запрошення на дегустацію нового сорту пшениці та консультацію агронома',
  'not-a-phone,wrong@example.com,Неправильний номер у рядку з дуже довгим поясненням для перевірки переносу слів',
  '12345,,Короткий номер',
].join('\r\n');

export const AUDIENCE = 'Відвідувачі виставки, які просили прайс на насіння';

export interface Seed {
  sourceId: number;
  listId: number;
  fileId: number;
}

/** Upload → Match Format (proposed attributes, the rest as new ones) → run, until it has finished. */
async function importFile(page: Page, token: string, listId: number) {
  const headers = { Authorization: `Bearer ${token}` };
  const upload = await page.request.post('/api/imports', {
    headers,
    multipart: {
      'list_id[0]': String(listId),
      black_list: '0',
      file: { name: 'agro_2026_stand_14_visitors_final_export.csv', mimeType: 'text/csv', buffer: Buffer.from(FILE) },
    },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  const doc = (await upload.json()) as {
    id: number;
    attributes: { id: number; name: string; lead_attribute_id: number | null }[];
  };
  const list = doc.attributes.map((c) =>
    c.lead_attribute_id
      ? { processing_document_attribute_id: c.id, lead_attribute_id: c.lead_attribute_id }
      : { processing_document_attribute_id: c.id, name: c.name },
  );
  await api(page, token, 'post', `/sync-import/${doc.id}/import-attributes/multiple`, { list });
  await api(page, token, 'post', `/imports/${doc.id}/dispatch`);
  await expect
    .poll(async () => (await api(page, token, 'get', `/imports/${doc.id}`)).status, { timeout: 90_000 })
    .toBe('completed');
  return doc.id;
}

/**
 * A source and list with long Ukrainian names, three leads typed in (one blacklisted, one pending:
 * the longest status chips), an imported file with failed rows, and an audience.
 */
export async function seedFirstDay(page: Page, token: string): Promise<Seed> {
  const attributes = (await api(page, token, 'get', '/lead-attributes')) as { data: { id: number; type: string }[] };
  const phone = attributes.data.find((a) => a.type === 'phone')?.id ?? 0;
  const source = await api(page, token, 'post', '/sources', { name: 'Виставка «Агро-2026» у Києві' });
  const list = await api(page, token, 'post', `/sources/${source.id}/lists`, {
    name: 'Відвідувачі стенду',
    status: 'active',
  });
  const ids: number[] = [];
  for (const number of ['+380501110001', '+380501110002', '+380501110003']) {
    const lead = await api(page, token, 'post', '/leads', {
      source_id: source.id,
      list_id: list.id,
      attributes: [{ attr_id: phone, value: number }],
    });
    ids.push(lead.id);
  }
  await api(page, token, 'put', '/leads/batch-status', { ids: [ids[1]], status: 'blacklisted' });
  await api(page, token, 'put', '/leads/batch-status', { ids: [ids[2]], status: 'pending' });
  const fileId = await importFile(page, token, list.id);
  await api(page, token, 'post', '/segments', { name: AUDIENCE });
  return { sourceId: source.id, listId: list.id, fileId };
}
