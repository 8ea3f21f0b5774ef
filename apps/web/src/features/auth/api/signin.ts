import type { TAccessToken, TSigninRequest } from '@herald/shared/auth/auth.schemas';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { startSession } from '../../../lib/session.ts';

export function signin(body: TSigninRequest): Promise<TAccessToken> {
  return api.post<TAccessToken>('/auth/signin', body, { toast: false });
}

export function useSignin() {
  return useMutation({
    mutationFn: signin,
    meta: { handlesErrors: true },
    onSuccess: ({ access_token }) => startSession(access_token),
  });
}
