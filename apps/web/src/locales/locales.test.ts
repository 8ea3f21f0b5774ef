import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeMessage, MESSAGE_CODES, MESSAGES } from '@herald/shared/common/messages';
import { installZodMessages } from '@herald/shared/common/zod-messages';
import { ERROR_CODES } from '@herald/shared/errors/error-codes';
import { IMPORT_FAILURES } from '@herald/shared/imports/imports.schemas';
import { z } from 'zod';

const ROOT = import.meta.dirname;
const LANGUAGES = ['en', 'uk', 'ru'] as const;

/** Every string of a catalogue with its key path (`a.b.c`), so a missing or extra string is named in the failure. */
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

  it('translate every message code, using no placeholder its params do not fill', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
    for (const lang of LANGUAGES) {
      const texts = catalogue(lang, 'messages.json');
      expect(
        MESSAGE_CODES.filter((code) => typeof texts[code] !== 'string'),
        `${lang}: codes without a text`,
      ).toEqual([]);
      expect(
        Object.keys(texts).filter((key) => !(MESSAGE_CODES as string[]).includes(key)),
        `${lang}: texts of no code`,
      ).toEqual([]);
      const unfilled = MESSAGE_CODES.flatMap((code) => {
        const given = placeholders(MESSAGES[code]);
        return placeholders(texts[code]).flatMap((name) => (given.includes(name) ? [] : [`${code}.${name}`]));
      });
      expect(unfilled, lang).toEqual([]);
    }
  });

  it("translate zod's own checks as codes, with the limits they name", () => {
    installZodMessages();
    const results = [
      z.string().max(3).safeParse('abcdef'),
      z.string().min(2).safeParse('a'),
      z.array(z.number()).max(1).safeParse([1, 2]),
      z.array(z.number()).min(1).safeParse([]),
      z.number().max(100).safeParse(1000),
      z.number().int().positive().safeParse(-1),
      z.object({ a: z.string() }).safeParse({}),
      z.number().safeParse('x'),
      z.enum(['a', 'b']).safeParse('c'),
      z.email().safeParse('x'),
    ];
    for (const result of results) {
      const message = decodeMessage(result.error?.issues[0]?.message ?? '');
      expect(MESSAGE_CODES, message.code).toContain(message.code);
      for (const lang of LANGUAGES) {
        const text: string = catalogue(lang, 'messages.json')[message.code];
        // Every placeholder the text uses is filled by the issue (3, 2, 1, 100, 0 above).
        for (const [, name] of text.matchAll(/\{\{(\w+)\}\}/g)) {
          expect(message.params?.[name], `${lang}: ${message.code} → {{${name}}}`).toMatch(/^\d+$/);
        }
      }
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
