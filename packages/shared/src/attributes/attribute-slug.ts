import { transliterate } from '../sms/transliterate.ts';

/** Longest slug: placeholders stay short enough to read in a message. */
const SLUG_MAX = 60;

// Letters only one of the two languages has decide the rule; a name with neither (Имя, Город) is
// read in the language of the person naming it.
const RUSSIAN_ONLY = /[ыэёъ]/iu;
const UKRAINIAN_ONLY = /[іїєґ]/iu;

/**
 * The `{{placeholder}}` of an attribute: its name in lower-case Latin letters, digits and `_`, the
 * way a person would spell it. Cyrillic is transliterated by the national rule (Ukrainian by the
 * Cabinet of Ministers' 2010 table, Russian by ICAO Doc 9303; `sms/transliterate.ts`), so Ім'я is
 * `imia` and Місто `misto`; accents are dropped (Café is `cafe`).
 */
export function attributeSlug(name: string, language: 'uk' | 'en' | 'ru' = 'uk'): string {
  const rule = RUSSIAN_ONLY.test(name) ? 'ru' : UKRAINIAN_ONLY.test(name) ? 'uk' : language === 'ru' ? 'ru' : 'uk';
  const latin = transliterate(name.normalize('NFC'), rule)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    // An apostrophe is part of its word (Ім'я), not a break between two.
    .replace(/['’ʼ`]/g, '');
  const slug = latin
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/_+$/, '');
  return slug || 'attribute';
}
