import type { TSmsTemplateType } from './templates.schemas.ts';

/**
 * The default templates every team sees, by the seed key migration 0021 stored them under, in each
 * language: the server answers in the reader's language, so a template loaded into the composer is
 * in the language of the screen. The Latin one shows what a message costs in GSM-7.
 */
export const DEFAULT_TEMPLATES: Record<
  string,
  { type_id: TSmsTemplateType; uk: [string, string]; en: [string, string]; ru: [string, string] }
> = {
  promotion_link: {
    type_id: 'promotion',
    uk: ['Знижка з посиланням', 'Знижка 20% на все до неділі! Деталі: {{link}}'],
    en: ['Discount with a link', '20% off everything until Sunday! Details: {{link}}'],
    ru: ['Скидка со ссылкой', 'Скидка 20% на всё до воскресенья! Подробности: {{link}}'],
  },
  promotion_latin: {
    type_id: 'promotion',
    uk: ['Знижка латиницею', 'Znyzhka 20% na vse do nedili! Detali: {{link}}'],
    en: ['Discount in Latin letters', 'Sale -20% until Sunday! Details: {{link}}'],
    ru: ['Скидка латиницей', 'Skidka 20% na vse do voskresenia! Podrobnosti: {{link}}'],
  },
  reminder: {
    type_id: 'reminder',
    uk: ['Нагадування', 'Нагадуємо про ваш запис. Деталі: {{link}}'],
    en: ['Reminder', 'A reminder of your appointment. Details: {{link}}'],
    ru: ['Напоминание', 'Напоминаем о вашей записи. Подробности: {{link}}'],
  },
  order_ready: {
    type_id: 'service',
    uk: ['Замовлення готове', 'Ваше замовлення готове до видачі. Деталі: {{link}}'],
    en: ['Order ready', 'Your order is ready for pick-up. Details: {{link}}'],
    ru: ['Заказ готов', 'Ваш заказ готов к выдаче. Подробности: {{link}}'],
  },
};
