import { estimateSms } from './sms-parts.ts';
import { type TTransliteration, transliterate } from './transliterate.ts';

/**
 * Suggestions that make a message cheaper (in parts) without changing what it says. Each names its kind (the
 * web translates it), the text it proposes, and the parts before and after, so the user sees what
 * it saves. A suggestion that changes nothing is not offered.
 */
export type TImprovementKind = 'typography' | 'spaces' | 'transliterate_uk' | 'transliterate_ru';

export interface Improvement {
  kind: TImprovementKind;
  text: string;
  partsBefore: number;
  partsAfter: number;
}

/** Typographic marks and their GSM-7 equivalents (the marks editors and phones put in by themselves). */
const TYPOGRAPHY: Array<[RegExp, string]> = [
  [/[‘’‚‛ʼ′`´]/g, "'"],
  [/[“”„‟«»″]/g, '"'],
  [/[‐‑‒–—―−]/g, '-'],
  [/…/g, '...'],
  [/[\u00A0\u2007\u202F\u2009\u200A\u2002\u2003]/g, ' '],
  // Invisible marks (zero-width space, joiners, word joiner, BOM) that make a message UCS-2 alone.
  [/\u200B|\u200C|\u200D|\u2060|\uFEFF/g, ''],
  [/•/g, '-'],
];

export function plainTypography(text: string): string {
  return TYPOGRAPHY.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}

/** Doubled spaces inside lines and spaces at the ends of lines. */
export function collapseSpaces(text: string): string {
  return text.replace(/ {2,}/g, ' ').replace(/ +(\n|$)/g, '$1');
}

export interface ImproveOptions {
  /** Also offer the message in Latin letters by this language's national rules. */
  transliterate?: TTransliteration;
  /** Known values of `{{tags}}` for counting (see estimateSms). */
  values?: Record<string, string | readonly string[] | undefined>;
}

export function suggestImprovements(message: string, options: ImproveOptions = {}): Improvement[] {
  const partsBefore = estimateSms(message, options.values).parts;
  const candidates: Array<[TImprovementKind, string]> = [
    ['typography', plainTypography(message)],
    ['spaces', collapseSpaces(message)],
  ];
  if (options.transliterate) {
    // Latin letters save nothing while a curly quote keeps the message in UCS-2, so the
    // transliterated text is plain in every way.
    const latin = collapseSpaces(plainTypography(transliterate(message, options.transliterate)));
    candidates.push([`transliterate_${options.transliterate}`, latin]);
  }
  // Only what saves a part is offered: a change that costs the same is a change for nothing.
  return candidates
    .filter(([, text]) => text !== message)
    .map(([kind, text]) => ({ kind, text, partsBefore, partsAfter: estimateSms(text, options.values).parts }))
    .filter((s) => s.partsAfter < s.partsBefore);
}

const UKRAINIAN_ONLY = /[іїєґІЇЄҐ]/u;
const RUSSIAN_ONLY = /[ыэёъЫЭЁЪ]/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;

/**
 * By which language's rule a message is put in Latin letters: none for a message without Cyrillic;
 * the language its letters show (і ї є ґ are Ukrainian only, ы э ё ъ Russian only); otherwise the
 * writer's language, Ukrainian unless it is Russian. Never both: a Ukrainian text read by the
 * Russian rule comes out misspelt (и is y in Ukrainian, i in Russian).
 */
export function transliterationFor(message: string, writerLanguage: string): TTransliteration | undefined {
  if (!CYRILLIC.test(message)) return undefined;
  const uk = UKRAINIAN_ONLY.test(message);
  const ru = RUSSIAN_ONLY.test(message);
  if (uk && !ru) return 'uk';
  if (ru && !uk) return 'ru';
  return writerLanguage === 'ru' ? 'ru' : 'uk';
}
