import { describe, expect, it } from 'vitest';
import { sourceWithList } from '../support/leads.ts';
import { type Owner, ownerApp } from '../support/owner-app.ts';
import { databases, type TestApp } from '../support/test-app.ts';
import { googleContacts } from '../fixtures/imports/contact-exports.ts';
import { upload } from '../fixtures/imports/import-client.ts';

// Match Format proposes a new attribute for a column no attribute matched (Name, City), so pressing
// Import at once keeps its data; a contact app's bookkeeping columns (a phone's label) are not.
describe.each(databases)('new attributes proposed for unmatched columns on %s', (kind) => {
  let t: TestApp;
  let owner: Owner;
  ownerApp(kind, (app) => {
    ({ t, owner } = app);
  });

  const proposalOf = async (name: string, content: Buffer) => {
    const { list } = await sourceWithList(t, owner.token, `${name} ${Math.random()}`);
    const up = await upload(t, owner.token, list.id, name, content);
    expect(up.statusCode, up.body).toBe(201);
    return Object.fromEntries(
      up
        .json()
        .attributes.map((c: { name: string; new_proposed: boolean; lead_attribute_id: number | null }) => [
          c.name,
          c.lead_attribute_id === null ? c.new_proposed : 'mapped',
        ]),
    );
  };

  it('proposes Name and City of a plain file, not its phone', async () => {
    const csv = Buffer.from('Phone,Name,City\n+380501234567,Olena,Kyiv\n+380671112233,Petro,Lviv\n', 'utf8');
    expect(await proposalOf('plain.csv', csv)).toEqual({ Phone: 'mapped', Name: true, City: true });
  });

  it("proposes a Google export's names and notes, not its labels", async () => {
    const file = googleContacts();
    const proposal = await proposalOf(file.name, file.content);
    expect(proposal).toMatchObject({
      'First Name': true,
      'Last Name': true,
      Notes: true,
      'Phone 1 - Label': false,
      'E-mail 1 - Label': false,
      Labels: false,
      'Phone 1 - Value': 'mapped',
    });
  });
});
