import type { TLeadValue } from '@herald/shared/leads/leads.schemas';
import type { PhoneRule } from '@herald/shared/leads/phone';
import type { TGateway } from '@herald/shared/gateways/gateways.schemas';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { DomainEventsHub } from '../../events/domain-events.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { TStatusReport } from '@herald/shared/gateways/gateways.schemas';
import type { TMessageStatus } from '@herald/shared/gateways/message-status';
import type { TGatewayCapabilities } from '@herald/shared/gateways/gateway-types';
import type { CrashMoment, EngineSettings } from './send-rules.ts';
import type { MessageRow } from './messages.repository.ts';
import type { ChargeRequest, ChargeResult, RefundRequest, RefundResult } from '@herald/shared/billing/charges';

/** What the send path uses of a gateway's adapter (the gateways module's contract, decision 018). */
export interface SendingAdapter {
  readonly capabilities: Pick<TGatewayCapabilities, 'statusDelivery' | 'requestsPerSecond' | 'dedupesByKey'>;
  send(request: {
    to: string;
    from?: string | null;
    text: string;
    statusCallbackUrl: string;
    idempotencyKey: string;
  }): Promise<{ providerMessageId: string; status: TMessageStatus }>;
  pollStatuses?(providerMessageIds: string[]): Promise<TStatusReport[]>;
  /** Whether the provider took a message whose answer we never heard (the adapter's `findSent`). */
  findSent?(query: {
    to: string;
    text: string;
    idempotencyKey: string;
    calledAt: Date;
    exclude?: ReadonlySet<string>;
  }): Promise<{ providerMessageId: string; status: TMessageStatus } | null>;
}

/**
 * How an adapter's failure reads (its `GatewaySendError`): `retryable` the provider did not take it,
 * `permanent` it never will, `unknown_outcome` it may have been sent.
 */
export interface SendFailure {
  name: 'GatewaySendError';
  kind: 'retryable' | 'permanent' | 'unknown_outcome';
  reason: string;
  providerCode?: string;
  /** The provider's `Retry-After`. */
  retryAfterMs?: number;
  message: string;
}

export function isSendFailure(error: unknown): error is SendFailure {
  return error instanceof Error && error.name === 'GatewaySendError' && 'kind' in error;
}

/** The billing module's charge (decision 016), as this module calls it. */
export type { ChargeRequest, ChargeResult } from '@herald/shared/billing/charges';

/** The billing module's refund: gives back what the charge with `chargeKey` took, once (`refund:<chargeKey>`). */
export type Refund = (tx: Kysely<DB>, teamId: number, request: RefundRequest) => Promise<RefundResult>;

/** What the messages module is handed by the modules built before it (app.ts). */
export interface MessagesDeps {
  db: Kysely<DB>;
  bus: EventBus;
  jobs: Pick<JobQueue, 'register' | 'send'>;
  gateways: {
    adapter(teamId: number, id: number): Promise<{ gateway: TGateway; adapter: SendingAdapter }>;
    sendingList(teamId: number): Promise<Array<{ id: number; default: boolean }>>;
  };
  /** A gateway's status URL where its view shows none (polled providers take one anyway). */
  statusUrl(gatewayId: number): string;
  phoneRule(teamId: number): Promise<PhoneRule>;
  valuesOf(teamId: number, leadIds: number[]): Promise<Array<TLeadValue & { lead_id: number }>>;
  /** Minor units of one SMS part to this phone for the user's balance currency. */
  pricePerPart(teamId: number, userId: number, phone: string): Promise<number>;
  charge(tx: Kysely<DB>, teamId: number, request: ChargeRequest): Promise<ChargeResult>;
  /** Many charges in one go (a dispatch batch); absent: `charge` one by one. */
  chargeMany?(tx: Kysely<DB>, teamId: number, requests: ChargeRequest[]): Promise<{ results: ChargeResult[] }>;
  /** Absent: messages that end without a send keep their charge (and are marked for a later refund run). */
  refund?: Refund;
  announce(teamId: number, userIds: number[]): Promise<void>;
  /**
   * Short links (decision 021): one per recipient and tag, made in the row's transaction; the text
   * is `host/code`. Absent: messages with `{{link}}` or `{{unsubscribe}}` are refused.
   */
  shortLinks?: {
    make(
      tx: Kysely<DB>,
      input: {
        teamId: number;
        leadId: number | null;
        messageId: number | null;
        redirectTo?: string | null;
        kind: 'link' | 'unsubscribe';
        phone?: string | null;
      },
    ): Promise<{ text: string }>;
  };
  /**
   * How long a claim holds: a claim that ran out goes back to pending if its call had not begun,
   * else it is unknown. Default: three gateway timeouts and 30 s.
   */
  leaseMs?: number;
  /** How long one provider call may take (the lease's default is built from it). */
  gatewayTimeoutMs?: number;
  runWorkers: boolean;
  /** The longest wait between sweeps (a sweep runs at least once a lease). */
  sweepEveryMs?: number;
  /** The engine's tuning beyond the lease (tests and benchmarks); absent: the defaults. */
  engine?: Partial<Omit<EngineSettings, 'leaseMs'>>;
  /** Seconds between status polls, in place of 30 s doubling to 30 min (tests). */
  pollSeconds?: number;
  /** Tests: runs at each moment of a send (`moment`); a throw there stops the send as a crash would. */
  beforeGatewayCall?: (row: MessageRow & { moment: CrashMoment }) => Promise<void>;
  /** Where the dispatch's faults are written. */
  log?: { error(obj: object, msg: string): void };
  /** Where `messages.moved` is told, after a report batch commits (decision 025). */
  domainEvents?: Pick<DomainEventsHub, 'emit'>;
}
