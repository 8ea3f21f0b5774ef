import { z } from 'zod';
import { messageText } from '../common/messages.ts';
import { GATEWAY_TYPES } from './gateway-types.ts';
import { ZMessageStatus } from './message-status.ts';

export const ZGatewayType = z.enum(GATEWAY_TYPES);

const ZCapabilities = z.object({
  statusDelivery: z.enum(['webhook', 'poll']),
  inbound: z.boolean(),
  alphaSender: z.boolean(),
  lookup: z.boolean(),
  recipientsPerRequest: z.number(),
  requestsPerSecond: z.number(),
});

/** A gateway as the settings list shows it. Secret credentials never leave the server. */
export const ZGateway = z.object({
  id: z.number(),
  name: z.string(),
  type: ZGatewayType,
  active: z.boolean(),
  default: z.boolean(),
  allow_lookup: z.boolean(),
  /** The non-secret credential fields (sender, base URL, simulator rates…). */
  params: z.record(z.string(), z.string()),
  /** Which secret fields hold a value. */
  credentials_set: z.array(z.string()),
  capabilities: ZCapabilities,
  /** Where the provider sends reports and replies (to paste into its dashboard); null where it has none. */
  webhook_urls: z.object({ status: z.string().nullable(), inbound: z.string().nullable() }),
  created_at: z.string(),
});
export type TGateway = z.infer<typeof ZGateway>;

export const ZGatewayList = z.object({ data: z.array(ZGateway) });

/**
 * Create or update. `credentials` holds every field of the type; on update a secret field left out
 * or empty keeps what is stored.
 */
export const ZGatewayRequest = z.object({
  type: ZGatewayType,
  name: z.string().trim().min(1, messageText('name_required')).max(100),
  active: z.boolean().default(true),
  default: z.boolean().default(false),
  allow_lookup: z.boolean().default(false),
  credentials: z.record(z.string(), z.string().max(10_000)).default({}),
});
export type TGatewayRequest = z.input<typeof ZGatewayRequest>;

/** What an operator's single-SMS form needs: the gateways it may send through. */
export const ZSendingGatewayList = z.object({
  data: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      type: ZGatewayType,
      default: z.boolean(),
      from: z.string().nullable(),
    }),
  ),
});

export const ZGatewayTestResult = z.object({
  ok: z.boolean(),
  /** A message code: why it failed (`gateway_auth_failed`, …), or `gateway_connected`. */
  code: z.string(),
  message: z.string(),
  /** What the provider said, for the user to read (its own words, not translated). */
  detail: z.string().optional(),
});
export type TGatewayTestResult = z.infer<typeof ZGatewayTestResult>;

/** A delivery report, parsed and mapped, as the messages module receives it. */
export const ZStatusReport = z.object({
  providerMessageId: z.string(),
  status: ZMessageStatus,
  /** The provider's own status word, kept for the log. */
  providerStatus: z.string(),
  errorCode: z.string().nullable(),
  at: z.date(),
});
export type TStatusReport = z.infer<typeof ZStatusReport>;

export interface TInboundMessage {
  from: string;
  to: string;
  text: string;
  providerMessageId: string | null;
  at: Date;
}
