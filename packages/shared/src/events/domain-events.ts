import type { TCampaignStatus } from '../campaigns/campaign-moves.ts';
import type { TMessageStatus } from '../gateways/message-status.ts';

/**
 * Things that happened inside the server, published after their transaction commits and heard by
 * the modules that act on them (campaigns, lookups). One map, so a subscriber names an event and
 * gets its payload's type; modules never hand each other bespoke hooks for these.
 */
export interface DomainEvents {
  /** A batch of messages changed state or carrier status (sends settled, reports applied). */
  'messages.moved': {
    teamId: number;
    messages: Array<{
      id: number;
      kind: 'single' | 'campaign_step';
      campaignId: number | null;
      campaignStepId: number | null;
      state: string;
      status: TMessageStatus | null;
    }>;
  };
  /** A user's balance went up (a top-up, a share received, a refund, an auto-refill). */
  'billing.balance_raised': { teamId: number; userId: number };
  /** A user moved campaigns to another status (scheduled, paused, draft): the engine looks at them. */
  'campaigns.status_changed': {
    teamId: number;
    userId: number;
    campaigns: Array<{ id: number; from: TCampaignStatus; to: TCampaignStatus }>;
  };
}

export type TDomainEventName = keyof DomainEvents;
