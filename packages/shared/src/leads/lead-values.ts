import { z } from 'zod';
import type { TAttributeType } from '../attributes/attributes.schemas.ts';
import { message, type TMessage } from '../common/messages.ts';
import { isIgnoredPhone, normalizePhone } from './phone.ts';

export type ValueCheck = { ok: true; value: string } | { ok: false; reason: 'invalid' | 'ignored'; message: TMessage };

const email = z.email();

/** Normalises a value for its attribute type, the same way in forms, the API and imports. */
export function normalizeLeadValue(type: TAttributeType, raw: string, ignoredPhones: RegExp[] = []): ValueCheck {
  const input = raw.trim();
  switch (type) {
    case 'phone': {
      const phone = normalizePhone(input);
      if (!phone) return { ok: false, reason: 'invalid', message: message('invalid_phone', { value: input }) };
      if (isIgnoredPhone(phone, ignoredPhones)) {
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
