import { z } from 'zod';
import type { TAttributeType } from '../attributes/attributes.schemas.ts';
import { message, type TMessage } from '../common/messages.ts';
import { DEFAULT_PHONE_COUNTRY, isIgnoredPhone, type PhoneRule, readPhone } from './phone.ts';

export type ValueCheck = { ok: true; value: string } | { ok: false; reason: 'invalid' | 'ignored'; message: TMessage };

const email = z.email();

/**
 * Normalises a value for its attribute type, the same way in forms, the API and imports. Phones
 * follow the team's phone rule: its ignored formats and its default country.
 */
export function normalizeLeadValue(
  type: TAttributeType,
  raw: string,
  rule: PhoneRule = { country: DEFAULT_PHONE_COUNTRY, ignored: [] },
): ValueCheck {
  const input = raw.trim();
  switch (type) {
    case 'phone': {
      const reading = readPhone(input, rule.country);
      // One message for every refusal; `readPhone` knows the finer reason (too short, too long,
      // not a number) for callers that show it.
      if (!reading.ok) return { ok: false, reason: 'invalid', message: message('invalid_phone', { value: input }) };
      const phone = reading.phone;
      if (isIgnoredPhone(phone, rule.ignored)) {
        return { ok: false, reason: 'ignored', message: message('ignored_phone', { value: phone }) };
      }
      return { ok: true, value: phone };
    }
    case 'email': {
      const value = input.toLowerCase();
      return email.safeParse(value).success
        ? { ok: true, value }
        : { ok: false, reason: 'invalid', message: message('invalid_email', { value: input }) };
    }
    case 'number': {
      const value = input.replace(/\s/g, '').replace(',', '.');
      return /^-?\d+(\.\d+)?$/.test(value)
        ? { ok: true, value }
        : { ok: false, reason: 'invalid', message: message('invalid_number', { value: input }) };
    }
    case 'date': {
      const iso = input.match(/^(\d{4})-(\d{2})-(\d{2})$/);
      const dotted = input.match(/^(\d{2})[./](\d{2})[./](\d{4})$/);
      const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : dotted ? [dotted[3], dotted[2], dotted[1]] : [];
      const date = y ? new Date(`${y}-${m}-${d}T00:00:00Z`) : undefined;
      return date && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(`${y}-${m}-${d}`)
        ? { ok: true, value: `${y}-${m}-${d}` }
        : { ok: false, reason: 'invalid', message: message('invalid_date', { value: input }) };
    }
    case 'url': {
      try {
        const url = new URL(input);
        if (url.protocol === 'http:' || url.protocol === 'https:') return { ok: true, value: url.toString() };
      } catch {}
      return { ok: false, reason: 'invalid', message: message('invalid_url', { value: input }) };
    }
    default:
      return input ? { ok: true, value: input } : { ok: false, reason: 'invalid', message: message('value_required') };
  }
}

/** Google Contacts joins the values of one field with this. */
const GOOGLE_SEPARATOR = / ::: /;
/** Types whose cells may hold one value a line (Outlook and Apple exports); text keeps its lines. */
const LINE_SEPARATED: ReadonlySet<TAttributeType> = new Set(['phone', 'email', 'url']);

/**
 * The values one cell holds for an attribute: several when a contact app joined them (` ::: `, or
 * one a line for phones, e-mails and links), each trimmed, blanks dropped.
 */
export function cellValues(type: TAttributeType, cell: string): string[] {
  let parts = cell.split(GOOGLE_SEPARATOR);
  if (LINE_SEPARATED.has(type)) parts = parts.flatMap((p) => p.split(/\r?\n/));
  return parts.map((p) => p.trim()).filter(Boolean);
}
