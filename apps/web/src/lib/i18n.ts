import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { decodeMessage, type TMessageParams } from '@herald/shared/common/messages';
import { installZodMessages } from '@herald/shared/common/zod-messages';
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
import enMessages from '../locales/en/messages.json';
import enBilling from '../locales/en/billing.json';
import enDemo from '../locales/en/demo.json';
import enGateways from '../locales/en/gateways.json';
import enTemplates from '../locales/en/templates.json';
import enAlphaNames from '../locales/en/alpha-names.json';
import enMessagesSms from '../locales/en/messages-sms.json';
import enShortLinks from '../locales/en/short-links.json';
import enCampaigns from '../locales/en/campaigns.json';
import enLookups from '../locales/en/lookups.json';
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
import ruMessages from '../locales/ru/messages.json';
import ruBilling from '../locales/ru/billing.json';
import ruDemo from '../locales/ru/demo.json';
import ruGateways from '../locales/ru/gateways.json';
import ruTemplates from '../locales/ru/templates.json';
import ruAlphaNames from '../locales/ru/alpha-names.json';
import ruMessagesSms from '../locales/ru/messages-sms.json';
import ruShortLinks from '../locales/ru/short-links.json';
import ruCampaigns from '../locales/ru/campaigns.json';
import ruLookups from '../locales/ru/lookups.json';
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
import ukMessages from '../locales/uk/messages.json';
import ukBilling from '../locales/uk/billing.json';
import ukDemo from '../locales/uk/demo.json';
import ukGateways from '../locales/uk/gateways.json';
import ukTemplates from '../locales/uk/templates.json';
import ukAlphaNames from '../locales/uk/alpha-names.json';
import ukMessagesSms from '../locales/uk/messages-sms.json';
import ukShortLinks from '../locales/uk/short-links.json';
import ukCampaigns from '../locales/uk/campaigns.json';
import ukLookups from '../locales/uk/lookups.json';

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
    messages: ukMessages,
    profile: ukProfile,
    team: ukTeam,
    leads: ukLeads,
    sources: ukSources,
    segments: ukSegments,
    settings: ukSettings,
    imports: ukImports,
    billing: ukBilling,
    demo: ukDemo,
    gateways: ukGateways,
    templates: ukTemplates,
    'alpha-names': ukAlphaNames,
    'messages-sms': ukMessagesSms,
    'short-links': ukShortLinks,
    campaigns: ukCampaigns,
    lookups: ukLookups,
  },
  en: {
    common: enCommon,
    auth: enAuth,
    errors: enErrors,
    messages: enMessages,
    profile: enProfile,
    team: enTeam,
    leads: enLeads,
    sources: enSources,
    segments: enSegments,
    settings: enSettings,
    imports: enImports,
    billing: enBilling,
    demo: enDemo,
    gateways: enGateways,
    templates: enTemplates,
    'alpha-names': enAlphaNames,
    'messages-sms': enMessagesSms,
    'short-links': enShortLinks,
    campaigns: enCampaigns,
    lookups: enLookups,
  },
  ru: {
    common: ruCommon,
    auth: ruAuth,
    errors: ruErrors,
    messages: ruMessages,
    profile: ruProfile,
    team: ruTeam,
    leads: ruLeads,
    sources: ruSources,
    segments: ruSegments,
    settings: ruSettings,
    imports: ruImports,
    billing: ruBilling,
    demo: ruDemo,
    gateways: ruGateways,
    templates: ruTemplates,
    'alpha-names': ruAlphaNames,
    'messages-sms': ruMessagesSms,
    'short-links': ruShortLinks,
    campaigns: ruCampaigns,
    lookups: ruLookups,
  },
} as const;

// zod's own checks in the forms (lengths, sizes, types) name codes, as the server's do.
installZodMessages();

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
    'messages',
    'profile',
    'team',
    'leads',
    'sources',
    'settings',
    'imports',
    'segments',
    'billing',
    'demo',
    'gateways',
    'templates',
    'alpha-names',
    'messages-sms',
    'short-links',
    'campaigns',
    'lookups',
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

/** A message as the server or a form sends it: `{ code, params }`, or zod's string (`code?param=…`). */
export type MessageLike = string | { code: string; params?: TMessageParams };

const asMessage = (m: MessageLike) => (typeof m === 'string' ? decodeMessage(m) : m);
const KEY = { ns: 'messages', keySeparator: false, nsSeparator: false } as const;

/**
 * A message code in the user's language (`messages:<code>`), its params filled in; a lead status
 * param is said in words too. A text that is no known code (an older stored reason) stays as sent.
 */
export function translateMessage(m: MessageLike | undefined): string | undefined {
  if (!m) return undefined;
  const { code, params = {} } = asMessage(m);
  const fallback = typeof m === 'string' ? m : code;
  if (!i18n.exists(code, KEY)) return fallback;
  const status = params.status;
  const values =
    status === undefined
      ? params
      : { ...params, status: i18n.t(`leads:status.${status}`, { defaultValue: String(status) }) };
  return i18n.t(code, { ...KEY, ...values, defaultValue: fallback });
}

export function hasMessageTranslation(m: MessageLike): boolean {
  return i18n.exists(asMessage(m).code, KEY);
}
