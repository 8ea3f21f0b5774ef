import type { TAttributeType } from '@herald/shared/attributes/attributes.schemas';

/** Phone and e-mail values have their own endpoints; every other type uses `lead-values`. */
export function valueKind(type: TAttributeType) {
  if (type === 'phone') return 'lead-phones';
  if (type === 'email') return 'lead-emails';
  return 'lead-values';
}
