import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { setAccessDenied } from '../../../lib/session.ts';

export function verifyEmail(body: { token: string }): Promise<unknown> {
  return api.post('/auth/email/verify', body, { toast: false });
}

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    meta: { handlesErrors: true },
    onSuccess: () => {
      setAccessDenied(false);
      return queryClient.invalidateQueries({ queryKey: ['user'] });
    },
  });
}
