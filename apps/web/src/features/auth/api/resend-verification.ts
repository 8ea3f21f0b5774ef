import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function resendVerification(body: { email?: string }): Promise<unknown> {
  return api.post('/auth/email/resend', body);
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
