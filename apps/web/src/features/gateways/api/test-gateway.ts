import type { TGatewayTestResult } from '@herald/shared/gateways/gateways.schemas';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Asks the provider whether it accepts the gateway's credentials. */
export function testGateway(id: number) {
  return api.post<TGatewayTestResult>(`/config/gateway/messaging/${id}/test`);
}

export function useTestGateway() {
  return useMutation({ mutationFn: testGateway });
}
