import type { ColumnType, Generated } from 'kysely';
import type { TCampaignStatus, TCampaignStepStatus } from '@herald/shared/campaigns/campaign-moves';
import type {
  TCampaignAudienceKind,
  TCampaignLogData,
  TCampaignSkipReason,
} from '@herald/shared/campaigns/campaigns.schemas';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Migration 0031; the moves and editing rules are `@herald/shared/campaigns/campaign-moves`. */
export interface CampaignsTable {
  id: Generated<number>;
  team_id: number;
  /** The creator. */
  user_id: number | null;
  /** Who pays: set when the campaign is scheduled or started. */
  launched_by: number | null;
  name: string;
  status: Generated<TCampaignStatus>;
  gateway_id: number | null;
  sender: string | null;
  /** IANA zone the start is written in. */
  timezone: Generated<string>;
  start_at: NullableTimestamp;
  frequency_per_minute: Generated<number>;
  quiet_hours: Generated<boolean>;
  /** `HH:mm:ss` as PostgreSQL gives a `time`. */
  quiet_from: Generated<string>;
  quiet_to: Generated<string>;
  /** A message code (`encodeMessage`): why the campaign is paused or failed. */
  paused_reason: string | null;
  failed_reason: string | null;
  started_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
  version: Generated<number>;
  /** The launcher's process in the header popover, once started (0032). */
  process_id: Generated<number | null>;
  /** While the start is still fixing recipients, the team's last lead id at the start; null once done (0033). */
  recipients_through: number | null;
  /** Phones a lookup found invalid or not mobile are left out (0039, decision 041). */
  skip_invalid_phones: Generated<boolean>;
}

export interface CampaignAudiencesTable {
  id: Generated<number>;
  campaign_id: number;
  team_id: number;
  kind: TCampaignAudienceKind;
  /** A segment, source or list id of the team, as `kind` says. */
  ref_id: number;
  created_at: CreatedAt;
}

export interface CampaignStepsTable {
  id: Generated<number>;
  campaign_id: number;
  team_id: number;
  /** 1-based; unique per campaign (deferred, so a delete can renumber). */
  position: number;
  type: Generated<'sms' | 'lookup'>;
  message: Generated<string>;
  redirect_to: string | null;
  short_url_domain_id: number | null;
  /** After the recipient's previous step went out. */
  delay_minutes: Generated<number>;
  /** Send this step to at most this many recipients. */
  limit_cap: number | null;
  /** After the step's own start, a message not yet handed to the gateway is cancelled, not charged. */
  send_by_minutes: number | null;
  /** A lookup step's gateway (0040); null on SMS steps. */
  gateway_id: number | null;
  status: Generated<TCampaignStepStatus>;
  recipients_count: Generated<number>;
  started_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** One row per audience lead, fixed at the start; `skip_reason` null: to send (one per phone). */
export interface CampaignRecipientsTable {
  campaign_id: number;
  team_id: number;
  lead_id: number;
  /** E.164; null when the lead has no valid phone. */
  phone: string | null;
  skip_reason: TCampaignSkipReason | null;
  created_at: CreatedAt;
}

export interface CampaignLogsTable {
  id: Generated<number>;
  campaign_id: number;
  team_id: number;
  user_id: number | null;
  type: string;
  data: ColumnType<TCampaignLogData, string | undefined, string>;
  created_at: CreatedAt;
}

export interface CampaignsTables {
  campaigns: CampaignsTable;
  campaign_audiences: CampaignAudiencesTable;
  campaign_steps: CampaignStepsTable;
  campaign_recipients: CampaignRecipientsTable;
  campaign_logs: CampaignLogsTable;
}
