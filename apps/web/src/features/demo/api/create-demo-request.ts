import type { TDemoRequest, TDemoRequestCreated } from '@herald/shared/demo/demo.schemas';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `POST /demo-requests`: the form shows its own field errors, so no toast. */
export function createDemoRequest(body: TDemoRequest): Promise<TDemoRequestCreated> {
  return api.post<TDemoRequestCreated>('/demo-requests', body, { toast: false });
}

export function useCreateDemoRequest() {
  return useMutation({ mutationFn: createDemoRequest, meta: { handlesErrors: true } });
}
