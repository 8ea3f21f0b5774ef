import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { matchMessagePattern } from './message-patterns.ts';
import enAuth from '../locales/en/auth.json';
import enCommon from '../locales/en/common.json';
import enErrors from '../locales/en/errors.json';
import enImports from '../locales/en/imports.json';
import enProfile from '../locales/en/profile.json';
import enLeads from '../locales/en/leads.json';
import enSettings from '../locales/en/settings.json';
import enSegments from '../locales/en/segments.json';
import enSources from '../locales/en/sources.json';
import enTeam from '../locales/en/team.json';
import enValidation from '../locales/en/validation.json';
import ruAuth from '../locales/ru/auth.json';
import ruCommon from '../locales/ru/common.json';
import ruErrors from '../locales/ru/errors.json';
import ruImports from '../locales/ru/imports.json';
import ruProfile from '../locales/ru/profile.json';
import ruLeads from '../locales/ru/leads.json';
import ruSettings from '../locales/ru/settings.json';
import ruSegments from '../locales/ru/segments.json';
import ruSources from '../locales/ru/sources.json';
import ruTeam from '../locales/ru/team.json';
import ruValidation from '../locales/ru/validation.json';
import ukAuth from '../locales/uk/auth.json';
import ukCommon from '../locales/uk/common.json';
import ukErrors from '../locales/uk/errors.json';
import ukImports from '../locales/uk/imports.json';
import ukProfile from '../locales/uk/profile.json';
import ukLeads from '../locales/uk/leads.json';
import ukSettings from '../locales/uk/settings.json';
import ukSegments from '../locales/uk/segments.json';
import ukSources from '../locales/uk/sources.json';
import ukTeam from '../locales/uk/team.json';
import ukValidation from '../locales/uk/validation.json';

export const LANGUAGES = [
  { code: 'uk', label: 'Українська', short: 'UA' },
  { code: 'en', label: 'English', short: 'EN' },
  { code: 'ru', label: 'Русский', short: 'RU' },
] as const;
export type TLanguage = (typeof LANGUAGES)[number]['code'];

const STORAGE_KEY = 'herald.lang';
const DEFAULT_LANGUAGE: TLanguage = 'uk';

function isLanguage(value: unknown): value is TLanguage {
  return LANGUAGES.some((l) => l.code === value);
}

function storedLanguage(): TLanguage {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export const resources = {
  uk: {
    common: ukCommon,
    auth: ukAuth,
    errors: ukErrors,
    validation: ukValidation,
    profile: ukProfile,
    team: ukTeam,
    leads: ukLeads,
    sources: ukSources,
    segments: ukSegments,
    settings: ukSettings,
    imports: ukImports,
  },
  en: {
    common: enCommon,
    auth: enAuth,
    errors: enErrors,
    validation: enValidation,
    profile: enProfile,
    team: enTeam,
    leads: enLeads,
    sources: enSources,
    segments: enSegments,
    settings: enSettings,
    imports: enImports,
  },
  ru: {
    common: ruCommon,
    auth: ruAuth,
    errors: ruErrors,
    validation: ruValidation,
    profile: ruProfile,
    team: ruTeam,
    leads: ruLeads,
    sources: ruSources,
    segments: ruSegments,
    settings: ruSettings,
    imports: ruImports,
  },
} as const;

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: 'en',
  supportedLngs: LANGUAGES.map((l) => l.code),
  ns: [
    'common',
    'auth',
    'errors',
    'validation',
    'profile',
    'team',
    'leads',
    'sources',
    'settings',
    'imports',
    'segments',
  ],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

document.documentElement.lang = i18n.language;
i18n.on('languageChanged', (lng) => {
  document.documentElement.lang = lng;
});

export function changeLanguage(code: TLanguage) {
  localStorage.setItem(STORAGE_KEY, code);
  void i18n.changeLanguage(code);
}

/**
 * Validation messages are the spec's English sentences (from the shared zod schemas or the
 * server's 422 `errors`); the `validation` catalogue is keyed by them. Unknown ones stay as sent.
 */
export function translateMessage(message: string | undefined): string | undefined {
  if (!message) return message;
  const pattern = matchMessagePattern(message);
  if (pattern) {
    const status = pattern.values.status;
    const values = status
      ? { ...pattern.values, status: i18n.t(`leads:status.${status}`, { defaultValue: status }) }
      : pattern.values;
    return i18n.t(pattern.key, { ns: 'validation', ...values, defaultValue: message });
  }
  return i18n.t(message, { ns: 'validation', keySeparator: false, nsSeparator: false, defaultValue: message });
}

export function hasMessageTranslation(message: string): boolean {
  return (
    matchMessagePattern(message) !== null ||
    i18n.exists(message, { ns: 'validation', keySeparator: false, nsSeparator: false })
  );
}
