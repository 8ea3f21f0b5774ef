/**
 * The few pages a recipient sees on a short link, rendered by the server (the short domains serve
 * no web app): the unsubscribe question, its answer, "no such link", and "could not open" (any
 * error on a link's route answers this page, never a bare 500). In the recipient's
 * language by Accept-Language, Ukrainian by default (the product's default language).
 */
const TEXTS = {
  uk: {
    unsubscribeTitle: 'Відписатися від повідомлень?',
    unsubscribeText: 'Ви більше не отримуватимете SMS від цього відправника.',
    unsubscribeButton: 'Відписатися',
    doneTitle: 'Ви відписалися',
    doneText: 'Повідомлень від цього відправника більше не буде.',
    notFoundTitle: 'Посилання не знайдено',
    notFoundText: 'Перевірте посилання: можливо, в ньому помилка.',
    errorTitle: 'Не вдалося відкрити посилання',
    errorText: 'Сталася помилка з нашого боку. Спробуйте ще раз за кілька хвилин.',
  },
  en: {
    unsubscribeTitle: 'Unsubscribe from messages?',
    unsubscribeText: 'You will no longer receive SMS from this sender.',
    unsubscribeButton: 'Unsubscribe',
    doneTitle: 'You have unsubscribed',
    doneText: 'This sender will send you no more messages.',
    notFoundTitle: 'Link not found',
    notFoundText: 'Check the link: it may have a typo.',
    errorTitle: 'The link could not be opened',
    errorText: 'Something went wrong on our side. Try again in a few minutes.',
  },
  ru: {
    unsubscribeTitle: 'Отписаться от сообщений?',
    unsubscribeText: 'Вы больше не будете получать SMS от этого отправителя.',
    unsubscribeButton: 'Отписаться',
    doneTitle: 'Вы отписались',
    doneText: 'Сообщений от этого отправителя больше не будет.',
    notFoundTitle: 'Ссылка не найдена',
    notFoundText: 'Проверьте ссылку: возможно, в ней ошибка.',
    errorTitle: 'Не удалось открыть ссылку',
    errorText: 'Произошла ошибка на нашей стороне. Попробуйте ещё раз через несколько минут.',
  },
} as const;
type Lang = keyof typeof TEXTS;

/** The first of uk, en, ru the Accept-Language header names; uk when none. */
export function pageLanguage(acceptLanguage: string | undefined): Lang {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0].trim().slice(0, 2).toLowerCase();
    if (tag === 'uk' || tag === 'en' || tag === 'ru') return tag;
  }
  return 'uk';
}

function page(lang: Lang, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#222}button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:.4rem;background:#c92a2a;color:#fff;cursor:pointer}</style></head><body><h1>${title}</h1>${body}</body></html>`;
}

export function unsubscribePage(lang: Lang): string {
  const t = TEXTS[lang];
  // The form posts to the link itself: only that POST unsubscribes, so a scanner's GET cannot.
  return page(
    lang,
    t.unsubscribeTitle,
    `<p>${t.unsubscribeText}</p><form method="post"><button type="submit">${t.unsubscribeButton}</button></form>`,
  );
}

export function unsubscribedPage(lang: Lang): string {
  const t = TEXTS[lang];
  return page(lang, t.doneTitle, `<p>${t.doneText}</p>`);
}

export function notFoundPage(lang: Lang): string {
  const t = TEXTS[lang];
  return page(lang, t.notFoundTitle, `<p>${t.notFoundText}</p>`);
}

export function errorPage(lang: Lang): string {
  const t = TEXTS[lang];
  return page(lang, t.errorTitle, `<p>${t.errorText}</p>`);
}
