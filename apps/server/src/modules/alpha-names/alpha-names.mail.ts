import type { MailMessage } from '../../mail/mailer.ts';

type Language = 'uk' | 'en' | 'ru';

const texts = {
  approved: {
    en: {
      subject: 'Alpha name {{name}} is approved',
      body: 'The alpha name {{name}} of the team {{team}} is approved: messages can now be sent from it. Choose it as the sender, or make it the default, on the Alpha names page.',
    },
    uk: {
      subject: 'Альфа-ім’я {{name}} схвалено',
      body: 'Альфа-ім’я {{name}} команди {{team}} схвалено: тепер з нього можна надсилати повідомлення. Виберіть його відправником або зробіть типовим на сторінці «Альфа-імена».',
    },
    ru: {
      subject: 'Альфа-имя {{name}} одобрено',
      body: 'Альфа-имя {{name}} команды {{team}} одобрено: теперь с него можно отправлять сообщения. Выберите его отправителем или сделайте основным на странице «Альфа-имена».',
    },
  },
  rejected: {
    en: {
      subject: 'Alpha name {{name}} is rejected',
      body: 'The alpha name {{name}} of the team {{team}} was not approved. Messages keep going from your other senders. You may ask for another name on the Alpha names page.',
    },
    uk: {
      subject: 'Альфа-ім’я {{name}} відхилено',
      body: 'Альфа-ім’я {{name}} команди {{team}} не схвалено. Повідомлення й далі надсилаються від інших ваших відправників. Ви можете попросити інше ім’я на сторінці «Альфа-імена».',
    },
    ru: {
      subject: 'Альфа-имя {{name}} отклонено',
      body: 'Альфа-имя {{name}} команды {{team}} не одобрено. Сообщения по-прежнему отправляются от других ваших отправителей. Вы можете запросить другое имя на странице «Альфа-имена».',
    },
  },
} as const;

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');

/** The mail a team's owner and admins get when one of its alpha names is decided. */
export function alphaNameDecisionMail(
  to: string,
  decision: { name: string; team: string; approved: boolean; language: Language },
): MailMessage {
  const t = texts[decision.approved ? 'approved' : 'rejected'][decision.language];
  const values = { name: decision.name, team: decision.team };
  return { to, subject: fill(t.subject, values), text: `${fill(t.body, values)}\n` };
}
