import type { TImportFile, TImportMappingRequest } from '@herald/shared/imports/imports.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Match Format: `POST /sync-import/{id}/import-attributes/multiple`; new attribute names are created. */
export function mapImportColumns({ id, ...body }: TImportMappingRequest & { id: number }) {
  return apiRequest<TImportFile>(`/sync-import/${id}/import-attributes/multiple`, {
    method: 'POST',
    body,
    toast: false,
  });
}

export function useMapImportColumns() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: mapImportColumns,
    // New attributes may have been created: they are new columns of every lead table.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['attributes'] }),
  });
}
