import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { cellValues, normalizeLeadValue } from '@herald/shared/leads/lead-values';
import { DEFAULT_PHONE_COUNTRY } from '@herald/shared/leads/phone';
import type { Language } from '../../http/request-language.ts';
import { FIELD_NAMES, recogniseLayout } from './contact-layouts.ts';

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
 * The mapping proposed after upload. A file in a contact app's export layout is mapped by its
 * headers' roles (contact-layouts.ts): phones and e-mails to the system attributes, names,
 * organisation and notes to the team's attribute of that name. Otherwise, and for a layout's
 * other columns, a column named like an attribute (name or slug) maps to it; then a phone- or
 * e-mail-like name, or preview values that read as phones or e-mails in the team's country, map to
 * the system attribute. Everything else is left for the user (null).
 */
export function proposeMapping(
  names: string[],
  preview: string[][],
  attributes: TLeadAttribute[],
  country: string = DEFAULT_PHONE_COUNTRY,
): Array<number | null> {
  const system = (type: TLeadAttribute['type']) => attributes.find((a) => a.type === type && a.is_system)?.id ?? null;
  const named = (candidates: string[]) =>
    attributes.find((a) => candidates.includes(a.name.toLowerCase()) || candidates.includes(a.slug))?.id ?? null;
  const layout = recogniseLayout(names);
  const rule = { country, ignored: [] };
  return names.map((name, i) => {
    const role = layout?.roles[i];
    if (role?.kind === 'phone' || role?.kind === 'email') return system(role.kind);
    if (role?.kind === 'field') return named(FIELD_NAMES[role.field]);
    const exact = named([name.toLowerCase()]);
    if (exact || layout) return exact;
    for (const [pattern, type] of HINTS) {
      if (pattern.test(name)) return system(type);
    }
    const samples = preview.map((r) => (r[i] ?? '').trim()).filter(Boolean);
    if (samples.length === 0) return null;
    for (const type of ['phone', 'email'] as const) {
      const ok = samples.filter((s) => {
        const values = cellValues(type, s);
        return values.length > 0 && values.every((v) => normalizeLeadValue(type, v, rule).ok);
      }).length;
      if (ok / samples.length >= 0.6) return system(type);
    }
    return null;
  });
}
