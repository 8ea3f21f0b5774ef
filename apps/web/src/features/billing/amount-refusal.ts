import { type MessageLike, translateMessage } from '../../lib/i18n.ts';

/**
 * A refused amount as the spec shows it (sections 5 and 8): 'Please enter correct amount' under
 * the field, and 'Correct number' in the form's alert when the amount is not a number it takes.
 * Other refusals of the field (a balance too small) show under the field only.
 */
export function amountRefusal(field: MessageLike = 'amount_invalid') {
  const code = typeof field === 'string' ? field : field.code;
  return {
    field: translateMessage(field),
    alert: code === 'amount_invalid' ? [translateMessage('amount_correct_number') ?? ''] : [],
  };
}
