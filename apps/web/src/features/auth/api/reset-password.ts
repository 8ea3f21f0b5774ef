import type { TResetRequest, TResetResponse } from '@herald/shared/auth/auth.schemas';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * Step one sends `{token, code}` and gets `is_completed: false` with the account's e-mail; step two
 * adds the new password.
 */
export function resetPassword(body: TResetRequest): Promise<TResetResponse> {
  return api.post<TResetResponse>('/auth/password/reset', body);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
