import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { createAttribute, createLead, sourceWithList } from '../support/leads.ts';
import { type Owner, ownerApp } from '../support/owner-app.ts';
import { databases, type TestApp } from '../support/test-app.ts';
import { allExports, type ContactExport, googleContacts } from '../fixtures/imports/contact-exports.ts';
import { upload, waitForImport } from '../fixtures/imports/import-client.ts';
import { waitUntil } from '../support/wait.ts';

const EXPORTS = ['contacts.csv', 'outlook.csv', 'icloud.csv', 'numbers.xlsx', 'numbers.xls', 'nothing.csv'];

describe.each(databases)('contact-app exports and spreadsheet phones on %s', (kind) => {
  let t: TestApp;
  let owner: Owner;
  let attrs: Record<string, number>;
  ownerApp(
    kind,
    (app) => {
      ({ t, owner, attrs } = app);
    },
    async (t, owner) => {
      let order = 2;
      for (const name of ['Name', 'First Name', 'Last Name', 'Company', 'Notes']) {
        await createAttribute(t, owner.token, name, order++);
      }
    },
  );
  const db = () => t.app.services.database.db as Kysely<any>;

  /** Every lead of a list: its phones and e-mails, sorted, leads in row order. */
  async function leadsOf(listId: number) {
    const r = await sql<{ id: number; type: string; value: string }>`
      select l.id, v.type, v.value from leads l join lead_values v on v.lead_id = l.id
      where l.list_id = ${listId} and v.type in ('phone', 'email') order by l.id, v.value`.execute(db());
    const byLead = new Map<number, { phones: string[]; emails: string[] }>();
    for (const row of r.rows) {
      const lead = byLead.get(Number(row.id)) ?? { phones: [], emails: [] };
      (row.type === 'phone' ? lead.phones : lead.emails).push(row.value);
      byLead.set(Number(row.id), lead);
    }
    const count = await sql<{ n: number }>`select count(*)::int as n from leads where list_id = ${listId}`.execute(
      db(),
    );
    return { leads: [...byLead.values()], total: Number(count.rows[0].n) };
  }

  async function importAsProposed(file: ContactExport) {
    const { list } = await sourceWithList(t, owner.token, file.name);
    const up = await upload(t, owner.token, list.id, file.name, file.content);
    expect(up.statusCode, up.body).toBe(201);
    const doc = up.json();
    // The proposed mapping, by column name → attribute slug (null: left out).
    const slugOf = new Map(Object.entries(attrs).map(([slug, id]) => [id, slug]));
    const proposed = Object.fromEntries(
      doc.attributes
        .filter((c: { name: string }) => Object.hasOwn(file.proposal, c.name))
        .map((c: { name: string; lead_attribute_id: number | null }) => [
          c.name,
          c.lead_attribute_id === null ? null : (slugOf.get(c.lead_attribute_id) ?? c.lead_attribute_id),
        ]),
    );
    expect(proposed, file.name).toEqual(file.proposal);
    // Accepted as proposed: dispatched without a Match Format step.
    const run = await t.request({ method: 'POST', url: `/api/imports/${doc.id}/dispatch`, token: owner.token });
    expect(run.statusCode, run.body).toBe(200);
    return { list, result: await waitForImport(t, owner.token, doc.id) };
  }

  it.each(EXPORTS)(
    'imports %s as proposed: every contact with all its values, failed rows kept, the outcome told',
    async (name) => {
      const file = (await allExports()).find((f) => f.name === name) as ContactExport;
      const { list, result } = await importAsProposed(file);
      const nothing = file.leads.length === 0;
      expect(result.status, file.name).toBe(nothing ? 'failed' : 'completed');
      expect(result.leads_failed, file.name).toBe(file.failedRows.length);
      if (nothing) expect(result.error_code).toBe('import_no_valid_phone');
      const { leads, total } = await leadsOf(list.id);
      expect(total, file.name).toBe(file.leads.length);
      const sorted = (xs: string[]) => [...xs].sort();
      expect(
        leads.map((l) => ({ phones: sorted(l.phones), emails: sorted(l.emails) })),
        file.name,
      ).toEqual(file.leads.map((l) => ({ phones: sorted(l.phones), emails: sorted(l.emails) })));
      const failed = (
        await t.request({ method: 'GET', url: `/api/import-files/${result.id}/leads-failed`, token: owner.token })
      ).json();
      expect(
        failed.data.map((f: { row_number: number }) => f.row_number),
        file.name,
      ).toEqual(file.failedRows);
      // The popover's line under a completed import that refused rows: how many, and which import.
      // The run writes it just after the import row completes, so it may land a moment later.
      if (!nothing && file.failedRows.length > 0) {
        const expected = { code: 'leads_failed', params: { count: file.failedRows.length, import_id: result.id } };
        const messages = async () =>
          (await t.request({ method: 'GET', url: '/api/processes', token: owner.token }))
            .json()
            .data.map((p: { message: unknown }) => p.message) as unknown[];
        await waitUntil(
          `${file.name}: the process line of its failed rows`,
          async () => (await messages()).some((m) => JSON.stringify(m) === JSON.stringify(expected)),
          10_000,
          100,
        );
        expect(await messages()).toContainEqual(expected);
      }
      // A failed import is history too, with its rows to open.
      const history = (await t.request({ method: 'GET', url: '/api/imports', token: owner.token })).json();
      expect(history.data.find((h: { id: number }) => h.id === result.id)).toMatchObject({
        status: nothing ? 'failed' : 'completed',
        leads_failed: file.failedRows.length,
      });
    },
  );

  it('keeps the names, organisation and notes of a Google contact, and its values in the Timeline', async () => {
    const { list } = await importAsProposed(googleContacts());
    const r = await sql<{ slug: string; value: string }>`
      select a.slug, v.value from leads l join lead_values v on v.lead_id = l.id
      join lead_attributes a on a.id = v.attribute_id
      where l.list_id = ${list.id} order by l.id limit 20`.execute(db());
    const first = r.rows.slice(0, 8).map((x) => `${x.slug}=${x.value}`);
    expect(first).toEqual(
      expect.arrayContaining(['first_name=Olena', 'last_name=Koval', 'company=Kvitka', 'notes=met at the fair']),
    );
    const lead = await sql<{ id: number }>`select id from leads where list_id = ${list.id} order by id limit 1`.execute(
      db(),
    );
    const log = (
      await t.request({ method: 'GET', url: `/api/leads/${lead.rows[0].id}/log`, token: owner.token })
    ).json();
    const added = log.data
      .flatMap((e: { diff_log: Array<{ lead_attribute_value: string }> }) => e.diff_log ?? [])
      .map((d: { lead_attribute_value: string }) => d.lead_attribute_value);
    expect(added).toEqual(expect.arrayContaining(['+380989950043', '+380502710079', '+380689739858']));
  });

  it('reads every typed phone in the team default country, which the owner sets', async () => {
    const get = await t.request({ method: 'GET', url: '/api/settings/default-country', token: owner.token });
    expect(get.json()).toEqual({ country: 'UA' });
    const { source, list } = await sourceWithList(t, owner.token, 'Country');
    /** The phone as stored of a lead created with `typed` as its phone. */
    const storedPhone = async (typed: string) => {
      const created = await createLead(t, owner.token, source.id, list.id, [[attrs.phone, typed]]);
      const lead = (
        await t.request({ method: 'GET', url: `/api/leads/${created.json().id}`, token: owner.token })
      ).json();
      return lead.lead_values.find((v: { attribute: { type: string } }) => v.attribute.type === 'phone')?.value;
    };
    const setCountry = (country: string) =>
      t.request({ method: 'PUT', url: '/api/settings/default-country', token: owner.token, payload: { country } });
    // Valid in Ukraine and in New Caledonia (+687…): the national reading wins.
    expect(await storedPhone('687916046')).toBe('+380687916046');

    const bad = await setCountry('XX');
    expect(bad.statusCode).toBe(422);
    const put = await setCountry('PL');
    expect(put.json()).toEqual({ country: 'PL' });
    expect(await storedPhone('512 345 678')).toBe('+48512345678');
    // An audience filter by phone reads its value the same way.
    const audience = await t.request({
      method: 'POST',
      url: '/api/segments',
      token: owner.token,
      payload: { name: 'Polish phone', filters: [{ id: attrs.phone, operator: 'eq', values: ['512345678'] }] },
    });
    expect(audience.statusCode, audience.body).toBe(201);
    const count = await t.request({
      method: 'GET',
      url: `/api/segments/${audience.json().id}/leads-count`,
      token: owner.token,
    });
    expect(count.json()).toEqual({ leads_count: 1 });
    // Another team reads in its own country still.
    const other = await signupVerified(t);
    const theirs = await t.request({ method: 'GET', url: '/api/settings/default-country', token: other.token });
    expect(theirs.json()).toEqual({ country: 'UA' });
    await setCountry('UA');
  });

  it('saves the profile phone by the same rule', async () => {
    const { token, user } = await signupVerified(t);
    const put = (phone: string) =>
      t.request({ method: 'PUT', url: `/api/user/${user.id}`, token, payload: { name: 'Olena', phone } });
    const ok = await put('0671234567');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().phone).toBe('+380671234567');
    const refused = await put('12');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.phone).toEqual([{ code: 'phone_invalid' }]);
    expect((await put('')).json().phone).toBeNull();
  });
});
