import { describe, expect, it } from 'vitest';
import { addMember } from '../support/accounts.ts';
import { sourceWithList } from '../support/leads.ts';
import { type Owner, ownerApp } from '../support/owner-app.ts';
import { databases, type TestApp } from '../support/test-app.ts';
import { importFile, upload } from '../fixtures/imports/import-client.ts';
import {
  cp1251,
  csv,
  emptyRows,
  utf16be,
  utf16le,
  withBom,
  xls,
  xlsx,
  zipBomb,
} from '../fixtures/imports/hostile-files.ts';

type Lead = { lead_values: Array<{ value: string; attribute: { name: string; type: string } }> };

/** Messy and hostile files: each gets a clear error or a correct import, never half of one. */
describe.each(databases)('hostile import files on %s', (kind) => {
  let t: TestApp;
  let owner: Owner;
  let attrs: Record<string, number>;
  ownerApp(kind, (app) => {
    ({ t, owner, attrs } = app);
  });

  let n = 0;
  const newList = async () => (await sourceWithList(t, owner.token, `Hostile ${++n}`)).list as { id: number };
  const leadsOf = async (listId: number): Promise<Lead[]> =>
    (
      await t.request({
        method: 'GET',
        url: `/api/lists/${listId}/leads?limit=100&order[0]=id,asc`,
        token: owner.token,
      })
    ).json().data;
  const valuesOf = async (listId: number, type: string) =>
    (await leadsOf(listId)).map((l) =>
      l.lead_values
        .filter((v) => v.attribute.type === type)
        .map((v) => v.value)
        .join('|'),
    );
  const refused = async (name: string, content: Buffer, code: string) => {
    const list = await newList();
    const res = await upload(t, owner.token, list.id, name, content);
    expect([name, res.statusCode, res.json().code]).toEqual([name, 422, code]);
    expect(await leadsOf(list.id)).toEqual([]);
    return res.json();
  };

  it('refuses files without rows, lying extensions, unknown types and zip bombs with clear errors', async () => {
    await refused('header-only.csv', csv(['phone,email']), 'import_file_empty');
    await refused('empty.csv', Buffer.alloc(0), 'import_file_empty');
    await refused('only-empty-rows.csv', emptyRows(1_000_000), 'import_file_empty');
    const lying = await refused('contacts.xlsx', csv(['phone', '+380501234567']), 'import_file_type_mismatch');
    expect(lying.message).toContain('text');
    const realXlsx = await xlsx([['phone'], ['+380501234567']]);
    await refused('contacts.csv', realXlsx, 'import_file_type_mismatch');
    await refused('contacts.xls', realXlsx, 'import_file_type_mismatch');
    await refused('contacts.pdf', csv(['phone', '+380501234567']), 'import_file_type_unsupported');
    const bomb = await refused('bomb.xlsx', zipBomb(), 'import_file_unsafe');
    expect(bomb.message).toMatch(/unpacks to more than/);
  });

  it('needs a list, and operators may not import', async () => {
    const res = await upload(t, owner.token, undefined, 'a.csv', csv(['phone', '+380501234567']));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'import_list_required', message: 'Please, select a Source first' });
    const operator = await addMember(t, owner.token, 'team_operator');
    const list = await newList();
    const denied = await upload(t, operator.token, list.id, 'a.csv', csv(['phone', '+380501234567']));
    expect(denied.statusCode).toBe(403);
  });

  it('reads phones in every shape Excel and people write them', async () => {
    const list = await newList();
    const { result } = await importFile(
      t,
      owner.token,
      list.id,
      'phones.csv',
      csv([
        'phone',
        '3.80501234567E+11',
        '+38 (050) 123-45-68',
        '050-123-45-69',
        '0501234570',
        '380501234571',
        '38 050 123 45 72',
      ]),
      { phone: attrs.phone },
    );
    expect(result).toMatchObject({ status: 'completed', leads_processed: 6, leads_failed: 0 });
    expect(await valuesOf(list.id, 'phone')).toEqual([
      '+380501234567',
      '+380501234568',
      '+380501234569',
      '+380501234570',
      '+380501234571',
      '+380501234572',
    ]);
  });

  it("detects BOM, UTF-16 LE/BE, Windows-1251, the ; and tab delimiters and Excel's sep= line", async () => {
    const text = 'Телефон;Місто\r\n+380501234567;Львів\r\n+380501234568;Київ\r\n';
    const cases: Array<[string, Buffer, string, string]> = [
      ['bom.csv', withBom(text), 'utf-8', ';'],
      ['utf16le.csv', utf16le(text), 'utf-16le', ';'],
      ['utf16le-nobom.csv', utf16le(text, false), 'utf-16le', ';'],
      ['utf16be.csv', utf16be(text), 'utf-16be', ';'],
      ['cp1251.csv', cp1251(text), 'windows-1251', ';'],
      ['tabs.csv', Buffer.from(text.replaceAll(';', '\t')), 'utf-8', '\t'],
      ['tabs.tsv', Buffer.from(text.replaceAll(';', '\t')), 'utf-8', '\t'],
      // Excel's hint line names the delimiter and is not the header.
      ['sep-line.csv', withBom(`sep=;\r\n${text}`), 'utf-8', ';'],
      ['sep-quoted.csv', cp1251(`"sep=\t"\r\n${text.replaceAll(';', '\t')}`), 'windows-1251', '\t'],
    ];
    for (const [name, content, encoding, delimiter] of cases) {
      const list = await newList();
      const up = (await upload(t, owner.token, list.id, name, content)).json();
      expect([name, up.encoding, up.delimiter]).toEqual([name, encoding, delimiter]);
      expect([name, up.attributes.map((c: { name: string }) => c.name)]).toEqual([name, ['Телефон', 'Місто']]);
      const { result } = await importFile(t, owner.token, list.id, name, content, {
        Телефон: attrs.phone,
        Місто: 'Місто',
      });
      expect([name, result.status, result.leads_processed]).toEqual([name, 'completed', 2]);
      expect(await valuesOf(list.id, 'string')).toEqual(['Львів', 'Київ']);
    }
  });

  it('fails, keeping nothing, a file read as UTF-8 that turns into Windows-1251 far into it', async () => {
    const list = await newList();
    const ascii = Array.from({ length: 60_000 }, (_, i) => `+38050${String(3_000_000 + i)};Kyiv`);
    const content = Buffer.concat([csv(['Phone;City', ...ascii]), cp1251('+380503999999;Львів\n')]);
    const up = (await upload(t, owner.token, list.id, 'mixed.csv', content)).json();
    expect(up.encoding).toBe('utf-8');
    const { result } = await importFile(t, owner.token, list.id, 'mixed.csv', content, {
      Phone: attrs.phone,
      City: 'City',
    });
    expect(result).toMatchObject({ status: 'failed', error_code: 'import_file_invalid_text' });
    expect(await leadsOf(list.id)).toEqual([]);
  });

  it('handles empty and duplicate headers, ragged rows, quotes and newlines in cells, and __proto__', async () => {
    const list = await newList();
    const file = csv([
      'phone,,name,name,__proto__',
      '+380501234567,,Anna,Second,"a ""quoted"", multi',
      'line"',
      '+380501234568',
      '+380501234569,x,Bob,B2,p,extra,cells',
    ]);
    const up = (await upload(t, owner.token, list.id, 'messy.csv', file)).json();
    // Cells past the header in a ragged row get columns of their own, for the user to map or ignore.
    expect(up.attributes.map((c: { name: string }) => c.name)).toEqual([
      'phone',
      'Column 2',
      'name',
      'name (2)',
      '__proto__',
      'Column 6',
      'Column 7',
    ]);
    // A blank header is named in the uploader's language: it is also a new attribute's default name.
    const uk = (await upload(t, owner.token, list.id, 'messy.csv', file, '0', 'uk')).json();
    expect(uk.attributes.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['Колонка 2', 'Колонка 6', 'Колонка 7']),
    );
    const { result } = await importFile(t, owner.token, list.id, 'messy.csv', file, {
      phone: attrs.phone,
      name: 'Name',
      'name (2)': 'Name',
      // A computed key makes an own property (a literal __proto__ key would set the prototype).
      ['__proto__']: '__proto__',
    });
    expect(result).toMatchObject({ status: 'completed', leads_processed: 3, leads_failed: 0 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const leads = await leadsOf(list.id);
    const values = leads.map((l) => l.lead_values.map((v) => `${v.attribute.name}=${v.value}`).sort());
    expect(values[0]).toEqual(['Name=Anna', 'Name=Second', 'Phone=+380501234567', '__proto__=a "quoted", multi\nline']);
    expect(values[1]).toEqual(['Phone=+380501234568']);
    expect(values[2]).toEqual(['Name=B2', 'Name=Bob', 'Phone=+380501234569', '__proto__=p']);
  });

  it('drops a stray NUL from a value far into a text file (PostgreSQL text cannot hold one)', async () => {
    const list = await newList();
    // Past the first 8 kB, where the upload's text check looks for binary content.
    const filler = Array.from({ length: 400 }, (_, i) => `+38050${String(7_000_000 + i)},filler`);
    const file = csv(['phone,note', ...filler, '+380507999999,nul\u0000here']);
    const { result } = await importFile(t, owner.token, list.id, 'nul.csv', file, { phone: attrs.phone, note: 'Note' });
    expect(result).toMatchObject({ status: 'completed', leads_processed: 401, leads_failed: 0 });
    const found = (
      await t.request({ method: 'GET', url: `/api/lists/${list.id}/leads?search[0]=nulhere`, token: owner.token })
    ).json();
    expect(found.meta.total).toBe(1);
  });

  it('fails a row with a 5 MB cell and imports the rest; a million empty rows cost nothing', async () => {
    const list = await newList();
    const big = 'x'.repeat(5 * 1024 * 1024);
    const file = csv(['phone,note', `+380501234567,${big}`, '+380501234568,short']);
    const { result } = await importFile(t, owner.token, list.id, 'big-cell.csv', file, {
      phone: attrs.phone,
      note: 'Note',
    });
    expect(result).toMatchObject({ status: 'completed', leads_processed: 1, leads_failed: 1 });
    const failed = (
      await t.request({ method: 'GET', url: `/api/import-files/${result.id}/leads-failed`, token: owner.token })
    ).json();
    expect(failed.data[0].reason).toMatch(/longer than/);

    const sparse = await newList();
    const rows = Buffer.concat([
      Buffer.from('phone,email\n+380501234569,a@example.com\n'),
      Buffer.alloc(1_000_000, '\n'),
      Buffer.from(',\n+380501234570,b@example.com\n'),
    ]);
    const run = await importFile(t, owner.token, sparse.id, 'sparse.csv', rows, {
      phone: attrs.phone,
      email: attrs.email,
    });
    expect(run.result).toMatchObject({ status: 'completed', parsed_leads_count: 2, leads_processed: 2 });
  });

  it('imports XLSX (formulas as their saved results, numbers as phones) and XLS', async () => {
    const list = await newList();
    const workbook = await xlsx([
      ['Phone', 'Email', 'Total'],
      [380501234567, 'a@example.com', { formula: '1+1', result: 2 }],
      ['+380501234568', { formula: 'LOWER("B@EXAMPLE.COM")', result: 'b@example.com' }, 3],
    ]);
    const { result } = await importFile(t, owner.token, list.id, 'book.xlsx', workbook, {
      Phone: attrs.phone,
      Email: attrs.email,
      Total: 'Total',
    });
    expect(result).toMatchObject({ status: 'completed', format: 'xlsx', leads_processed: 2 });
    expect(await valuesOf(list.id, 'phone')).toEqual(['+380501234567', '+380501234568']);
    expect(await valuesOf(list.id, 'email')).toEqual(['a@example.com', 'b@example.com']);
    expect(await valuesOf(list.id, 'string')).toEqual(['2', '3']);

    const old = await newList();
    const book = await xls([
      ['Phone', 'City'],
      [380501234569, 'Lviv'],
      ['0501234570', 'Kyiv'],
    ]);
    const legacy = await importFile(t, owner.token, old.id, 'book.xls', book, { Phone: attrs.phone, City: 'City' });
    expect(legacy.result).toMatchObject({ status: 'completed', format: 'xls', leads_processed: 2 });
    expect(await valuesOf(old.id, 'phone')).toEqual(['+380501234569', '+380501234570']);
  });

  it('blacklists imported leads when black_list is 1', async () => {
    const list = await newList();
    const { result } = await importFile(
      t,
      owner.token,
      list.id,
      'bl.csv',
      csv(['phone', '+380501234599']),
      { phone: attrs.phone },
      '1',
    );
    expect(result).toMatchObject({ status: 'completed', black_list: true });
    const leads = (await t.request({ method: 'GET', url: `/api/lists/${list.id}/leads`, token: owner.token })).json();
    expect(leads.data[0].status).toBe('blacklisted');
    expect(leads.meta.total_blacklisted).toBe(1);
  });
});
