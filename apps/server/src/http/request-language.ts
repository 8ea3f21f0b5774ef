/** The languages Herald speaks: its mail, and the few words the server itself writes into data. */
export type Language = 'uk' | 'en' | 'ru';

/** Picks uk, en or ru from an Accept-Language header (the web sends its chosen one); Ukrainian is the default. */
export function requestLanguage(acceptLanguage: string | undefined): Language {
  const first = acceptLanguage?.split(',')[0]?.trim().slice(0, 2).toLowerCase();
  return first === 'en' || first === 'ru' ? first : 'uk';
}
