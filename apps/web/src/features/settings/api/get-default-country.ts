import type { TDefaultCountry } from '@herald/shared/settings/settings.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getDefaultCountry(signal?: AbortSignal) {
  return api.get<TDefaultCountry>('/settings/default-country', undefined, signal);
}

export const defaultCountryQueryOptions = () =>
  queryOptions({ queryKey: ['settings', 'default-country'], queryFn: ({ signal }) => getDefaultCountry(signal) });

/** The country the team reads phones written without `+` or `00` in. */
export function useDefaultCountry() {
  return useQuery(defaultCountryQueryOptions());
}
