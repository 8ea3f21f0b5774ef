import type { FieldError } from 'react-hook-form';
import { translateMessage } from '../lib/i18n.ts';

/** The translated message of a form field's error, for Mantine's `error` prop. */
export function fieldError(error: FieldError | undefined): string | undefined {
  return translateMessage(error?.message);
}
