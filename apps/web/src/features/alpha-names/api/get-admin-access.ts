import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Whether the signed-in user is one of the installation's admins (who review alpha names). */
export function useAdminAccess() {
  return useQuery({
    queryKey: ['admin', 'access'],
    queryFn: ({ signal }) => api.get<{ admin: boolean }>('/admin/access', undefined, signal),
    staleTime: 5 * 60_000,
  });
}
