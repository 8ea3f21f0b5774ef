import { z } from 'zod';
import { messageText } from './messages.ts';

type Issue = Parameters<NonNullable<z.core.$ZodConfig['customError']>>[0];

const TEXT = new Set(['string']);
const ITEMS = new Set(['array', 'set', 'map']);
const NUMBERS = new Set(['number', 'int', 'bigint']);

/**
 * zod's own checks as message codes, where a schema gives no message of its own: lengths, sizes,
 * types and choices. A schema's own message (already a code) wins over this map.
 */
export function zodIssueMessage(issue: Issue): string {
  const bound = (value: unknown) => String(value);
  switch (issue.code) {
    case 'too_big':
      if (TEXT.has(issue.origin)) return messageText('text_too_long', { max: bound(issue.maximum) });
      if (ITEMS.has(issue.origin)) return messageText('too_many_items', { max: bound(issue.maximum) });
      if (NUMBERS.has(issue.origin)) return messageText('number_too_big', { limit: bound(issue.maximum) });
      return messageText('invalid_value');
    case 'too_small':
      if (TEXT.has(issue.origin)) return messageText('text_too_short', { min: bound(issue.minimum) });
      if (ITEMS.has(issue.origin)) return messageText('too_few_items', { min: bound(issue.minimum) });
      if (NUMBERS.has(issue.origin)) return messageText('number_too_small', { limit: bound(issue.minimum) });
      return messageText('invalid_value');
    case 'invalid_type':
      return messageText(issue.input === undefined ? 'required' : 'wrong_type');
    case 'invalid_value':
      return messageText('invalid_option');
    case 'invalid_format':
      return messageText(issue.format === 'email' ? 'email_invalid' : 'invalid_value');
    default:
      return messageText('invalid_value');
  }
}

/** Sets the map for this process (server) or page (web); call once at start. */
export function installZodMessages(): void {
  z.config({ customError: zodIssueMessage });
}
