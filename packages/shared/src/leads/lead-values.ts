import { z } from 'zod';
import type { TAttributeType } from '../attributes/attributes.schemas.ts';
import { isIgnoredPhone, normalizePhone } from './phone.ts';

export type ValueCheck = { ok: true; value: string } | { ok: false; reason: 'invalid' | 'ignored'; message: string };

const email = z.email();

/** Normalises a value for its attribute type, the same way in forms, the API and imports. */
export function normalizeLeadValue(type: TAttributeType, raw: string, ignoredPhones: RegExp[] = []): ValueCheck {
  const input = raw.trim();
  switch (type) {
    case 'phone': {
      const phone = normalizePhone(input);
      if (!phone) return { ok: false, reason: 'invalid', message: `"${input}" is not a valid phone number` };
      if (isIgnoredPhone(phone, ignoredPhones)) {
        return { ok: false, reason: 'ignored', message: `${phone} matches an ignored phone format and was not stored` };
      }
      return { ok: true, value: phone };
    }
    case 'email': {
      const value = input.toLowerCase();
      return email.safeParse(value).success
        ? { ok: true, value }
        : { ok: false, reason: 'invalid', message: `"${input}" is not a valid e-mail` };
    }
    case 'number': {
      const value = input.replace(/\s/g, '').replace(',', '.');
      return /^-?\d+(\.\d+)?$/.test(value)
        ? { ok: true, value }
        : { ok: false, reason: 'invalid', message: `"${input}" is not a number` };
    }
    case 'date': {
      const iso = input.match(/^(\d{4})-(\d{2})-(\d{2})$/);
      const dotted = input.match(/^(\d{2})[./](\d{2})[./](\d{4})$/);
      const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : dotted ? [dotted[3], dotted[2], dotted[1]] : [];
      const date = y ? new Date(`${y}-${m}-${d}T00:00:00Z`) : undefined;
      return date && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(`${y}-${m}-${d}`)
        ? { ok: true, value: `${y}-${m}-${d}` }
        : { ok: false, reason: 'invalid', message: `"${input}" is not a date (YYYY-MM-DD)` };
    }
    case 'url': {
      try {
        const url = new URL(input);
        if (url.protocol === 'http:' || url.protocol === 'https:') return { ok: true, value: url.toString() };
      } catch {}
      return { ok: false, reason: 'invalid', message: `"${input}" is not a link (http:// or https://)` };
    }
    default:
      return input ? { ok: true, value: input } : { ok: false, reason: 'invalid', message: 'Value is required' };
  }
}
