import type { TAccessToken, TInviteRegisterRequest } from '@herald/shared/auth/auth.schemas';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { startSession } from '../../../lib/session.ts';

export function registerByInvite(body: TInviteRegisterRequest): Promise<TAccessToken> {
  return api.post<TAccessToken>('/auth/invite/register', body);
}

export function useRegisterByInvite() {
  return useMutation({
    mutationFn: registerByInvite,
    onSuccess: ({ access_token }) => startSession(access_token),
  });
}
