import type { TTransaction, ZTransactionTotal } from '@herald/shared/billing/billing.schemas';
import type { TPageMeta } from '@herald/shared/common/pagination.schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

export type TransactionPage = { data: TTransaction[]; meta: TPageMeta };
export type TransactionTotal = z.infer<typeof ZTransactionTotal>;

/** `/profile/transactions`: the user's ledger, a page at a time. */
export function useTransactions(query: RequestOptions['query']) {
  return useQuery({
    queryKey: ['billing', 'transactions', query],
    queryFn: ({ signal }) => api.get<TransactionPage>('/balance/transactions', query, signal),
    placeholderData: keepPreviousData,
  });
}

/** The ledger's sums: credited, debited and their total. */
export function useTransactionTotal() {
  return useQuery({
    queryKey: ['billing', 'transactions-total'],
    queryFn: ({ signal }) => api.get<TransactionTotal>('/balance/transactions/total', undefined, signal),
  });
}
