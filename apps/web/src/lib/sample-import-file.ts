/**
 * A small CSV a new user can import to see the product work before their own file is ready: column
 * names in their language, phones written the ways real spreadsheets hold them (national with and
 * without the leading zero, international, with spaces), an e-mail-only row, and one phone shared by
 * two rows, so the import's counters and duplicates have something to show.
 */
/** The same phones and e-mails in every language, so the outcome does not depend on it. */
const CONTACTS = [
  ['0501234567', 'olena@example.com'],
  ['+380 67 765 43 21', 'taras@example.com'],
  ['931112233', ''],
  ['(063) 555-12-34', 'ivan@example.com'],
  ['', 'natalia@example.com'],
  ['050 123 45 67', 'olena.work@example.com'],
] as const;

const SAMPLES = {
  uk: {
    file: 'herald-zrazok.csv',
    header: ['Телефон', 'Ел. пошта', "Ім'я", 'Місто'],
    people: [
      ['Олена', 'Київ'],
      ['Тарас', 'Львів'],
      ['Марія', 'Одеса'],
      ['Іван', 'Харків'],
      ['Наталія', 'Дніпро'],
      ['Олена', 'Київ'],
    ],
  },
  en: {
    file: 'herald-sample.csv',
    header: ['Phone', 'Email', 'Name', 'City'],
    people: [
      ['Olena', 'Kyiv'],
      ['Taras', 'Lviv'],
      ['Mariia', 'Odesa'],
      ['Ivan', 'Kharkiv'],
      ['Nataliia', 'Dnipro'],
      ['Olena', 'Kyiv'],
    ],
  },
  ru: {
    file: 'herald-obrazets.csv',
    header: ['Телефон', 'Эл. почта', 'Имя', 'Город'],
    people: [
      ['Елена', 'Киев'],
      ['Тарас', 'Львов'],
      ['Мария', 'Одесса'],
      ['Иван', 'Харьков'],
      ['Наталья', 'Днепр'],
      ['Елена', 'Киев'],
    ],
  },
} as const;

export type SampleLanguage = keyof typeof SAMPLES;

const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** The sample file for `language` (Ukrainian for any other): its name and its CSV text. */
export function sampleImportFile(language: string): { name: string; text: string } {
  const sample = SAMPLES[(language in SAMPLES ? language : 'uk') as SampleLanguage];
  const rows = CONTACTS.map((contact, i) => [...contact, ...sample.people[i]]);
  const lines = [sample.header, ...rows].map((row) => row.map(cell).join(','));
  return { name: sample.file, text: `${lines.join('\r\n')}\r\n` };
}
