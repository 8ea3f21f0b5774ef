import type { TResetRequest } from '@herald/shared/auth/auth.schemas';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Step one sends `{token, code}` and gets `is_completed: false`; step two adds the new password. */
export function resetPassword(body: TResetRequest): Promise<{ is_completed: boolean }> {
  return api.post<{ is_completed: boolean }>('/auth/password/reset', body);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
