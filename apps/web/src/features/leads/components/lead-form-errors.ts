import { isApiError } from '../../../lib/api-error.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifyError } from '../../../lib/notify.ts';

/**
 * Maps a 422 on `attributes.{i}.value` back to the attribute that was sent at index i, so the
 * message shows under its input. `sent` is the list of attribute ids in the order sent.
 */
export function valueErrors(error: unknown, sent: number[]): Record<number, string> {
  if (!isApiError(error) || error.status !== 422) return {};
  const out: Record<number, string> = {};
  for (const [field, messages] of Object.entries(error.errors)) {
    const index = /^attributes\.(\d+)\./.exec(field)?.[1];
    const id = index === undefined ? undefined : sent[Number(index)];
    if (id !== undefined && messages[0]) out[id] = translateMessage(messages[0]) ?? messages[0].code;
  }
  return out;
}

/**
 * Shows a failed lead creation once: messages about a value under its input, anything else (a
 * list that is gone, a limit, a network failure) as one toast. The create call asks the API client
 * and the query client not to toast, so an inline message is not repeated in a toast.
 */
export function showLeadErrors(
  error: unknown,
  sent: number[],
  setErrors: (byAttribute: Record<number, string>) => void,
) {
  const byAttribute = valueErrors(error, sent);
  setErrors(byAttribute);
  if (isApiError(error) && error.handled) return;
  if (Object.keys(byAttribute).length === 0) notifyError(describeApiError(error));
}
