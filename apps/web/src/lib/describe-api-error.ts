import { isApiError, type ServerMessage } from './api-error.ts';
import { hasMessageTranslation, i18n, translateMessage } from './i18n.ts';

/** A user-facing sentence for a failure: its detail's text, else the code's text, else as sent. */
export function describeApiError(error: unknown): string {
  if (!isApiError(error)) return i18n.t('errors:network_error');
  if (error.detail && hasMessageTranslation(error.detail)) return translateMessage(error.detail) ?? error.message;
  if (i18n.exists(`errors:${error.code}`)) return i18n.t(`errors:${error.code}`);
  // An answer without the app's error body (a proxy's 502, 504, 413…): its status line is English.
  if (/^http_\d+$/.test(error.code)) return i18n.t('errors:http_error', { status: error.status });
  return error.message || i18n.t('errors:internal_error');
}

/** The first message of each field list, translated (spec section 8, 422). */
export function firstFieldMessages(errors: Record<string, ServerMessage[]>): string[] {
  return Object.values(errors)
    .map((list) => list[0])
    .filter((m): m is ServerMessage => Boolean(m))
    .map((m) => translateMessage(m) ?? m.code);
}
