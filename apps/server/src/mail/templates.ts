import type { Language } from '../http/request-language.ts';
import type { MailMessage } from './mailer.ts';

const texts = {
  verify: {
    en: { subject: 'Confirm your email for Herald', body: 'Open this link to activate your account:' },
    uk: { subject: 'Підтвердьте e-mail для Herald', body: 'Відкрийте це посилання, щоб активувати обліковий запис:' },
    ru: { subject: 'Подтвердите e-mail для Herald', body: 'Откройте эту ссылку, чтобы активировать аккаунт:' },
  },
  reset: {
    en: {
      subject: 'Reset your Herald password',
      body: 'Open this link to set a new password (valid 60 minutes):',
      code: 'Your confirmation code (valid 10 minutes):',
    },
    uk: {
      subject: 'Відновлення пароля Herald',
      body: 'Відкрийте це посилання, щоб задати новий пароль (діє 60 хвилин):',
      code: 'Ваш код підтвердження (діє 10 хвилин):',
    },
    ru: {
      subject: 'Восстановление пароля Herald',
      body: 'Откройте эту ссылку, чтобы задать новый пароль (действует 60 минут):',
      code: 'Ваш код подтверждения (действует 10 минут):',
    },
  },
  invite: {
    en: { subject: 'You are invited to a team on Herald', body: 'Open this link to join the team:' },
    uk: { subject: 'Вас запрошено до команди в Herald', body: 'Відкрийте це посилання, щоб приєднатися до команди:' },
    ru: { subject: 'Вас пригласили в команду в Herald', body: 'Откройте эту ссылку, чтобы присоединиться к команде:' },
  },
} as const;

export function verifyEmailMail(to: string, link: string, lang: Language): MailMessage {
  const t = texts.verify[lang];
  return { to, subject: t.subject, text: `${t.body}\n\n${link}\n` };
}

export function resetPasswordMail(to: string, link: string, code: string, lang: Language): MailMessage {
  const t = texts.reset[lang];
  return { to, subject: t.subject, text: `${t.body}\n\n${link}\n\n${t.code} ${code}\n` };
}

export function invitationMail(to: string, link: string, lang: Language): MailMessage {
  const t = texts.invite[lang];
  return { to, subject: t.subject, text: `${t.body}\n\n${link}\n` };
}
