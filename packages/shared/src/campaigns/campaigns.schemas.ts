import { z } from 'zod';
import { messageText, ZMessage } from '../common/messages.ts';
import { pageOf, ZIds, ZPageQuery } from '../common/pagination.schemas.ts';
import { ZRedirectUrl } from '../templates/templates.schemas.ts';
import { CAMPAIGN_STATUSES, CAMPAIGN_STEP_STATUSES } from './campaign-moves.ts';

/** The spec's campaign calls (section 6) and what they answer; decision 031. */

export const ZCampaignStatus = z.enum(CAMPAIGN_STATUSES);
export const ZCampaignStepStatus = z.enum(CAMPAIGN_STEP_STATUSES);

/** 15 a page (spec). */
export const CAMPAIGNS_PAGE_SIZE = 15;
/** The spec's frequency default: messages a minute. */
export const DEFAULT_FREQUENCY_PER_MINUTE = 60;
/** A provider contract can allow far more than the spec's 60; the gateway's own rate caps it anyway. */
export const MAX_FREQUENCY_PER_MINUTE = 600_000;
/** Start defaults to now + 5 minutes, on a 5-minute step (spec). */
export const START_STEP_MINUTES = 5;
/** Quiet hours by default: no sends between 21:00 and 09:00 in the recipient's time zone. */
export const DEFAULT_QUIET_FROM = '21:00';
export const DEFAULT_QUIET_TO = '09:00';
/** Delays up to a year; longer is a typo. */
export const MAX_DELAY_MINUTES = 366 * 24 * 60;
export const MAX_STEPS = 20;

export const CAMPAIGN_SORT_FIELDS = ['id', 'name', 'status', 'start_at', 'created_at', 'updated_at'] as const;

export const ZCampaignListQuery = ZPageQuery.extend({
  limit: ZPageQuery.shape.limit.unwrap().default(CAMPAIGNS_PAGE_SIZE),
  status: ZCampaignStatus.optional(),
});
export type TCampaignListQuery = z.infer<typeof ZCampaignListQuery>;

/** `YYYY-MM-DD HH:mm` as the form writes it (in the campaign's time zone), or an ISO instant. */
export const ZLocalDateTime = z
  .string()
  .trim()
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(v),
    messageText('campaign_start_invalid'),
  );

/** A time of day, `HH:mm`. */
export const ZTimeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:00)?$/, messageText('campaign_time_invalid'))
  .transform((v) => v.slice(0, 5));

export const ZTimezone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine((v) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: v });
      return true;
    } catch {
      return false;
    }
  }, messageText('timezone_invalid'));

const ZName = z.string().trim().min(1, messageText('name_required')).max(255);

/** A campaign as every call answers it. */
export const ZCampaign = z.object({
  id: z.number(),
  name: z.string(),
  status: ZCampaignStatus,
  /** The creator. */
  user_id: z.number().nullable(),
  /** Who pays: set when it is scheduled or started. */
  launched_by: z.number().nullable(),
  gateway_id: z.number().nullable(),
  gateway_name: z.string().nullable(),
  /** Alpha name or phone number; null: none chosen yet. */
  sender: z.string().nullable(),
  timezone: z.string(),
  /** The start as an instant (ISO) and as the form shows it in the campaign's zone. */
  start_at: z.string().nullable(),
  start_at_local: z.string().nullable(),
  frequency_per_minute: z.number(),
  quiet_hours: z.boolean(),
  quiet_from: z.string(),
  quiet_to: z.string(),
  /** Leave out phones a lookup found invalid or not mobile (decision 041); on by default. */
  skip_invalid_phones: z.boolean(),
  /** Why it is paused or failed: a message code and its params. */
  paused_reason: ZMessage.nullable(),
  failed_reason: ZMessage.nullable(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  steps_count: z.number(),
  audiences_count: z.number(),
  /** Recipients fixed at the start (to send); null before it. */
  recipients_count: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  version: z.number(),
});
export type TCampaign = z.infer<typeof ZCampaign>;
export const ZCampaignPage = pageOf(ZCampaign);
export type TCampaignPage = z.infer<typeof ZCampaignPage>;

/** How many campaigns of the team are in each status, and all of them. */
export const ZCampaignAggregations = z.object({
  total: z.number(),
  statuses: z.record(ZCampaignStatus, z.number()),
});
export type TCampaignAggregations = z.infer<typeof ZCampaignAggregations>;

export const ZCreateCampaignRequest = z.object({
  name: ZName.optional(),
  gateway_id: z.number().int().positive().nullish(),
  sender: z.string().trim().max(20).nullish(),
  /** Default: the browser's zone the web sends, else UTC. */
  timezone: ZTimezone.optional(),
  start_at: ZLocalDateTime.nullish(),
  frequency_per_minute: z.number().int().min(1).max(MAX_FREQUENCY_PER_MINUTE).optional(),
  quiet_hours: z.boolean().optional(),
  quiet_from: ZTimeOfDay.optional(),
  quiet_to: ZTimeOfDay.optional(),
  skip_invalid_phones: z.boolean().optional(),
});
export type TCreateCampaignRequest = z.input<typeof ZCreateCampaignRequest>;

/** Only the fields sent change; `version` (optional) refuses an edit made on a stale copy. */
export const ZUpdateCampaignRequest = ZCreateCampaignRequest.extend({
  name: ZName.optional(),
  version: z.number().int().positive().optional(),
});
export type TUpdateCampaignRequest = z.input<typeof ZUpdateCampaignRequest>;

export const ZCampaignStatusRequest = z.object({ status: ZCampaignStatus });
export const ZCampaignBatchRequest = z.object({ ids: ZIds });
export const ZCampaignBatchStatusRequest = z.object({ ids: ZIds, status: ZCampaignStatus });

/** A batch call's answer: what was done, and each campaign refused with why. */
export const ZCampaignBatchResult = z.object({
  message: z.string(),
  code: z.string(),
  done: z.number(),
  refused: z.array(z.object({ id: z.number(), reason: ZMessage })),
});
export type TCampaignBatchResult = z.infer<typeof ZCampaignBatchResult>;

// Steps

export const CAMPAIGN_STEP_TYPES = ['sms', 'lookup'] as const;
export type TCampaignStepType = (typeof CAMPAIGN_STEP_TYPES)[number];

export const ZCampaignStep = z.object({
  id: z.number(),
  campaign_id: z.number(),
  position: z.number(),
  /** 'Step N': the number is the position. */
  name: z.string(),
  type: z.enum(CAMPAIGN_STEP_TYPES),
  status: ZCampaignStepStatus,
  message: z.string(),
  redirect_to: z.string().nullable(),
  short_url_domain_id: z.number().nullable(),
  delay_minutes: z.number(),
  limit_cap: z.number().nullable(),
  send_by_minutes: z.number().nullable(),
  /** A lookup step's gateway (allow_lookup); null on SMS steps. */
  gateway_id: z.number().nullable(),
  recipients_count: z.number(),
  /** A lookup step's lookup once its turn came: how far it is and what it found. */
  lookup: z
    .object({
      id: z.number(),
      /** 0 pending, 1 running, 2 paused, 3 completed. */
      status: z.number(),
      phones: z.number(),
      /** Phones with a result (looked up now, or a fresh one reused). */
      done: z.number(),
      invalid: z.number(),
      not_mobile: z.number(),
      reason: z.string().nullable(),
    })
    .nullable()
    .optional(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCampaignStep = z.infer<typeof ZCampaignStep>;

const ZStepFields = z.object({
  /** sms sends `message`; lookup looks the recipients' phones up through `gateway_id` (decision 041). */
  type: z.enum(CAMPAIGN_STEP_TYPES).default('sms'),
  message: z.string().max(1530).default(''),
  /** A lookup step's gateway; omitted: the team's default lookup gateway. */
  gateway_id: z.number().int().positive().nullish(),
  redirect_to: ZRedirectUrl.nullish(),
  short_url_domain_id: z.number().int().positive().nullish(),
  delay_minutes: z.number().int().min(0).max(MAX_DELAY_MINUTES).default(0),
  limit_cap: z.number().int().positive().max(100_000_000).nullish(),
  send_by_minutes: z.number().int().positive().max(MAX_DELAY_MINUTES).nullish(),
});
export const ZCreateCampaignStepRequest = ZStepFields;
export type TCreateCampaignStepRequest = z.input<typeof ZCreateCampaignStepRequest>;
/** Only the fields sent change; a step keeps its type. */
export const ZUpdateCampaignStepRequest = ZStepFields.omit({ type: true })
  .extend({
    message: z.string().max(1530),
    delay_minutes: z.number().int().min(0).max(MAX_DELAY_MINUTES),
  })
  .partial();
export type TUpdateCampaignStepRequest = z.input<typeof ZUpdateCampaignStepRequest>;

export const DELAY_UNITS = { minutes: 1, hours: 60, days: 1440 } as const;
export type TDelayUnit = keyof typeof DELAY_UNITS;

/** A delay in the largest unit that holds it whole: 1440 → 1 day, 90 → 90 minutes. */
export function delayParts(minutes: number): { value: number; unit: TDelayUnit } {
  if (minutes > 0 && minutes % DELAY_UNITS.days === 0) return { value: minutes / DELAY_UNITS.days, unit: 'days' };
  if (minutes > 0 && minutes % DELAY_UNITS.hours === 0) return { value: minutes / DELAY_UNITS.hours, unit: 'hours' };
  return { value: minutes, unit: 'minutes' };
}

// Audiences

export const CAMPAIGN_AUDIENCE_KINDS = ['segment', 'source', 'list'] as const;
export const ZCampaignAudienceKind = z.enum(CAMPAIGN_AUDIENCE_KINDS);
export type TCampaignAudienceKind = z.infer<typeof ZCampaignAudienceKind>;

export const ZCampaignAudience = z.object({
  id: z.number(),
  kind: ZCampaignAudienceKind,
  ref_id: z.number(),
  name: z.string(),
  /** The list's source, for a list. */
  source_id: z.number().nullable(),
  leads_count: z.number().nullable(),
});
export type TCampaignAudience = z.infer<typeof ZCampaignAudience>;

export const ZAddCampaignAudiencesRequest = z.object({
  kind: ZCampaignAudienceKind,
  ref_ids: z.array(z.number().int().positive()).min(1).max(100),
});
export type TAddCampaignAudiencesRequest = z.input<typeof ZAddCampaignAudiencesRequest>;

// Logs

export const CAMPAIGN_LOG_TYPES = [
  'campaign_created',
  'campaign_updated',
  'campaign_segment_add',
  'campaign_segment_deleted',
  'campaign_step_created',
  'campaign_step_updated',
  'campaign_step_deleted',
  'campaign_status_changed',
  'campaign_policy_not_enough_balance',
  // The engine's own
  'campaign_started',
  'campaign_step_started',
  'campaign_step_completed',
  'campaign_paused',
  'campaign_resumed',
  'campaign_failed',
  'campaign_completed',
  'campaign_test_sent',
] as const;
export type TCampaignLogType = (typeof CAMPAIGN_LOG_TYPES)[number];

/** One changed setting: its name and the value it took (spec: `data.attributes`). */
export const ZCampaignLogAttribute = z.object({
  name: z.string(),
  value_from: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
  value_to: z.union([z.string(), z.number(), z.boolean(), z.null()]),
});
export type TCampaignLogAttribute = z.infer<typeof ZCampaignLogAttribute>;

export const ZCampaignLogData = z
  .object({
    attributes: z.array(ZCampaignLogAttribute).optional(),
    /** The step, audience or status the entry is about. */
    step_id: z.number().optional(),
    position: z.number().optional(),
    kind: ZCampaignAudienceKind.optional(),
    ref_id: z.number().optional(),
    name: z.string().optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    /** Why (a pause, a failure): a message code and its params. */
    reason: ZMessage.optional(),
  })
  .catchall(z.unknown());
export type TCampaignLogData = z.infer<typeof ZCampaignLogData>;

export const ZCampaignLog = z.object({
  id: z.number(),
  /** A `CAMPAIGN_LOG_TYPES` entry; a string, as a client may know fewer types than the server. */
  type: z.string(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  data: ZCampaignLogData,
  created_at: z.string(),
});
export type TCampaignLog = z.infer<typeof ZCampaignLog>;
export const ZCampaignLogPage = pageOf(ZCampaignLog);

// Preview

/** Why a lead of the audience gets no message; every lead is in exactly one bucket. */
export const CAMPAIGN_SKIP_REASONS = [
  'blacklisted',
  'no_valid_phone',
  'banned',
  'ignored_format',
  'opted_out',
  'duplicate_phone',
  'capped',
  'limit_cap',
  // A lookup result says the phone is invalid or not a mobile, and the campaign skips those.
  'not_valid_mobile',
] as const;
export const ZCampaignSkipReason = z.enum(CAMPAIGN_SKIP_REASONS);
export type TCampaignSkipReason = z.infer<typeof ZCampaignSkipReason>;

export const ZCampaignPreviewStep = z.object({
  step_id: z.number(),
  position: z.number(),
  /** A lookup step sends no part: its cost is in `cost.lookup_money`. */
  type: z.enum(CAMPAIGN_STEP_TYPES),
  /** Recipients of this step: the campaign's, at most its limit cap. */
  recipients: z.number(),
  /** Parts of the longest rendered message (`{{link}}` counted as a short link). */
  parts: z.number(),
  encoding: z.enum(['GSM-7', 'UCS-2']),
  /** Characters of the longest rendered message. */
  length: z.number(),
  /** Parts this step sends at most: recipients × parts. */
  parts_total: z.number(),
});

export const ZCampaignPreview = z.object({
  /** Leads in the union of the audiences, each once. */
  audience: z.number(),
  /** Recipients after every exclusion: one a phone. */
  recipients: z.number(),
  /** Leads skipped, by reason; with `recipients` they add up to `audience`. */
  skipped: z.record(ZCampaignSkipReason, z.number()),
  steps: z.array(ZCampaignPreviewStep),
  cost: z.object({
    parts_total: z.number(),
    /** Parts the launcher's plan still sends for free. */
    free_parts: z.number(),
    paid_parts: z.number(),
    /** Minor units. */
    price_per_part: z.number(),
    money: z.number(),
    currency: z.string(),
    /** Lookup steps: phones to look up (each recipient once a step), one lookup's price, and their money (in `money`). */
    lookup_phones: z.number(),
    lookup_price: z.number(),
    lookup_money: z.number(),
    /** The balance of who pays (the launcher, or the viewer before launch). */
    balance: z.number(),
    /** Whether the balance pays for the first step. */
    first_step_payable: z.boolean(),
    payable: z.boolean(),
  }),
  /** When the last step's last message is expected out, under frequency, gateway rate and quiet hours. */
  finish: z.object({
    starts_at: z.string(),
    finishes_at: z.string().nullable(),
    /** Messages a minute the campaign gets: its frequency, capped by the gateway's rate. */
    per_minute: z.number(),
  }),
});
export type TCampaignPreview = z.infer<typeof ZCampaignPreview>;

// Test send

export const ZCampaignTestRequest = z.object({
  phone: z.string().trim().min(1, messageText('phone_required')).max(32),
});
export type TCampaignTestRequest = z.input<typeof ZCampaignTestRequest>;

/** What a test send answers: the message shown, and each step's rendered text and outcome. */
export const ZCampaignTestResult = z.object({
  message: z.string(),
  code: z.string(),
  steps: z.array(
    z.object({
      step_id: z.number(),
      position: z.number(),
      message_id: z.number().nullable(),
      text: z.string(),
      parts: z.number(),
      state: z.string(),
      detail: ZMessage.optional(),
    }),
  ),
});
export type TCampaignTestResult = z.infer<typeof ZCampaignTestResult>;
