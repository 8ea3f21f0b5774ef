import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getPhoneTemplate(signal?: AbortSignal) {
  return api.get<{ values: string }>('/validation-template/phone', undefined, signal);
}

export const phoneTemplateQueryOptions = () =>
  queryOptions({ queryKey: ['settings', 'phone-template'], queryFn: ({ signal }) => getPhoneTemplate(signal) });

/** The ignored phone formats, one pattern per line. */
export function usePhoneTemplate() {
  return useQuery(phoneTemplateQueryOptions());
}
