import { z } from 'zod';
import type { TProcess } from '../processes/processes.schemas.ts';
import { ZCampaignStatus } from './campaigns.schemas.ts';

/** Decision 034: a campaign as it moves, heard live, and the team's frequency cap across campaigns. */

/** The kind of a running campaign's process row in the header's popover. */
export const CAMPAIGN_PROCESS_KIND = 'campaigns.run';

/**
 * `CampaignStatus` (the live event, to every member of the team): a campaign changed status, by a
 * user or by the engine. `sent`: its messages handed to the gateway; `messages`: what its steps
 * send at most (recipients × steps, each step at most its cap); both 0 before it starts.
 */
export const ZCampaignStatusEvent = z.object({
  id: z.number(),
  name: z.string(),
  status: ZCampaignStatus,
  /** Why it is paused or failed, a message code; null otherwise. */
  reason: z.string().nullable(),
  /** Who launched it (pays for it, and is told when the balance pauses it). */
  launched_by: z.number().nullable(),
  recipients: z.number(),
  messages: z.number(),
  sent: z.number(),
  updated_at: z.string(),
});
export type TCampaignStatusEvent = z.infer<typeof ZCampaignStatusEvent>;

/**
 * What a campaign's process row says beside its bar: `campaign_progress` while it runs, its pause's
 * reason (`campaign_paused`, `campaign_policy_not_enough_balance`) or failure's code, always with
 * the campaign it is (`campaign_id`) and its figures.
 */
const ZCampaignProcessParams = z.object({
  campaign_id: z.number().int().positive(),
  sent: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
});
export type TCampaignProcessParams = z.infer<typeof ZCampaignProcessParams>;

/** The campaign and figures of a campaign's process; null for any other process. */
export function campaignProcessOf(process: Pick<TProcess, 'kind' | 'message'>): TCampaignProcessParams | null {
  if (process.kind !== CAMPAIGN_PROCESS_KIND) return null;
  const parsed = ZCampaignProcessParams.safeParse(process.message?.params);
  return parsed.success ? parsed.data : null;
}

/** Hours a cap's window may span: an hour to a year. */
export const CAMPAIGN_CAP_MAX_HOURS = 8784;
export const DEFAULT_CAMPAIGN_CAP_HOURS = 24;

/**
 * The team's frequency cap: a phone gets at most `messages` campaign messages (any campaign of the
 * team) in `hours` hours; `messages` null: no cap (the default). A message over it is skipped at
 * send time, uncharged, and counted as `capped`.
 */
export const ZCampaignFrequencyCap = z.object({
  messages: z.number().int().min(1).max(1000).nullable(),
  hours: z.number().int().min(1).max(CAMPAIGN_CAP_MAX_HOURS),
});
export type TCampaignFrequencyCap = z.infer<typeof ZCampaignFrequencyCap>;
