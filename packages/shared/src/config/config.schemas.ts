import { z } from 'zod';

const ZOption = z.object({ key: z.string(), label: z.string() });

const ZGatewayFieldInfo = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum(['text', 'secret', 'number', 'url', 'textarea', 'select']),
  required: z.boolean(),
  secret: z.boolean(),
  default: z.string().optional(),
  options: z.array(ZOption).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
});

/**
 * `GET /api/config/general`: the choices the screens offer. Lists owned by capabilities still to
 * come (campaign statuses, lookup maps, template types) are empty until those capabilities fill them.
 */
export const ZConfigGeneral = z.object({
  /** IANA zones the runtime knows (`Intl.supportedValuesOf('timeZone')`). */
  timezones_js: z.array(z.string()),
  /** The gateway types a team can add. */
  campaign_gateway_list: z.array(ZOption),
  /** Each gateway type's credential fields. */
  setting_gateway_message_fields: z.record(z.string(), z.array(ZGatewayFieldInfo)),
  /** What each gateway type can do (status by webhook or poll, replies, lookups…). */
  gateway_capabilities: z.record(
    z.string(),
    z.object({
      statusDelivery: z.enum(['webhook', 'poll']),
      inbound: z.boolean(),
      alphaSender: z.boolean(),
      lookup: z.boolean(),
      recipientsPerRequest: z.number(),
      requestsPerSecond: z.number(),
    }),
  ),
  campaign_status_list: z.array(ZOption),
  campaign_manual_status_list: z.array(ZOption),
  lookup_maps: z.record(z.string(), z.array(ZOption)),
  sms_templates_types: z.array(ZOption),
});
export type TConfigGeneral = z.infer<typeof ZConfigGeneral>;
