import type { TGatewayCapabilities, TGatewayType } from '@herald/shared/gateways/gateway-types';
import type { TInboundMessage, TStatusReport } from '@herald/shared/gateways/gateways.schemas';
import type { TMessageStatus } from '@herald/shared/gateways/message-status';

/** What an adapter is built from: one gateway's settings, opened, and where the app hears back. */
export interface AdapterContext {
  gatewayId: number;
  /** Non-secret fields (sender, rates, paths). */
  params: Record<string, string>;
  /** Secret fields, plus `webhook_secret`, generated for every gateway. */
  credentials: Record<string, string>;
  /** The provider's API: the gateway's `base_url`, else the server's default for the type. */
  baseUrl: string;
  /** This gateway's public webhook URLs on the app (built from APP_URL, never from Host). */
  statusUrl: string;
  inboundUrl: string;
  /** How long one provider call may take before its outcome is unknown. */
  timeoutMs: number;
  now(): number;
}

export interface SendRequest {
  /** E.164. */
  to: string;
  /** Number or alpha name; the gateway's own sender when absent. */
  from?: string | null;
  text: string;
  statusCallbackUrl: string;
  /** The caller's key for this one message (the send row): passed on where the provider dedupes by it. */
  idempotencyKey: string;
}

/** A message we may have sent: to whom, what, with which key, and the moment its call began. */
export interface SentQuery {
  to: string;
  text: string;
  idempotencyKey: string;
  calledAt: Date;
  /** Provider ids other rows hold already: never the answer. */
  exclude?: ReadonlySet<string>;
}

export interface SendResult {
  providerMessageId: string;
  status: TMessageStatus;
  /** Parts the provider counted, when it says. */
  parts?: number;
  raw: unknown;
}

/**
 * Why a send (or a connection test) did not succeed, and what the caller may do about it:
 * `retryable` (the provider did not take the message: send again, same key), `permanent` (it never
 * will: fail the message), `unknown_outcome` (it may have been sent: reconcile, never re-send).
 */
export type SendErrorKind = 'retryable' | 'permanent' | 'unknown_outcome';
export type SendErrorReason =
  | 'auth'
  | 'rejected'
  | 'rate_limited'
  | 'provider_error'
  | 'timeout'
  | 'network'
  | 'bad_answer';

export class GatewaySendError extends Error {
  readonly kind: SendErrorKind;
  readonly reason: SendErrorReason;
  readonly httpStatus?: number;
  /** The provider's own error code (Twilio 21610, Telnyx 40300, TurboSMS 105…). */
  readonly providerCode?: string;
  readonly raw?: unknown;
  /** How long the provider asked us to wait (`Retry-After`). */
  readonly retryAfterMs?: number;

  constructor(
    kind: SendErrorKind,
    reason: SendErrorReason,
    message: string,
    extra: { httpStatus?: number; providerCode?: string; raw?: unknown; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.name = 'GatewaySendError';
    this.kind = kind;
    this.reason = reason;
    this.httpStatus = extra.httpStatus;
    this.providerCode = extra.providerCode;
    this.raw = extra.raw;
    this.retryAfterMs = extra.retryAfterMs;
  }
}

/** A webhook call as received: the public URL it was sent to, lower-case headers, the raw body. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string | undefined>;
  rawBody: string;
}

export type WebhookKind = 'status' | 'inbound';
export type Verification = { ok: true } | { ok: false; reason: 'signature' | 'account' | 'stale' | 'unsupported' };

/** What to answer the provider once a webhook is taken (Twilio wants TwiML for replies). */
export interface WebhookAnswer {
  contentType: string;
  body: string;
}

export interface LookupResult {
  phone: string;
  carrierName: string | null;
  /** mobile, landline, voip, … as the provider says it. */
  carrierType: string | null;
  raw: unknown;
}

export interface GatewayAdapter {
  readonly type: TGatewayType;
  readonly capabilities: TGatewayCapabilities;
  send(request: SendRequest): Promise<SendResult>;
  /** Signature, account and freshness of a callback; nothing is parsed before this passes. */
  verifyWebhook(request: WebhookRequest, kind: WebhookKind): Promise<Verification> | Verification;
  /** Delivery reports in a verified callback (none for a ping or an event we do not use). */
  parseStatusWebhook(request: WebhookRequest): TStatusReport[];
  parseInbound?(request: WebhookRequest): TInboundMessage | null;
  /** Poll-only providers: the current status of these provider message ids (unknown ids left out). */
  pollStatuses?(providerMessageIds: string[]): Promise<TStatusReport[]>;
  lookup?(phone: string): Promise<LookupResult>;
  /**
   * Asks the provider whether it took a message we sent whose answer we never heard (decision 024):
   * the message, or null when the provider has none. Absent: the provider cannot be asked.
   */
  findSent?(query: SentQuery): Promise<{ providerMessageId: string; status: TMessageStatus } | null>;
  /** Resolves when the provider accepts the credentials; throws GatewaySendError otherwise. */
  testConnection(): Promise<void>;
  webhookAnswer?(kind: WebhookKind): WebhookAnswer;
}

export type AdapterFactory = (context: AdapterContext) => GatewayAdapter;
