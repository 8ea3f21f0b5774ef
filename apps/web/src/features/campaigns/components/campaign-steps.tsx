import { canAddStep } from '@herald/shared/campaigns/campaign-moves';
import type { TCampaign } from '@herald/shared/campaigns/campaigns.schemas';
import { Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../../lib/i18n.ts';
import { useCampaignSteps, useCreateCampaignStep } from '../api/campaign-steps.ts';
import { CampaignStepCard, type StepComposerSlot } from './campaign-step-card.tsx';

/** The campaign's steps in order, and Add step while it is a draft. */
export function CampaignSteps({
  campaign,
  composer,
}: {
  campaign: TCampaign;
  composer: (slot: StepComposerSlot) => ReactNode;
}) {
  const { t } = useTranslation('campaigns');
  const steps = useCampaignSteps(campaign.id);
  const create = useCreateCampaignStep();
  const rule = canAddStep({ status: campaign.status, started: campaign.started_at !== null });
  return (
    <Stack gap="sm">
      {steps.data?.map((step) => (
        // Keyed by update time too, so a saved step's form starts from what the server kept.
        <CampaignStepCard key={`${step.id}:${step.updated_at}`} campaign={campaign} step={step} composer={composer} />
      ))}
      {rule.ok ? (
        <Button
          variant="default"
          leftSection={<IconPlus size={16} aria-hidden />}
          loading={create.isPending}
          onClick={() =>
            create.mutate({ campaignId: campaign.id, message: '', delay_minutes: steps.data?.length ? 1440 : 0 })
          }
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
