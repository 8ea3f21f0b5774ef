import { canTestCampaign } from '@herald/shared/campaigns/campaign-moves';
import type { TCampaignTestRequest, TCampaignTestResponse } from '@herald/shared/campaigns/campaign-test.schemas';
import { englishOf, message, type TMessageCode } from '@herald/shared/common/messages';
import { LINK_TAG, renderMessage, UNSUBSCRIBE_TAG } from '@herald/shared/templates/render';
import type { AuthUser } from '../../auth/authenticate.ts';
import { AppError } from '../../http/app-error.ts';
import { appendCampaignLog } from './campaign-logs.repository.ts';
import type { AudienceSql } from './campaign-recipients.repository.ts';
import { sampleLeadValues } from './campaign-sample-lead.repository.ts';
import type { CampaignStepsRepository } from './campaign-steps.repository.ts';
import type { CampaignsDeps } from './campaigns.deps.ts';
import type { CampaignsRepository } from './campaigns.repository.ts';
import { notFound } from './campaigns.service.ts';

/**
 * The test campaign (spec sections 2 and 7, decision 033): every step of the campaign, at once, to
 * one phone the user types, rendered for a sample lead of the audience, each sent and charged as the
 * user's own single SMS (the messages module's send path: its phone checks, its charge code, live
 * links). Only draft, scheduled and paused campaigns are tested (`canTestCampaign`).
 */
export function createCampaignTestSend(
  deps: Pick<CampaignsDeps, 'db' | 'singleSms'> & {
    repo: CampaignsRepository;
    steps: CampaignStepsRepository;
    audienceOf(teamId: number, campaignId: number): Promise<AudienceSql>;
  },
) {
  const { db, repo, steps } = deps;
  return {
    async send(
      user: AuthUser,
      campaignId: number,
      input: TCampaignTestRequest,
      clientKey: string | null,
    ): Promise<TCampaignTestResponse> {
      const c = await repo.find(user.teamId, campaignId);
      if (!c) throw notFound();
      const rule = canTestCampaign({ status: c.status, started: c.started_at !== null });
      if (!rule.ok) throw new AppError('conflict', message(rule.code));
      const list = (await steps.ofCampaign(user.teamId, campaignId)).filter((s) => s.message.trim() !== '');
      if (list.length === 0) throw AppError.field('phone', 'campaign_steps_required');
      const sample = await sampleLeadValues(db, campaignId, await deps.audienceOf(user.teamId, campaignId));
      const sent: TCampaignTestResponse['data'] = [];
      for (const step of list) {
        // The lead's values now; the links stay tags, made by the send path for this very message.
        const text = renderMessage(step.message, {
          attributes: sample?.attributes ?? {},
          link: `{{${LINK_TAG}}}`,
          unsubscribe: `{{${UNSUBSCRIBE_TAG}}}`,
        });
        const answer = await deps.singleSms(
          user,
          {
            phone: input.phone,
            message: text,
            redirect_to: step.redirect_to,
            gateway_id: c.gateway_id === null ? null : Number(c.gateway_id),
            from: c.sender,
          },
          // A retried request with its key answers what the first one sent, and sends nothing.
          clientKey ? `${clientKey}:${step.id}` : null,
        );
        sent.push(answer.data);
      }
      // The campaign's log tells who tested it and on which phone (its messages are the user's own).
      await appendCampaignLog(db, {
        campaignId,
        teamId: user.teamId,
        userId: user.id,
        type: 'campaign_test_sent',
        data: { attributes: [{ name: 'phone', value_to: sent[0]?.phone ?? input.phone }] },
      });
      const code: TMessageCode = sent.every((m) => m.state === 'submitted') ? 'sms_sent' : 'sms_send_unknown';
      return { message: englishOf({ code }), code, data: sent };
    },
  };
}

export type CampaignTestSend = ReturnType<typeof createCampaignTestSend>;
