import { encodeMessage } from '@herald/shared/common/messages';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from './api-error.ts';

/**
 * Puts a 422's field messages under the matching inputs. Returns the messages that belong to no
 * input of this form (e.g. `token`), for the form to show above its button. Both are encoded
 * messages (`code?param=…`, as the forms' own zod checks give them), which the fields translate.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): string[] {
  if (!isApiError(error) || error.status !== 422) return [];
  const rest: string[] = [];
  for (const [field, messages] of Object.entries(error.errors)) {
    if (!messages[0]) continue;
    const message = encodeMessage(messages[0]);
    if ((fields as readonly string[]).includes(field)) {
      setError(field as Path<T>, { type: 'server', message }, { shouldFocus: true });
    } else {
      rest.push(message);
    }
  }
  return rest;
}
