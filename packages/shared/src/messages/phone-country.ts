import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The country (ISO alpha-2) an E.164 number belongs to, for its price per part; null when unknown. */
export function phoneCountry(e164: string): string | null {
  return parsePhoneNumberFromString(e164)?.country ?? null;
}
