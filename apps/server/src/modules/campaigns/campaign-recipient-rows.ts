import type { TCampaignRecipient, TRecipientStep } from '@herald/shared/campaigns/campaign-audience.schemas';
import { bucketOf, smsStatusOf } from '@herald/shared/campaigns/campaign-results';
import type { RecipientMessageRow, RecipientRow } from './campaign-audience.repository.ts';

/**
 * Recipients with what each step did for them (decision 038), by the shared bucket rules: a step
 * with no row for a recipient is skipped with the recipient's own reason (the whole campaign skips
 * it) or still queued (the step has not reached it).
 */
export function toRecipients(
  rows: RecipientRow[],
  steps: Array<{ id: number; position: number }>,
  messages: RecipientMessageRow[],
  now: Date,
): TCampaignRecipient[] {
  const byLeadStep = new Map<string, RecipientMessageRow>();
  for (const m of messages) byLeadStep.set(`${m.lead_id}:${m.step_id}`, m);
  return rows.map((r) => {
    const perStep = steps.map((s): TRecipientStep => {
      const m = byLeadStep.get(`${r.lead_id}:${Number(s.id)}`);
      const base = { step_id: Number(s.id), position: s.position, sms_status: null, state: null, sent_at: null };
      if (!m) {
        const skipped = r.skip_reason !== null;
        return { ...base, bucket: skipped ? 'skipped' : 'queued', reason: r.skip_reason, clicked: false, cost: 0 };
      }
      const { bucket, reason } = bucketOf(m, now);
      return {
        ...base,
        bucket,
        reason,
        sms_status: smsStatusOf(m),
        state: m.state,
        sent_at: m.submitted_at === null ? null : new Date(m.submitted_at).toISOString(),
        clicked: m.clicked,
        cost: m.cost,
      };
    });
    return {
      lead_id: r.lead_id,
      phone: r.phone,
      skip_reason: r.skip_reason,
      steps: perStep,
      clicked: perStep.some((s) => s.clicked),
      cost: perStep.reduce((sum, s) => sum + s.cost, 0),
    };
  });
}
