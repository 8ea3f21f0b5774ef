import type { TAccessToken, TChangePasswordRequest } from '@herald/shared/auth/auth.schemas';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { replaceToken } from '../../../lib/session.ts';

export function changePassword(body: TChangePasswordRequest): Promise<TAccessToken> {
  return api.post<TAccessToken>('/auth/password/change', body);
}

/** Every other session ends on the server; this tab keeps going with the new token. */
export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: ({ access_token }) => replaceToken(access_token),
  });
}
