import type { TLeadStatus } from '../leads/leads.schemas.ts';

export type TExportLanguage = 'uk' | 'en' | 'ru';

/**
 * The words an export writes, in the requester's language: the Status header, the status values
 * and the system attributes' names (the server names those in English; the web shows them
 * translated, and so does the file). The same words as the web's leads screens.
 */
const LABELS: Record<
  TExportLanguage,
  { status: string; statuses: Record<TLeadStatus, string>; phone: string; email: string }
> = {
  uk: {
    status: 'Статус',
    statuses: {
      active: 'Активний',
      pending: 'Очікує',
      flagged: 'Позначений',
      blacklisted: 'У чорному списку',
      inactive: 'Неактивний',
    },
    phone: 'Телефон',
    email: 'Email',
  },
  en: {
    status: 'Status',
    statuses: {
      active: 'Active',
      pending: 'Pending',
      flagged: 'Flagged',
      blacklisted: 'Blacklisted',
      inactive: 'Inactive',
    },
    phone: 'Phone',
    email: 'Email',
  },
  ru: {
    status: 'Статус',
    statuses: {
      active: 'Активный',
      pending: 'Ожидает',
      flagged: 'Отмечен',
      blacklisted: 'В чёрном списке',
      inactive: 'Неактивный',
    },
    phone: 'Телефон',
    email: 'Email',
  },
};

export function exportLabels(language: TExportLanguage | undefined) {
  return LABELS[language ?? 'uk'];
}

/** A column's header: system attributes (the phone and e-mail ones) in the requester's language. */
export function exportColumnName(attribute: { name: string; type: string }, language: TExportLanguage | undefined) {
  const labels = exportLabels(language);
  if (attribute.type === 'phone') return labels.phone;
  if (attribute.type === 'email') return labels.email;
  return attribute.name;
}
