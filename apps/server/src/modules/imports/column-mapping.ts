import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { normalizeLeadValue } from '@herald/shared/leads/lead-values';
import type { Language } from '../../http/request-language.ts';

const HINTS: Array<[RegExp, TLeadAttribute['type']]> = [
  [/phone|mobile|tel|моб|тел|номер/i, 'phone'],
  [/e-?mail|пошта|почта/i, 'email'],
];

/** A blank header's word, in the uploader's language: the name shows in Match Format and is the
 * default name of a new attribute made from the column. */
const COLUMN: Record<Language, string> = { uk: 'Колонка', en: 'Column', ru: 'Колонка' };

/** Unique, non-empty column names: blanks become "Column N", repeats get " (2)", " (3)". */
export function columnNames(header: string[], width: number, language: Language): string[] {
  const seen = new Map<string, number>();
  return Array.from({ length: width }, (_, i) => {
    const base = (header[i] ?? '').trim().replace(/\s+/g, ' ').slice(0, 80) || `${COLUMN[language]} ${i + 1}`;
    const key = base.toLowerCase();
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

/**
 * The mapping proposed after upload: a column named like an attribute (name or slug) maps to it;
 * otherwise a phone- or e-mail-like name, or preview values that read as phones or e-mails, map
 * to the system attribute. Everything else is left for the user (null).
 */
export function proposeMapping(
  names: string[],
  preview: string[][],
  attributes: TLeadAttribute[],
): Array<number | null> {
  return names.map((name, i) => {
    const key = name.toLowerCase();
    const exact = attributes.find((a) => a.name.toLowerCase() === key || a.slug === key);
    if (exact) return exact.id;
    for (const [pattern, type] of HINTS) {
      if (pattern.test(name)) return attributes.find((a) => a.type === type && a.is_system)?.id ?? null;
    }
    const samples = preview.map((r) => (r[i] ?? '').trim()).filter(Boolean);
    if (samples.length === 0) return null;
    for (const type of ['phone', 'email'] as const) {
      const ok = samples.filter((s) => normalizeLeadValue(type, s).ok).length;
      if (ok / samples.length >= 0.6) return attributes.find((a) => a.type === type && a.is_system)?.id ?? null;
    }
    return null;
  });
}
