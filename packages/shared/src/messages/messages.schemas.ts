import { z } from 'zod';
import { ZMessageStatus } from '../gateways/message-status.ts';

/**
 * One message to one recipient (decision 020). `state` is where the send path is (written before the
 * gateway is called, so a crash leaves a row that says so); `status` is what the carrier reported.
 */
export const MESSAGE_STATES = ['pending', 'claimed', 'submitted', 'unknown', 'failed'] as const;
export const ZMessageState = z.enum(MESSAGE_STATES);
export type TMessageState = z.infer<typeof ZMessageState>;

export const MESSAGE_KINDS = ['single', 'campaign_step'] as const;
export type TMessageKind = (typeof MESSAGE_KINDS)[number];

/** The longest text a single SMS may carry (Twilio's limit, ten parts of GSM-7 and then some). */
export const SINGLE_SMS_MAX = 1600;

/** `POST /api/leads/single-sms` (spec section 7): a phone or a lead, the text, and optionally the gateway and sender. */
export const ZSingleSmsRequest = z
  .object({
    phone: z.string().trim().max(40).nullish(),
    lead_id: z.coerce.number().int().positive().nullish(),
    message: z.string().trim().min(1).max(SINGLE_SMS_MAX),
    redirect_to: z.string().trim().max(2000).nullish(),
    gateway_id: z.coerce.number().int().positive().nullish(),
    from: z.string().trim().max(20).nullish(),
  })
  .refine((v) => Boolean(v.phone) || Boolean(v.lead_id), { message: 'phone_required', path: ['phone'] });
export type TSingleSmsRequest = z.infer<typeof ZSingleSmsRequest>;

export const ZSentMessage = z.object({
  id: z.number(),
  kind: z.enum(MESSAGE_KINDS),
  lead_id: z.number().nullable(),
  phone: z.string(),
  gateway_id: z.number().nullable(),
  from: z.string().nullable(),
  text: z.string(),
  parts: z.number(),
  encoding: z.string(),
  /** Minor units charged (free SMS of the plan are charged as 0). */
  price: z.number(),
  state: ZMessageState,
  status: ZMessageStatus.nullable(),
  provider_message_id: z.string().nullable(),
  error_code: z.string().nullable(),
  created_at: z.string(),
});
export type TSentMessage = z.infer<typeof ZSentMessage>;

export const ZSingleSmsResponse = z.object({ message: z.string(), code: z.string(), data: ZSentMessage });
export type TSingleSmsResponse = z.infer<typeof ZSingleSmsResponse>;

/** SSE `MessageStatus`: a message moved, or a reply came; the lead's Timeline refetches. */
export const ZMessageStatusEvent = z.object({
  message_id: z.number().nullable(),
  lead_id: z.number().nullable(),
  state: ZMessageState.nullable(),
  status: ZMessageStatus.nullable(),
});
export type TMessageStatusEvent = z.infer<typeof ZMessageStatusEvent>;
