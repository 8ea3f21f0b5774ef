import type { Kysely, RawBuilder, SqlBool } from 'kysely';
import type { PhoneRule } from '@herald/shared/leads/phone';
import type { TSingleSmsRequest, TSingleSmsResponse } from '@herald/shared/messages/messages.schemas';
import type { TExport } from '@herald/shared/segments/segments.schemas';
import type { DB } from '../../db/schema.ts';
import type { CampaignExportSource } from './campaign-audience-export.ts';
import type { DomainEventsHub } from '../../events/domain-events.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { MakeSegment } from './campaign-segments.service.ts';

/** A segment's chain, as the segments module hands it back to compile. */
export type SegmentChain = readonly unknown[];

/** The short links' batch maker (decision 021), in the caller's transaction: one `host/code` text per input. */
export interface ShortLinksMaker {
  makeMany(
    tx: Kysely<DB>,
    teamId: number,
    inputs: Array<{
      leadId: number | null;
      messageId: number | null;
      redirectTo?: string | null;
      kind: 'link' | 'unsubscribe';
      phone?: string | null;
    }>,
    domainId?: number,
  ): Promise<Array<{ text: string }>>;
}

/** The exports' runner (segments module) as the campaign audience's file uses it (decision 038). */
export interface CampaignExports {
  sources: { campaign?: Pick<CampaignExportSource, 'plan'> };
  startCampaign(
    user: { id: number; teamId: number },
    campaignId: number,
    request: { name: string; search?: string; format: 'csv' | 'xlsx' },
    language: 'uk' | 'en' | 'ru',
    requireCampaign: (teamId: number, id: number) => Promise<void>,
  ): Promise<TExport>;
}

/** What campaigns is handed by the modules built before it; narrow on purpose. */
export interface CampaignsDeps {
  db: Kysely<DB>;
  segments: {
    /** The segment's chain from its audience down; 404 `segment_not_found` for another team's. */
    requireChain(teamId: number, id: number): Promise<SegmentChain>;
    /** The chain's membership as a predicate over `leads`. */
    predicate(teamId: number, chain: SegmentChain): Promise<{ where: RawBuilder<SqlBool> }>;
    /** Makes an audience, or a segment of `parentId` (create-segment, decision 039). */
    create: MakeSegment;
  };
  phoneRule(teamId: number): Promise<PhoneRule>;
  gateways: {
    /** The team's gateways that send (active, not lookup-only). */
    sendingList(teamId: number): Promise<Array<{ id: number; name: string; default: boolean; from: string | null }>>;
    /** The team's gateway with what its adapter declares; 404 for another team's. */
    adapter(
      teamId: number,
      id: number,
    ): Promise<{
      gateway: { id: number; params: Record<string, unknown> };
      adapter: { capabilities: { requestsPerSecond: number } };
    }>;
  };
  billing: {
    profileBalance(
      teamId: number,
      userId: number,
    ): Promise<{ balance: number; balance_currency: string; free_sms: { remaining: number | null } }>;
    pricePerPart(teamId: number, userId: number, phone: string): Promise<number>;
    /** One lookup's price in the currency, minor units (a lookup step's cost, decision 041). */
    lookupPrice?(currency: string): number;
  };
  /** The team's plans in force; none: the owner is asked to activate one. */
  subscriptions(teamId: number): Promise<unknown[]>;
  domainEvents?: DomainEventsHub;
  /** Short links (decision 021): each recipient's `{{link}}` and `{{unsubscribe}}`, made as its row is rendered. */
  shortLinks: ShortLinksMaker;
  /** The messages module's single SMS (decision 020): a test send's messages go out, and are charged, as these. */
  singleSms(
    user: { id: number; teamId: number },
    input: TSingleSmsRequest,
    clientKey: string | null,
  ): Promise<TSingleSmsResponse>;
  /** Live events: `CampaignStatus` to the team, `ProcessStatus` to the launcher (decision 034). */
  bus: Pick<EventBus, 'publishMany'>;
  /** The launcher's process rows, and the mail job a balance pause sends. */
  jobs: Pick<JobQueue, 'processes' | 'register' | 'send'>;
  mailer: Mailer;
  /** Links in mails. */
  appUrl: string;
  /** The campaign audience's CSV and XLSX go through the audiences' exports. */
  exports?: CampaignExports;
  /** Where the engine reports a campaign that cannot move. */
  log?: { error(obj: object, msg: string): void };
  /** Whether this process runs the engine's tick (worker processes). */
  runWorkers?: boolean;
  /** The engine's tick; default 500 ms (tests shorten it). */
  engineTickMs?: number;
}
