import type { TPaymentOrder } from '@herald/shared/billing/billing.schemas';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { TSubscriptionsResponse } from '@herald/shared/plans/plans.schemas';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client.ts';
import { formatMoney } from '../../../lib/format.ts';
import { localized } from '../plan-text.ts';
import { balanceQueryKey } from './get-balance.ts';

/** The query parameter the checkout returns with (the server appends it to `result_url`). */
export const PAYMENT_ORDER_PARAM = 'payment_order';
/** A callback can come after the browser: ask again for a while before saying "being confirmed". */
const TRIES = 5;
const EVERY_MS = 1500;

/**
 * After the checkout: the page it returns to names the order; this says how the payment went, once
 * (a toast with the new balance, or "payment declined"), and takes the parameter off the address.
 * Mounted once, by the header.
 */
export function usePaymentReturn() {
  const { t, i18n } = useTranslation('billing');
  const queryClient = useQueryClient();
  /** The plan's name in the chosen language, from the catalogue (cached with the plans page's). */
  const planName = async (id: number) => {
    const answer = await queryClient
      .fetchQuery({
        queryKey: ['billing', 'subscriptions'],
        queryFn: ({ signal }) => api.get<TSubscriptionsResponse>('/subscriptions', undefined, signal),
      })
      .catch(() => null);
    const plan = answer?.available_plans.find((p) => p.id === id);
    return plan ? localized(plan.name, i18n.language) : '';
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per page load, for the order it names
  useEffect(() => {
    const url = new URL(window.location.href);
    const orderId = url.searchParams.get(PAYMENT_ORDER_PARAM);
    if (!orderId) return;
    url.searchParams.delete(PAYMENT_ORDER_PARAM);
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    let stopped = false;
    const say = async (order: TPaymentOrder) => {
      const balance = formatMoney(order.balance, order.currency);
      const debt = order.debt > 0 ? `. ${t('payment.debt', { debt: formatMoney(order.debt, order.currency) })}` : '';
      if (order.status === 'declined')
        notifications.show({ message: t('payment.declined'), color: 'red', autoClose: 8000 });
      else if (order.status === 'reversed') notifications.show({ message: t('payment.reversed'), color: 'orange' });
      else if (order.status === 'pending' || order.status === 'closed')
        notifications.show({ message: t('payment.pending'), color: 'blue' });
      else if (order.purpose === 'subscription' && order.plan_bought && order.plan_id !== null)
        notifications.show({
          message: t('payment.planPaid', { plan: await planName(order.plan_id), balance }) + debt,
          color: 'teal',
          autoClose: 8000,
        });
      else if (order.purpose === 'subscription')
        notifications.show({ message: t('payment.credited', { balance }) + debt, color: 'teal', autoClose: 10_000 });
      else notifications.show({ message: t('payment.paid', { balance }) + debt, color: 'teal', autoClose: 12_000 });
      void queryClient.invalidateQueries({ queryKey: balanceQueryKey });
      void queryClient.invalidateQueries({ queryKey: ['billing'] });
    };
    (async () => {
      for (let attempt = 1; attempt <= TRIES && !stopped; attempt++) {
        const order = await api.get<TPaymentOrder>(`/balance/orders/${encodeURIComponent(orderId)}`).catch(() => null);
        if (!order) return;
        if (order.status !== 'pending' || attempt === TRIES) return say(order);
        await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
      }
    })();
    return () => {
      stopped = true;
    };
  }, []);
}
