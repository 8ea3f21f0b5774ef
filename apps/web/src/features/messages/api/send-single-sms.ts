import type { TSingleSmsRequest, TSingleSmsResponse } from '@herald/shared/messages/messages.schemas';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `POST /leads/single-sms`. The key is made once per "Send" the user presses and resent with a
 * retry of that request, so a retried request is charged and sent once.
 */
export function useSendSingleSms() {
  return useMutation({
    mutationFn: ({ body, key }: { body: TSingleSmsRequest; key: string }) =>
      apiRequest<TSingleSmsResponse>('/leads/single-sms', {
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': key },
        toast: false,
      }),
    // The form shows each refusal once, under its field or above the form: no toast as well.
    meta: { handlesErrors: true },
  });
}
