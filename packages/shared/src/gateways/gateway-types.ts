import { baseUrl, lookupsPerSecond, partsPerSecond, percent, secret, text, url } from './gateway-field-kinds.ts';

/**
 * The kinds of SMS gateway a team can add, their credential fields (the spec's
 * `setting_gateway_message_fields`) and what each can do. Secret fields are stored encrypted and
 * never sent back; the others come back in a gateway's `params`.
 */
export const GATEWAY_TYPES = [
  'simulator',
  'twilio',
  'telnyx',
  'turbosms',
  'smsclub',
  'alphasms',
  'generic_http',
] as const;
export type TGatewayType = (typeof GATEWAY_TYPES)[number];

export type TGatewayFieldKind = 'text' | 'secret' | 'number' | 'url' | 'textarea' | 'select';

export interface TGatewayField {
  key: string;
  /** English label; the web shows `gateways:fields.<key>`. */
  label: string;
  kind: TGatewayFieldKind;
  required: boolean;
  secret: boolean;
  default?: string;
  options?: Array<{ key: string; label: string }>;
  /** Numbers: inclusive bounds. */
  min?: number;
  max?: number;
}

export interface TGatewayCapabilities {
  /** How delivery reports arrive: pushed to our webhook, or asked for (`pollStatuses`). */
  statusDelivery: 'webhook' | 'poll';
  /** Replies reach us (opt-out by STOP works); alpha senders cannot receive replies. */
  inbound: boolean;
  /** Sender may be an alpha name. */
  alphaSender: boolean;
  /** Carrier lookup (the lookups capability). */
  lookup: boolean;
  recipientsPerRequest: number;
  /** The provider's own limit, in SMS parts a second; the dispatch keeps every worker under it together. */
  requestsPerSecond: number;
  /**
   * A repeated send with the same idempotency key yields the first message, never a second: only
   * then is a send whose outcome is unknown (a 5xx, a lost answer) sent again (decision 024).
   */
  dedupesByKey: boolean;
}

export interface TGatewayTypeInfo {
  key: TGatewayType;
  label: string;
  fields: TGatewayField[];
  capabilities: TGatewayCapabilities;
}

export const GATEWAY_TYPE_INFO: Record<TGatewayType, TGatewayTypeInfo> = {
  simulator: {
    key: 'simulator',
    label: 'Simulator',
    fields: [
      text('from', 'Sender'),
      percent('delivery_rate', 'Delivered, %', '90'),
      percent('failure_rate', 'Failed, %', '4'),
      percent('block_rate', 'Blocked by carrier, %', '3'),
      {
        key: 'latency_ms',
        label: 'Report delay, ms',
        kind: 'number',
        required: true,
        secret: false,
        default: '1000',
        min: 0,
        max: 600_000,
      },
      text('reply_text', 'Reply from every recipient'),
      partsPerSecond,
      {
        key: 'lookup_latency_ms',
        label: 'Lookup answer time, ms',
        kind: 'number',
        required: false,
        secret: false,
        default: '150',
        min: 0,
        max: 60_000,
      },
      lookupsPerSecond,
    ],
    capabilities: {
      statusDelivery: 'webhook',
      inbound: true,
      alphaSender: true,
      lookup: true,
      recipientsPerRequest: 1,
      requestsPerSecond: 100,
      dedupesByKey: true,
    },
  },
  twilio: {
    key: 'twilio',
    label: 'Twilio',
    fields: [
      text('sid', 'Account SID', true),
      secret('token', 'Auth token'),
      text('from_twilio', 'From (number or alpha name)', true),
      partsPerSecond,
      baseUrl,
    ],
    capabilities: {
      statusDelivery: 'webhook',
      inbound: true,
      alphaSender: true,
      lookup: true,
      recipientsPerRequest: 1,
      requestsPerSecond: 100,
      dedupesByKey: false,
    },
  },
  telnyx: {
    key: 'telnyx',
    label: 'Telnyx',
    fields: [
      secret('api_key', 'API key'),
      text('messaging_profile_id', 'Messaging profile ID'),
      text('from_telnyx', 'From (number or alpha name)'),
      { key: 'public_key', label: 'Webhook public key', kind: 'textarea', required: true, secret: false },
      partsPerSecond,
      baseUrl,
    ],
    capabilities: {
      statusDelivery: 'webhook',
      inbound: true,
      alphaSender: true,
      lookup: true,
      recipientsPerRequest: 1,
      requestsPerSecond: 50,
      dedupesByKey: false,
    },
  },
  turbosms: {
    key: 'turbosms',
    label: 'TurboSMS',
    fields: [secret('access_token', 'Access token'), text('from', 'Alpha name', true), partsPerSecond, baseUrl],
    capabilities: {
      statusDelivery: 'poll',
      inbound: false,
      alphaSender: true,
      lookup: false,
      recipientsPerRequest: 1,
      requestsPerSecond: 10,
      dedupesByKey: false,
    },
  },
  smsclub: {
    key: 'smsclub',
    label: 'SMS Club',
    fields: [secret('access_token', 'Access token'), text('from', 'Alpha name', true), partsPerSecond, baseUrl],
    capabilities: {
      statusDelivery: 'poll',
      inbound: false,
      alphaSender: true,
      lookup: false,
      recipientsPerRequest: 100,
      requestsPerSecond: 9,
      dedupesByKey: false,
    },
  },
  alphasms: {
    key: 'alphasms',
    label: 'AlphaSMS',
    fields: [secret('api_key', 'API key'), text('from', 'Alpha name', true), partsPerSecond, baseUrl],
    capabilities: {
      statusDelivery: 'webhook',
      inbound: false,
      alphaSender: true,
      lookup: false,
      recipientsPerRequest: 1,
      requestsPerSecond: 10,
      dedupesByKey: true,
    },
  },
  generic_http: {
    key: 'generic_http',
    label: 'Generic HTTP',
    fields: [
      url('url', 'Send URL', true),
      text('method', 'Method', true, {
        kind: 'select',
        default: 'POST',
        options: [
          { key: 'POST', label: 'POST' },
          { key: 'GET', label: 'GET' },
        ],
      }),
      text('auth_scheme', 'Authentication', true, {
        kind: 'select',
        default: 'none',
        options: [
          { key: 'none', label: 'None' },
          { key: 'bearer', label: 'Bearer token' },
          { key: 'basic', label: 'User and password' },
        ],
      }),
      secret('access_token', 'Access token', false),
      text('user', 'User'),
      secret('password', 'Password', false),
      text('from', 'Sender'),
      {
        key: 'body_template',
        label: 'Body template',
        kind: 'textarea',
        required: true,
        secret: false,
        default: '{"to":"{{to}}","from":"{{from}}","text":"{{text}}","callback":"{{status_url}}"}',
      },
      text('message_id_path', 'Message id in the answer', true, { default: 'id' }),
      text('status_id_path', 'Message id in a status report', false, { default: 'id' }),
      text('status_value_path', 'Status in a status report', false, { default: 'status' }),
      {
        key: 'status_map',
        label: 'Their status = ours, one a line',
        kind: 'textarea',
        required: false,
        secret: false,
        default: 'DELIVERED=delivered\nFAILED=failed\nUNDELIVERED=undelivered\nSENT=sent',
      },
      partsPerSecond,
      // Lookups (decision 041): declared by the gateway, so the type looks up only where a URL is given.
      url('lookup_url', 'Lookup URL ({{phone}} in it), GET'),
      text('lookup_carrier_path', 'Carrier name in the lookup answer'),
      text('lookup_mcc_mnc_path', 'MCC-MNC in the lookup answer'),
      text('lookup_type_path', 'Line type in the lookup answer'),
      {
        key: 'lookup_type_map',
        label: 'Their line type = ours (mobile, landline, voip, toll_free, other), one a line',
        kind: 'textarea',
        required: false,
        secret: false,
        default: 'MOBILE=mobile\nLANDLINE=landline\nFIXED=landline\nVOIP=voip\nTOLL_FREE=toll_free',
      },
      text('lookup_valid_path', 'Valid flag or status in the lookup answer'),
      {
        key: 'lookup_valid_map',
        label: 'Their status = valid or invalid, one a line',
        kind: 'textarea',
        required: false,
        secret: false,
      },
      text('lookup_ported_path', 'Ported flag in the lookup answer'),
      lookupsPerSecond,
    ],
    capabilities: {
      statusDelivery: 'webhook',
      inbound: false,
      alphaSender: true,
      lookup: false,
      recipientsPerRequest: 1,
      requestsPerSecond: 10,
      dedupesByKey: false,
    },
  },
};

/**
 * What one gateway can do: its type's capabilities, except that a generic HTTP gateway looks up
 * exactly when it declares a lookup URL.
 */
export function gatewayCapabilities(type: TGatewayType, params: Record<string, unknown> | null | undefined) {
  const own = GATEWAY_TYPE_INFO[type].capabilities;
  if (type !== 'generic_http') return own;
  const lookupUrl = params?.lookup_url;
  return { ...own, lookup: typeof lookupUrl === 'string' && lookupUrl.trim() !== '' };
}

export function isGatewayType(value: string): value is TGatewayType {
  return (GATEWAY_TYPES as readonly string[]).includes(value);
}

export function secretFieldsOf(type: TGatewayType): string[] {
  return GATEWAY_TYPE_INFO[type].fields.filter((f) => f.secret).map((f) => f.key);
}
