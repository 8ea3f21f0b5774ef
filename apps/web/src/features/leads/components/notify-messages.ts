import { translateMessage } from '../../../lib/i18n.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';

/** A bulk answer's `info` and `errors` lists: one alert per message (spec section 4). */
export function notifyMessages({ info = [], errors = [] }: { info?: string[]; errors?: string[] }) {
  for (const message of info) notifySuccess(translateMessage(message) ?? message);
  for (const message of errors) notifyError(translateMessage(message) ?? message);
}
