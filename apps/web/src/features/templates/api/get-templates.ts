import type { TPageMeta } from '@herald/shared/common/pagination.schemas';
import type { TSmsTemplate } from '@herald/shared/templates/templates.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

export type TemplatesQuery = RequestOptions['query'];

export function getTemplates(query: TemplatesQuery, signal?: AbortSignal) {
  return api.get<{ data: TSmsTemplate[]; meta: TPageMeta }>('/config/template/sms', query, signal);
}

/** The language is in the key: default templates come in the reader's language. */
export const templatesQueryOptions = (query: TemplatesQuery, language: string) =>
  queryOptions({
    queryKey: ['templates', 'page', language, query],
    queryFn: ({ signal }) => getTemplates(query, signal),
  });

export function useTemplates(query: TemplatesQuery, enabled = true) {
  const { i18n } = useTranslation();
  return useQuery({ ...templatesQueryOptions(query, i18n.language), placeholderData: keepPreviousData, enabled });
}
