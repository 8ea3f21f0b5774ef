import type { TConfigGeneral } from '@herald/shared/config/config.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getConfigGeneral(signal?: AbortSignal) {
  return api.get<TConfigGeneral>('/config/general', undefined, signal);
}

/** `config/general`: it changes only with the server's code, so it is read once a session. */
export const configGeneralQueryOptions = () =>
  queryOptions({
    queryKey: ['config', 'general'],
    queryFn: ({ signal }) => getConfigGeneral(signal),
    staleTime: Infinity,
  });

/** The gateway types a team can add, and each type's credential fields. */
export function useGatewayTypes() {
  return useQuery({
    ...configGeneralQueryOptions(),
    select: (config) => ({
      types: config.campaign_gateway_list,
      fields: config.setting_gateway_message_fields,
      capabilities: config.gateway_capabilities,
    }),
  });
}
