import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import enTemplates from './en/templates.json';
import ruTemplates from './ru/templates.json';
import ukTemplates from './uk/templates.json';

// Numbers meet nouns through i18next's plural forms, which follow each language's CLDR rules:
// Ukrainian and Russian have one (1, 21, 161), few (2, 22) and many (5, 25) forms.
async function counter(lng: string) {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng,
    resources: { en: { templates: enTemplates }, uk: { templates: ukTemplates }, ru: { templates: ruTemplates } },
    defaultNS: 'templates',
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return (n: number) => i18n.t('composer.characters', { count: n, formatted: String(n) });
}

describe('plural forms of the character counter', () => {
  it.each([
    [
      'uk',
      [1, 2, 5, 21, 22, 25, 161],
      ['1 символ', '2 символи', '5 символів', '21 символ', '22 символи', '25 символів', '161 символ'],
    ],
    [
      'ru',
      [1, 2, 5, 21, 22, 25, 161],
      ['1 символ', '2 символа', '5 символов', '21 символ', '22 символа', '25 символов', '161 символ'],
    ],
    ['en', [1, 2, 5, 21, 161], ['1 character', '2 characters', '5 characters', '21 characters', '161 characters']],
  ] as const)('%s', async (lng, numbers, expected) => {
    const say = await counter(lng);
    expect(numbers.map(say)).toEqual(expected);
  });

  it('uses the fraction form for a count that is not whole', async () => {
    expect((await counter('uk'))(1.5)).toBe('1.5 символу');
  });
});
