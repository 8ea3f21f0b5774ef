/**
 * A small CSV a new user can import to see the product work before their own file is ready: column
 * names in their language, phones written the ways real spreadsheets hold them (national with and
 * without the leading zero, international, with spaces), an e-mail-only row, and one phone shared by
 * two rows, so the import's counters and duplicates have something to show.
 */
const SAMPLES = {
  uk: {
    file: 'herald-zrazok.csv',
    header: ['Телефон', 'Ел. пошта', "Ім'я", 'Місто'],
    rows: [
      ['0501234567', 'olena@example.com', 'Олена', 'Київ'],
      ['+380 67 765 43 21', 'taras@example.com', 'Тарас', 'Львів'],
      ['931112233', '', 'Марія', 'Одеса'],
      ['(063) 555-12-34', 'ivan@example.com', 'Іван', 'Харків'],
      ['', 'natalia@example.com', 'Наталія', 'Дніпро'],
      ['050 123 45 67', 'olena.work@example.com', 'Олена', 'Київ'],
    ],
  },
  en: {
    file: 'herald-sample.csv',
    header: ['Phone', 'E-mail', 'Name', 'City'],
    rows: [
      ['0501234567', 'olena@example.com', 'Olena', 'Kyiv'],
      ['+380 67 765 43 21', 'taras@example.com', 'Taras', 'Lviv'],
      ['931112233', '', 'Mariia', 'Odesa'],
      ['(063) 555-12-34', 'ivan@example.com', 'Ivan', 'Kharkiv'],
      ['', 'natalia@example.com', 'Nataliia', 'Dnipro'],
      ['050 123 45 67', 'olena.work@example.com', 'Olena', 'Kyiv'],
    ],
  },
  ru: {
    file: 'herald-obrazets.csv',
    header: ['Телефон', 'Эл. почта', 'Имя', 'Город'],
    rows: [
      ['0501234567', 'olena@example.com', 'Елена', 'Киев'],
      ['+380 67 765 43 21', 'taras@example.com', 'Тарас', 'Львов'],
      ['931112233', '', 'Мария', 'Одесса'],
      ['(063) 555-12-34', 'ivan@example.com', 'Иван', 'Харьков'],
      ['', 'natalia@example.com', 'Наталья', 'Днепр'],
      ['050 123 45 67', 'olena.work@example.com', 'Елена', 'Киев'],
    ],
  },
} as const;

export type SampleLanguage = keyof typeof SAMPLES;

const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** The sample file for `language` (Ukrainian for any other): its name and its CSV text. */
export function sampleImportFile(language: string): { name: string; text: string } {
  const sample = SAMPLES[(language in SAMPLES ? language : 'uk') as SampleLanguage];
  const lines = [sample.header, ...sample.rows].map((row) => row.map(cell).join(','));
  return { name: sample.file, text: `${lines.join('\r\n')}\r\n` };
}
