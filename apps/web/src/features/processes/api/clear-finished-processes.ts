import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { processesQueryKey } from './get-processes.ts';

export function clearFinishedProcesses(): Promise<{ cleared: number }> {
  return api.delete<{ cleared: number }>('/processes/finished');
}

export function useClearFinishedProcesses() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clearFinishedProcesses,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: processesQueryKey }),
  });
}
