import { campaignExportLabels } from '@herald/shared/campaigns/campaign-audience-export';
import type { TExportLanguage } from '@herald/shared/segments/export-labels';
import type { CampaignAudienceRepository } from './campaign-audience.repository.ts';
import type { CampaignStepsRepository } from './campaign-steps.repository.ts';
import type { CampaignsRepository } from './campaigns.repository.ts';
import { notFound } from './campaigns.service.ts';
import { toRecipients } from './campaign-recipient-rows.ts';

/** What the exports' runner (segments module) asks of a campaign to write its audience file. */
export interface CampaignExportSource {
  /** 404 for another team's campaign. */
  require(teamId: number, campaignId: number): Promise<void>;
  plan(
    teamId: number,
    campaignId: number,
    args: { search?: string; language?: TExportLanguage },
  ): Promise<{
    header: string[];
    total: number;
    /** The next recipients after lead `after`, as cells; `last` is the batch's last lead id. */
    batch(after: number, limit: number): Promise<{ rows: string[][]; count: number; last: number }>;
  }>;
}

/**
 * The campaign audience as a file (decision 038): per recipient the lead, the phone, and per step
 * its status (the same bucket as the tab), when the gateway took it, and whether a human clicked;
 * then the cost, as a decimal of the balance currency.
 */
export function createCampaignExportSource(deps: {
  repo: CampaignsRepository;
  steps: CampaignStepsRepository;
  audience: CampaignAudienceRepository;
}): CampaignExportSource {
  return {
    async require(teamId, campaignId) {
      if (!(await deps.repo.find(teamId, campaignId))) throw notFound();
    },
    async plan(teamId, campaignId, { search, language }) {
      const labels = campaignExportLabels(language);
      const steps = (await deps.steps.ofCampaign(teamId, campaignId)).map((s) => ({
        id: Number(s.id),
        position: s.position,
      }));
      const header = [
        labels.lead,
        labels.phone,
        ...steps.flatMap((s) => [labels.status(s.position), labels.sentAt(s.position), labels.clicked(s.position)]),
        labels.cost,
      ];
      const total = await deps.audience.count(teamId, campaignId, search);
      return {
        header,
        total,
        async batch(after, limit) {
          const rows = await deps.audience.after(teamId, campaignId, { after, limit, search });
          if (rows.length === 0) return { rows: [], count: 0, last: after };
          const messages = await deps.audience.messagesOf(
            teamId,
            campaignId,
            rows.map((r) => r.lead_id),
          );
          const recipients = toRecipients(rows, steps, messages, new Date());
          const cells = recipients.map((r) => [
            String(r.lead_id),
            r.phone ?? '',
            ...r.steps.flatMap((s) => [
              labels.buckets[s.bucket] + (s.reason ? ` (${s.reason})` : ''),
              s.sent_at ? s.sent_at.slice(0, 19).replace('T', ' ') : '',
              s.clicked ? labels.yes : labels.no,
            ]),
            (r.cost / 100).toFixed(2),
          ]);
          return { rows: cells, count: cells.length, last: rows[rows.length - 1].lead_id };
        },
      };
    },
  };
}
