import { canAddStep } from '@herald/shared/campaigns/campaign-moves';
import type { TCampaign, TCampaignStep, TCampaignStepType } from '@herald/shared/campaigns/campaigns.schemas';
import { Button, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../../lib/i18n.ts';
import { useCampaignSteps } from '../api/campaign-steps.ts';
import { CampaignStepCard, type StepComposerSlot } from './campaign-step-card.tsx';

/** A step as the form starts it: the first sends at the start, a later one a day after the previous. */
function newStep(campaignId: number, position: number, type: TCampaignStepType): TCampaignStep {
  return {
    id: 0,
    campaign_id: campaignId,
    position,
    name: '',
    type,
    gateway_id: null,
    lookup: null,
    status: 'not_sent',
    message: '',
    redirect_to: null,
    short_url_domain_id: null,
    delay_minutes: position === 1 ? 0 : 1440,
    limit_cap: null,
    send_by_minutes: null,
    recipients_count: 0,
    started_at: null,
    completed_at: null,
    created_at: '',
    updated_at: '',
  };
}

/** The campaign's steps in order, and Add step while it is a draft. */
export function CampaignSteps({
  campaign,
  composer,
  domains = [],
}: {
  campaign: TCampaign;
  composer: (slot: StepComposerSlot) => ReactNode;
  /** The team's verified, enabled short-URL domains. */
  domains?: { value: string; label: string }[];
}) {
  const { t } = useTranslation('campaigns');
  const steps = useCampaignSteps(campaign.id, ['processing', 'active'].includes(campaign.status));
  const [adding, setAdding] = useState(false);
  // A new step sends an SMS, or looks the recipients' phones up (decision 041).
  const [type, setType] = useState<TCampaignStepType>('sms');
  const rule = canAddStep({ status: campaign.status, started: campaign.started_at !== null });
  return (
    <Stack gap="sm">
      {steps.data?.map((step) => (
        // Keyed by update time too, so a saved step's form starts from what the server kept.
        <CampaignStepCard
          key={`${step.id}:${step.updated_at}`}
          campaign={campaign}
          step={step}
          composer={composer}
          domains={domains}
        />
      ))}
      {adding && steps.data && (
        <SegmentedControl
          aria-label={t('lookupStep.choose')}
          value={type}
          onChange={(v) => setType(v as TCampaignStepType)}
          data={[
            { value: 'sms', label: t('lookupStep.sms') },
            { value: 'lookup', label: t('lookupStep.type') },
          ]}
          style={{ alignSelf: 'flex-start' }}
        />
      )}
      {adding && steps.data && (
        <CampaignStepCard
          key={type}
          campaign={campaign}
          step={newStep(campaign.id, steps.data.length + 1, type)}
          composer={composer}
          domains={domains}
          onDone={() => {
            setAdding(false);
            setType('sms');
          }}
        />
      )}
      {rule.ok ? (
        <Button
          variant="default"
          leftSection={<IconPlus size={16} aria-hidden />}
          disabled={adding}
          onClick={() => setAdding(true)}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('addStep')}
        </Button>
      ) : (
        <Text size="xs" c="dimmed">
          {translateMessage({ code: rule.code })}
        </Text>
      )}
    </Stack>
  );
}
