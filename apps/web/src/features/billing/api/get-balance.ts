import type { TBalance, TBalanceChangedEvent, TFreeSmsChangedEvent } from '@herald/shared/billing/billing.schemas';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useServerEvent } from '../../../lib/live-events.tsx';

export const balanceQueryKey = ['balance'] as const;

export function getBalance(signal?: AbortSignal): Promise<TBalance> {
  return api.get<TBalance>('/balance', undefined, signal);
}

export const balanceQueryOptions = () =>
  queryOptions({ queryKey: balanceQueryKey, queryFn: ({ signal }) => getBalance(signal), staleTime: 60_000 });

/** The signed-in user's balance and free SMS (the header's), kept live by `BalanceChanged`. */
export function useBalance() {
  return useQuery(balanceQueryOptions());
}

/**
 * Applies every `BalanceChanged` of this user to the cached balance, in every open tab, and
 * refreshes what a balance change makes stale (the ledger, the team's member balances). The free
 * SMS are the team's: `FreeSmsChanged` reaches every member, whoever spent them.
 * Mounted once, by the header.
 */
export function useBalanceEvents() {
  const queryClient = useQueryClient();
  useServerEvent('BalanceChanged', (event: TBalanceChangedEvent) => {
    queryClient.setQueryData<TBalance>(balanceQueryKey, (current) =>
      current
        ? {
            ...current,
            balance: event.balance,
            balance_currency: event.balance_currency,
            free_sms: event.free_sms ?? current.free_sms,
            debt: event.debt ?? current.debt,
          }
        : current,
    );
    if (!queryClient.getQueryData(balanceQueryKey)) void queryClient.invalidateQueries({ queryKey: balanceQueryKey });
    void queryClient.invalidateQueries({ queryKey: ['billing'] });
    void queryClient.invalidateQueries({ queryKey: ['team', 'members'] });
  });
  useServerEvent('FreeSmsChanged', (event: TFreeSmsChangedEvent) => {
    queryClient.setQueryData<TBalance>(balanceQueryKey, (current) =>
      current ? { ...current, free_sms: event.free_sms } : current,
    );
    // The subscriptions page and the profile card count the free SMS too.
    void queryClient.invalidateQueries({ queryKey: ['billing', 'subscriptions'] });
  });
}
