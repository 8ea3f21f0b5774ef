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
    en: {
      subject: '{{inviter}} invites you to the team {{team}} on Herald',
      body: '{{inviter}} invites you to the team {{team}} on Herald as {{role}}. Open this link to join (valid 7 days):',
      roles: { team_admin: 'an admin', team_operator: 'an operator' },
    },
    uk: {
      subject: '{{inviter}} запрошує вас до команди {{team}} в Herald',
      body: '{{inviter}} запрошує вас до команди {{team}} в Herald як {{role}}. Відкрийте це посилання, щоб приєднатися (діє 7 днів):',
      roles: { team_admin: 'адміністратора', team_operator: 'оператора' },
    },
    ru: {
      subject: '{{inviter}} приглашает вас в команду {{team}} в Herald',
      body: '{{inviter}} приглашает вас в команду {{team}} в Herald как {{role}}. Откройте эту ссылку, чтобы присоединиться (действует 7 дней):',
      roles: { team_admin: 'администратора', team_operator: 'оператора' },
    },
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

/** An invitation names who invites, to which team and in which role, so it is not mistaken for spam. */
export function invitationMail(
  to: string,
  link: string,
  lang: Language,
  invite: { team: string; inviter: string; role: 'team_admin' | 'team_operator' },
): MailMessage {
  const t = texts.invite[lang];
  const values: Record<string, string> = { team: invite.team, inviter: invite.inviter, role: t.roles[invite.role] };
  const fill = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');
  return { to, subject: fill(t.subject), text: `${fill(t.body)}\n\n${link}\n` };
}
