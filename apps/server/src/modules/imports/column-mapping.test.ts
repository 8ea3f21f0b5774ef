import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { describe, expect, it } from 'vitest';
import { proposeMapping } from './column-mapping.ts';
import { recogniseLayout } from './contact-layouts.ts';

const attribute = (id: number, name: string, slug: string, type: TLeadAttribute['type'] = 'string') =>
  ({ id, name, slug, type, sort_order: id, is_system: type !== 'string' }) as TLeadAttribute;
const ATTRIBUTES = [
  attribute(1, 'Phone', 'phone', 'phone'),
  attribute(2, 'Email', 'email', 'email'),
  attribute(3, 'First Name', 'first_name'),
  attribute(4, 'Прізвище', 'prizvyshche'),
  attribute(5, 'Company', 'company'),
  attribute(6, 'Notes', 'notes'),
];
const propose = (names: string[], preview: string[][] = [], country?: string) =>
  Object.fromEntries(names.map((n, i) => [n, proposeMapping(names, preview, ATTRIBUTES, country)[i]]));

describe('contact-app layouts', () => {
  it('Google Contacts: values mapped, types and labels left out, names by any of their names', () => {
    const names = [
      'Name',
      'Given Name',
      'Family Name',
      'Phone 1 - Type',
      'Phone 1 - Value',
      'E-mail 1 - Type',
      'E-mail 1 - Value',
      'Organization 1 - Name',
      'Notes',
      'Group Membership',
    ];
    expect(recogniseLayout(names)?.id).toBe('google');
    expect(
      propose(names, [
        ['Olena', 'Olena', 'Koval', 'Mobile', '0501234567', '* Home', 'o@example.com', '', '', '* myContacts'],
      ]),
    ).toEqual({
      Name: null,
      'Given Name': 3,
      'Family Name': 4,
      'Phone 1 - Type': null,
      'Phone 1 - Value': 1,
      'E-mail 1 - Type': null,
      'E-mail 1 - Value': 2,
      'Organization 1 - Name': 5,
      Notes: 6,
      'Group Membership': null,
    });
  });

  it('Outlook: every kind of the contact phone, no fax, pager or telex', () => {
    const names = [
      'First Name',
      'Last Name',
      'Mobile Phone',
      'Home Phone 2',
      'Business Fax',
      'Pager',
      'Telex',
      'E-mail Address',
      'E-mail Type',
      'E-mail 2 Address',
    ];
    expect(recogniseLayout(names)?.id).toBe('outlook');
    expect(propose(names)).toEqual({
      'First Name': 3,
      'Last Name': 4,
      'Mobile Phone': 1,
      'Home Phone 2': 1,
      'Business Fax': null,
      Pager: null,
      Telex: null,
      'E-mail Address': 2,
      'E-mail Type': null,
      'E-mail 2 Address': 2,
    });
  });

  it('Apple/iCloud vCard-to-CSV: TEL and EMAIL properties, a fax left out', () => {
    const names = ['FN', 'ORG', 'TEL;type=CELL', 'TEL;type=FAX', 'item1.TEL', 'EMAIL;type=INTERNET', 'NOTE'];
    expect(recogniseLayout(names)?.id).toBe('apple');
    expect(propose(names)).toEqual({
      FN: null,
      ORG: 5,
      'TEL;type=CELL': 1,
      'TEL;type=FAX': null,
      'item1.TEL': 1,
      'EMAIL;type=INTERNET': 2,
      NOTE: 6,
    });
  });

  it('an ordinary file is no layout: names, hints and sample values decide', () => {
    expect(recogniseLayout(['Phone', 'EMAIL', 'Name'])).toBeNull();
    const names = ['Телефон', 'Mail', 'Company', 'Numbers'];
    expect(propose(names, [['0501234567', 'a@example.com', 'X', '689739858 ::: 0671234567']])).toEqual({
      Телефон: 1,
      Mail: 2,
      Company: 5,
      Numbers: 1,
    });
  });

  it('reads sample phones in the team country', () => {
    expect(propose(['Numbers'], [['512345678'], ['512345679']], 'PL')).toEqual({ Numbers: 1 });
  });
});
