import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@herald/shared/errors/error-codes';
import { IMPORT_FAILURES, IMPORT_MESSAGES } from '@herald/shared/imports/imports.schemas';
import { matchMessagePattern } from '../lib/message-patterns.ts';

const ROOT = import.meta.dirname;
const LANGUAGES = ['en', 'uk', 'ru'] as const;

/**
 * Every string of a catalogue with its key path (`a.b.c`; a key may itself hold dots, as the
 * validation messages' do), so a missing or extra string is named in the failure.
 */
function strings(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (value === null || typeof value !== 'object') return [[prefix, value]];
  return Object.entries(value).flatMap(([k, v]) => strings(v, prefix ? `${prefix}.${k}` : k));
}
const keys = (value: unknown) => strings(value).map(([path]) => path);

/** i18next's plural suffixes: `count_one`, `count_few`… are forms of one key. */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const bases = (paths: string[]) => [...new Set(paths.map((p) => p.replace(PLURAL, '')))].sort();

const catalogue = (lang: string, file: string) => JSON.parse(readFileSync(join(ROOT, lang, file), 'utf8'));
const files = readdirSync(join(ROOT, 'en')).filter((f) => f.endsWith('.json'));

describe('the uk, en and ru catalogues', () => {
  it('have the same files', () => {
    for (const lang of LANGUAGES) expect(readdirSync(join(ROOT, lang)).sort()).toEqual([...files].sort());
  });

  it.each(files)('%s has the same keys in every language (each plural form it needs), none empty', (file) => {
    const english = bases(keys(catalogue('en', file)));
    const plural = new Set(keys(catalogue('en', file)).flatMap((k) => (PLURAL.test(k) ? [k.replace(PLURAL, '')] : [])));
    for (const lang of LANGUAGES) {
      const data = catalogue(lang, file);
      expect(bases(keys(data)), `${lang}/${file}`).toEqual(english);
      // i18next picks `key_<category>` by the language's plural rules: uk and ru need one, few, many, other.
      const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      const missing = [...plural].flatMap((base) =>
        categories.filter((c) => !keys(data).includes(`${base}_${c}`)).map((c) => `${base}_${c}`),
      );
      expect(missing, `${lang}/${file}`).toEqual([]);
      const empty = strings(data).flatMap(([path, text]) =>
        typeof text !== 'string' || text.trim() === '' ? [path] : [],
      );
      expect(empty, `${lang}/${file}`).toEqual([]);
    }
  });

  it('say why an import failed for every failure code the server records', () => {
    for (const lang of LANGUAGES) {
      const failure = catalogue(lang, 'imports.json').failure ?? {};
      expect(
        IMPORT_FAILURES.filter((code) => !(code in failure)),
        lang,
      ).toEqual([]);
    }
  });

  it("translate the import's own sentences: a failed row's reason, a refused field's message", () => {
    const sentences = Object.values(IMPORT_MESSAGES).map((m) => (typeof m === 'function' ? m(10_000) : m));
    for (const lang of LANGUAGES) {
      const validation = catalogue(lang, 'validation.json');
      const untranslated = sentences.filter((sentence) => {
        const pattern = matchMessagePattern(sentence);
        return pattern ? !validation.pattern?.[pattern.key.replace(/^pattern\./, '')] : !(sentence in validation);
      });
      expect(untranslated, lang).toEqual([]);
    }
  });

  it('translate every error code the server can answer', () => {
    for (const lang of LANGUAGES) {
      const errors = catalogue(lang, 'errors.json');
      expect(
        Object.keys(ERROR_CODES).filter((code) => !(code in errors)),
        lang,
      ).toEqual([]);
    }
  });
});
