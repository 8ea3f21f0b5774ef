import { z } from 'zod';
import { ZSentMessage } from '../messages/messages.schemas.ts';

/** `POST /api/campaigns/{id}/test` (spec section 7): every step, at once, to this phone. */
export const ZCampaignTestRequest = z.object({ phone: z.string().trim().min(1).max(40) });
export type TCampaignTestRequest = z.infer<typeof ZCampaignTestRequest>;

/** The message the spec shows, and the messages created, one per step in order. */
export const ZCampaignTestResponse = z.object({
  message: z.string(),
  code: z.string(),
  data: z.array(ZSentMessage),
});
export type TCampaignTestResponse = z.infer<typeof ZCampaignTestResponse>;
