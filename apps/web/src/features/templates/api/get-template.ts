import type { TSmsTemplate } from '@herald/shared/templates/templates.schemas';
import { api } from '../../../lib/api-client.ts';

/** Loads one template as it is now (the list may be stale), for the composer. */
export function getTemplate(id: number) {
  return api.get<TSmsTemplate>(`/config/template/sms/${id}`);
}
