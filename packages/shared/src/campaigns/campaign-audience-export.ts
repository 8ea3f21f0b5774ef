import type { z } from 'zod';
import { ZExportRequest } from '../segments/segments.schemas.ts';
import type { TExportLanguage } from '../segments/export-labels.ts';
import type { TRecipientBucket } from './campaign-results.ts';

/** `POST campaigns/{id}/leads/csv|xlsx`: the file's name and the table's search (decision 038). */
export const ZCampaignExportRequest = ZExportRequest.pick({ name: true, search: true });
export type TCampaignExportRequest = z.infer<typeof ZCampaignExportRequest>;

interface Labels {
  lead: string;
  phone: string;
  status: (position: number) => string;
  sentAt: (position: number) => string;
  clicked: (position: number) => string;
  cost: string;
  yes: string;
  no: string;
  buckets: Record<TRecipientBucket, string>;
}

/** The header and values of a campaign audience file, in the language of whoever asked for it. */
const LABELS: Record<TExportLanguage, Labels> = {
  uk: {
    lead: 'Лід',
    phone: 'Телефон',
    status: (n) => `Крок ${n}: статус`,
    sentAt: (n) => `Крок ${n}: надіслано`,
    clicked: (n) => `Крок ${n}: перейшов`,
    cost: 'Вартість',
    yes: 'так',
    no: 'ні',
    buckets: {
      delivered: 'Доставлено',
      sent: 'Надіслано',
      unconfirmed: 'Не підтверджено',
      failed: 'Помилка',
      skipped: 'Пропущено',
      unknown: 'Результат невідомий',
      queued: 'Очікує',
    },
  },
  en: {
    lead: 'Lead',
    phone: 'Phone',
    status: (n) => `Step ${n} status`,
    sentAt: (n) => `Step ${n} sent at`,
    clicked: (n) => `Step ${n} clicked`,
    cost: 'Cost',
    yes: 'yes',
    no: 'no',
    buckets: {
      delivered: 'Delivered',
      sent: 'Sent',
      unconfirmed: 'Unconfirmed',
      failed: 'Failed',
      skipped: 'Skipped',
      unknown: 'Outcome unknown',
      queued: 'Waiting',
    },
  },
  ru: {
    lead: 'Лид',
    phone: 'Телефон',
    status: (n) => `Шаг ${n}: статус`,
    sentAt: (n) => `Шаг ${n}: отправлено`,
    clicked: (n) => `Шаг ${n}: перешёл`,
    cost: 'Стоимость',
    yes: 'да',
    no: 'нет',
    buckets: {
      delivered: 'Доставлено',
      sent: 'Отправлено',
      unconfirmed: 'Не подтверждено',
      failed: 'Ошибка',
      skipped: 'Пропущено',
      unknown: 'Результат неизвестен',
      queued: 'Ожидает',
    },
  },
};

export function campaignExportLabels(language: TExportLanguage | undefined): Labels {
  return LABELS[language ?? 'en'] ?? LABELS.en;
}
