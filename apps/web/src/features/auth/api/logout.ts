import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { endSession } from '../../../lib/session.ts';

export function logout(): Promise<unknown> {
  return api.post('/auth/logout');
}

/** Ends the session on the server, then here; the local session ends even if the call fails. */
export function useLogout() {
  return useMutation({
    mutationFn: logout,
    meta: { handlesErrors: true },
    onSettled: () => endSession('logout'),
  });
}
