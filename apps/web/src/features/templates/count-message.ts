import { estimateSms, type SmsCount } from '@herald/shared/sms/sms-parts';
import { placeholdersOf } from '@herald/shared/templates/render';

/**
 * A message as the composer counts it. With a chosen recipient's values every tag counts as what it
 * renders to for them, a tag without a value as nothing (as `renderMessage` drops it), so the parts
 * shown are the parts charged; without a recipient, tags count by `estimateSms`'s stand-ins.
 * Links count 17 either way.
 */
export function countMessage(message: string, values?: Readonly<Record<string, string>>): SmsCount {
  if (!values) return estimateSms(message);
  return estimateSms(message, Object.fromEntries(placeholdersOf(message).map((tag) => [tag, values[tag] ?? ''])));
}
