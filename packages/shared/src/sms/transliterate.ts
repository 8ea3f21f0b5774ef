import cyrillicToTranslitModule from 'cyrillic-to-translit-js';
import { ICAO_DOC_9303, translate } from 'iuliia';

/**
 * Cyrillic to Latin by the national standards:
 * - Ukrainian: Cabinet of Ministers of Ukraine resolution No. 55 of 27 January 2010, as implemented
 *   by `cyrillic-to-translit-js` (preset `uk`): є ї й ю я give Ye Yi Y Yu Ya at the start of a word
 *   and ie i i iu ia elsewhere, зг gives zgh, the apostrophe and ь are dropped.
 * - Russian: ICAO Doc 9303 (the Russian passport transliteration since 2014; GOST R 52535.1-2006
 *   except ц ts and ъ ie), as implemented by `iuliia`.
 * The libraries are given one word at a time, so quotation marks around words stay (the Ukrainian
 * library drops every apostrophe-like mark it is given) and an upper-case word stays upper case
 * (ЗГОРАНИ is ZGHORANY, not ZGhORANY).
 */
export type TTransliteration = 'uk' | 'ru';

// The package is CommonJS whose typings declare an ES default export: Node and Vite hand over the
// function itself, a bundler honouring `__esModule` would hand over `{ default }`.
type TranslitFactory = (config?: { preset: 'ru' | 'uk' | 'mn' }) => { transform(input: string): string };
const imported = cyrillicToTranslitModule as unknown as TranslitFactory | { default: TranslitFactory };
const cyrillicToTranslit = typeof imported === 'function' ? imported : imported.default;
const ukrainian = cyrillicToTranslit({ preset: 'uk' });

/** A word: letters, with apostrophes only between letters (Знам'янка, Мʼята). */
const WORD = /\p{L}+(?:['’ʼ]\p{L}+)*/gu;
const CYRILLIC = /\p{Script=Cyrillic}/u;

function transliterateWord(word: string, language: TTransliteration): string {
  const latin = language === 'uk' ? ukrainian.transform(word) : translate(word, ICAO_DOC_9303);
  const letters = word.replace(/['’ʼ]/g, '');
  const allCaps = letters.length > 1 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
  return allCaps ? latin.toUpperCase() : latin;
}

export function transliterate(text: string, language: TTransliteration): string {
  return text.replace(WORD, (word) => (CYRILLIC.test(word) ? transliterateWord(word, language) : word));
}
