import type { ServerMessage } from '../../../lib/api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';

type Messages = ServerMessage[] | undefined;

/** A bulk answer's `info` and `errors` lists: one alert per message (spec section 4). */
export function notifyMessages({ info = [], errors = [] }: { info?: Messages; errors?: Messages }) {
  for (const message of info) notifySuccess(translateMessage(message) ?? message.code);
  for (const message of errors) notifyError(translateMessage(message) ?? message.code);
}
