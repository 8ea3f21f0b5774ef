import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js/max';
import { phoneCountry } from '../messages/phone-country.ts';

/**
 * Quiet hours (spec: no campaign message 21:00–09:00 in the recipient's own time). The recipient's
 * zone comes from the phone's country; a country spanning several zones takes its most populous
 * one, and a country not listed takes the campaign's zone. The list covers the markets the product
 * sells to and their neighbours; a wrong hour for an unlisted country errs towards the campaign's
 * own evening, which the user chose.
 */
export const COUNTRY_ZONES: Readonly<Record<string, string>> = {
  UA: 'Europe/Kyiv',
  PL: 'Europe/Warsaw',
  MD: 'Europe/Chisinau',
  RO: 'Europe/Bucharest',
  SK: 'Europe/Bratislava',
  HU: 'Europe/Budapest',
  CZ: 'Europe/Prague',
  DE: 'Europe/Berlin',
  AT: 'Europe/Vienna',
  LT: 'Europe/Vilnius',
  LV: 'Europe/Riga',
  EE: 'Europe/Tallinn',
  GB: 'Europe/London',
  IE: 'Europe/Dublin',
  FR: 'Europe/Paris',
  ES: 'Europe/Madrid',
  IT: 'Europe/Rome',
  NL: 'Europe/Amsterdam',
  BE: 'Europe/Brussels',
  PT: 'Europe/Lisbon',
  GE: 'Asia/Tbilisi',
  AM: 'Asia/Yerevan',
  AZ: 'Asia/Baku',
  TR: 'Europe/Istanbul',
  IL: 'Asia/Jerusalem',
  AE: 'Asia/Dubai',
  RU: 'Europe/Moscow',
  BY: 'Europe/Minsk',
  KZ: 'Asia/Almaty',
  UZ: 'Asia/Tashkent',
  US: 'America/New_York',
  CA: 'America/Toronto',
};

/** The recipient's zone for a phone in E.164, or `fallback` (the campaign's zone). */
export function phoneZone(phone: string, fallback: string): string {
  const country = phoneCountry(phone);
  return (country && COUNTRY_ZONES[country]) || fallback;
}

/**
 * The listed zones by calling code, longest code first, for matching phones set-based in SQL
 * (`phone like '+' || code || '%'`). Where a code is shared (+1, +7) the first listed country's
 * zone stands for it, as `phoneZone` would answer for most of its numbers.
 */
export function zonesByCallingCode(): Array<{ prefix: string; zone: string }> {
  const seen = new Map<string, string>();
  for (const [country, zone] of Object.entries(COUNTRY_ZONES)) {
    const code = getCountryCallingCode(country as CountryCode);
    if (!seen.has(code)) seen.set(code, zone);
  }
  return [...seen.entries()]
    .map(([code, zone]) => ({ prefix: `+${code}`, zone }))
    .sort((a, b) => b.prefix.length - a.prefix.length);
}
