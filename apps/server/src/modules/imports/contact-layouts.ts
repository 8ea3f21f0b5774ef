/**
 * The export layouts of the contact apps people import from (decision 011), recognised by their
 * headers. In one of them every column has a known role: phones and e-mails go to the system
 * attributes, names, organisation and notes to the team's attribute of that name when it has one,
 * and the rest (a value's type or label, addresses, photos) is left out unless the user maps it.
 */

/** What a column of a known layout holds. `field`: a team attribute found by one of its names. */
export type ColumnRole = { kind: 'phone' } | { kind: 'email' } | { kind: 'field'; field: Field } | { kind: 'skip' };
export type Field = 'name' | 'first_name' | 'middle_name' | 'last_name' | 'company' | 'job_title' | 'notes';
export type LayoutId = 'google' | 'outlook' | 'apple';

/** The names (and slugs) a team's attribute of each field may have, in the product's languages. */
export const FIELD_NAMES: Record<Field, string[]> = {
  name: ['name', 'full name', 'full_name', 'display name', "ім'я та прізвище", 'піб', 'фио'],
  first_name: ['first name', 'first_name', 'given name', "ім'я", 'имя'],
  middle_name: ['middle name', 'middle_name', 'additional name', 'по батькові', 'отчество'],
  last_name: ['last name', 'last_name', 'family name', 'surname', 'прізвище', 'фамилия'],
  company: ['company', 'organization', 'organisation', 'organization name', 'компанія', 'компания', 'організація'],
  job_title: ['job title', 'job_title', 'title', 'position', 'посада', 'должность'],
  notes: ['notes', 'note', 'comment', 'нотатки', 'примітки', 'заметки'],
};

const PHONE = { kind: 'phone' } as const;
const EMAIL = { kind: 'email' } as const;
const SKIP = { kind: 'skip' } as const;
const field = (f: Field): ColumnRole => ({ kind: 'field', field: f });

interface Layout {
  id: LayoutId;
  /** Whether a header row is this layout's. */
  matches(headers: string[]): boolean;
  role(header: string): ColumnRole;
}

/**
 * Google Contacts CSV (both the current and the older "Google CSV"): `Phone 1 - Value`, its
 * `Phone 1 - Label` (or `- Type`), `E-mail 1 - Value`, names, organisation, notes.
 */
const google: Layout = {
  id: 'google',
  matches: (headers) => headers.some((h) => /^(phone|e-mail) \d+ - (value|label|type)$/i.test(h)),
  role(header) {
    if (/^phone \d+ - value$/i.test(header)) return PHONE;
    if (/^e-mail \d+ - value$/i.test(header)) return EMAIL;
    if (/^name$/i.test(header)) return field('name');
    if (/^(first|given) name$/i.test(header)) return field('first_name');
    if (/^(middle|additional) name$/i.test(header)) return field('middle_name');
    if (/^(last|family) name$/i.test(header)) return field('last_name');
    if (/^organi[sz]ation( 1 -)? name$/i.test(header)) return field('company');
    if (/^organi[sz]ation( 1 -)? title$/i.test(header)) return field('job_title');
    if (/^notes$/i.test(header)) return field('notes');
    return SKIP;
  },
};

/**
 * Outlook CSV: `Mobile Phone`, `Home Phone`, `Business Phone 2`…, `E-mail Address`, `E-mail 2
 * Address`. Faxes, pagers, telex and an assistant's phone are not the contact's phones.
 */
const outlook: Layout = {
  id: 'outlook',
  matches: (headers) =>
    headers.some((h) => /^e-mail address$/i.test(h)) &&
    headers.some((h) => /^(mobile|home|business|primary) phone$/i.test(h)),
  role(header) {
    if (/^(mobile|home|business|other|primary|car) phone( \d)?$/i.test(header)) return PHONE;
    if (/^e-mail( \d)? address$/i.test(header)) return EMAIL;
    if (/^first name$/i.test(header)) return field('first_name');
    if (/^middle name$/i.test(header)) return field('middle_name');
    if (/^last name$/i.test(header)) return field('last_name');
    if (/^company$/i.test(header)) return field('company');
    if (/^job title$/i.test(header)) return field('job_title');
    if (/^notes$/i.test(header)) return field('notes');
    return SKIP;
  },
};

/** vCard property of a header, as vCard-to-CSV tools name Apple/iCloud columns: `TEL;type=CELL`, `item1.EMAIL`. */
const vcardProperty = (header: string) => /^(?:item\d+\.)?([A-Z-]+)(?:;.*)?$/.exec(header)?.[1];
/** A header only a vCard export writes: a typed or grouped TEL or EMAIL, not a plain "EMAIL". */
const VCARD_ONLY = /^(?:item\d+\.(?:TEL|EMAIL)(?:;.*)?|(?:TEL|EMAIL);.+)$/;

/** Apple/iCloud contacts written from vCards to CSV: one column per property (`TEL;type=CELL`, `EMAIL;type=HOME`, `FN`, `ORG`). */
const apple: Layout = {
  id: 'apple',
  matches: (headers) => headers.some((h) => VCARD_ONLY.test(h)),
  role(header) {
    switch (vcardProperty(header)) {
      case 'TEL':
        return /fax|pager/i.test(header) ? SKIP : PHONE;
      case 'EMAIL':
        return EMAIL;
      case 'FN':
        return field('name');
      case 'ORG':
        return field('company');
      case 'TITLE':
        return field('job_title');
      case 'NOTE':
        return field('notes');
      default:
        return SKIP;
    }
  },
};

const LAYOUTS = [google, outlook, apple];

/** The known layout a header row is in, with each column's role; null for any other file. */
export function recogniseLayout(headers: string[]): { id: LayoutId; roles: ColumnRole[] } | null {
  const layout = LAYOUTS.find((l) => l.matches(headers));
  return layout ? { id: layout.id, roles: headers.map((h) => layout.role(h.trim())) } : null;
}
