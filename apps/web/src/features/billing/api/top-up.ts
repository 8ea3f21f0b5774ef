import type { TCheckout, TTopUpRequest } from '@herald/shared/billing/billing.schemas';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `POST /balance/topup`: an order and its checkout form; the balance moves on the payment's callback. */
export function topUp(body: TTopUpRequest): Promise<TCheckout> {
  return api.post<TCheckout>('/balance/topup', body, { toast: false });
}

export function useTopUp() {
  return useMutation({ mutationFn: topUp, meta: { handlesErrors: true } });
}
