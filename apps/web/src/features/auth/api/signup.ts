import type { TAccessToken, TSignupRequest } from '@herald/shared/auth/auth.schemas';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { startSession } from '../../../lib/session.ts';

export function signup(body: TSignupRequest): Promise<TAccessToken> {
  return api.post<TAccessToken>('/auth/signup', body);
}

export function useSignup() {
  return useMutation({
    mutationFn: signup,
    onSuccess: ({ access_token }) => startSession(access_token),
  });
}
