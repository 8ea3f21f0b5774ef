import type { TCampaign, TCampaignStep } from '@herald/shared/campaigns/campaigns.schemas';
import { instantToZoned } from '@herald/shared/campaigns/zoned-time';
import { decodeMessage } from '@herald/shared/common/messages';
import type { CampaignStepRow } from './campaign-steps.repository.ts';
import type { CampaignRow } from './campaigns.repository.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const reason = (text: string | null) => (text === null ? null : decodeMessage(text));

/** A campaign row as the API answers it. */
export function toCampaign(r: CampaignRow): TCampaign {
  return {
    id: Number(r.id),
    name: r.name,
    status: r.status,
    user_id: r.user_id === null ? null : Number(r.user_id),
    launched_by: r.launched_by === null ? null : Number(r.launched_by),
    gateway_id: r.gateway_id === null ? null : Number(r.gateway_id),
    gateway_name: r.gateway_name,
    sender: r.sender,
    timezone: r.timezone,
    start_at: iso(r.start_at),
    start_at_local: r.start_at === null ? null : instantToZoned(new Date(r.start_at), r.timezone),
    frequency_per_minute: r.frequency_per_minute,
    quiet_hours: r.quiet_hours,
    quiet_from: r.quiet_from.slice(0, 5),
    quiet_to: r.quiet_to.slice(0, 5),
    skip_invalid_phones: r.skip_invalid_phones,
    paused_reason: reason(r.paused_reason),
    failed_reason: reason(r.failed_reason),
    started_at: iso(r.started_at),
    completed_at: iso(r.completed_at),
    steps_count: r.steps_count,
    audiences_count: r.audiences_count,
    recipients_count: r.recipients_count,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
    version: r.version,
  };
}

export function toStep(r: CampaignStepRow): TCampaignStep {
  return {
    id: r.id,
    campaign_id: r.campaign_id,
    position: r.position,
    name: `Step ${r.position}`,
    type: r.type,
    status: r.status,
    message: r.message,
    redirect_to: r.redirect_to,
    short_url_domain_id: r.short_url_domain_id,
    delay_minutes: r.delay_minutes,
    limit_cap: r.limit_cap,
    send_by_minutes: r.send_by_minutes,
    gateway_id: r.gateway_id,
    recipients_count: r.recipients_count,
    started_at: iso(r.started_at),
    completed_at: iso(r.completed_at),
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}
