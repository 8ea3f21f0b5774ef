import { canEditStep } from '@herald/shared/campaigns/campaign-moves';
import type { TCampaign, TCampaignStep } from '@herald/shared/campaigns/campaigns.schemas';
import { Anchor, Badge, Group, Progress, Select, Stack, Text } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { translateMessage } from '../../../lib/i18n.ts';
import { useStepLookupGateways } from '../api/get-step-lookup-gateways.ts';
import { CampaignStepFrame, StepDelayInput, useStepDelay, useStepSave } from './campaign-step-frame.tsx';

interface Props {
  campaign: TCampaign;
  /** Id 0: a step not saved yet. */
  step: TCampaignStep;
  /** A new step saved or given up. */
  onDone?: () => void;
}

const LOOKUP_COLORS: Record<number, string> = { 0: 'gray', 1: 'blue', 2: 'yellow', 3: 'green' };

/**
 * A lookup step (decision 041): it sends nothing — it looks the phones of the recipients who reached
 * it up through its gateway, so the SMS steps after it skip invalid and non-mobile ones. Once its
 * turn came it shows its lookup's progress and findings, with the way to the lookups' screen.
 */
export function CampaignLookupStepCard({ campaign, step, onDone }: Props) {
  const { t } = useTranslation('campaigns');
  const { t: tl } = useTranslation('lookups');
  const gateways = useStepLookupGateways();
  const { save: send, saving } = useStepSave(campaign, step, onDone);
  const facts = { status: campaign.status, started: campaign.started_at !== null };
  const editRule = canEditStep(facts, step, ['gateway_id', 'delay_minutes']);
  const first = step.position === 1;
  const delay = useStepDelay(step);
  const [gateway, setGateway] = useState<string | null>(step.gateway_id === null ? null : String(step.gateway_id));
  const offered = (gateways.data ?? []).map((g) => ({ value: String(g.id), label: g.name }));
  // The gateway it holds stays shown even when it no longer allows lookups (saving refuses it).
  if (gateway && !offered.some((o) => o.value === gateway)) offered.unshift({ value: gateway, label: `#${gateway}` });
  const gatewayName = offered.find((o) => o.value === gateway)?.label;
  const lookup = step.lookup ?? null;

  const save = async () => {
    const fields = {
      gateway_id: gateway === null ? null : Number(gateway),
      delay_minutes: delay.minutes,
    };
    // A refusal (a gateway that cannot look up) is shown by the app's mutation handler.
    await send(fields, { type: 'lookup', message: '', ...fields });
  };

  return (
    <CampaignStepFrame
      campaign={campaign}
      step={step}
      testId={`lookup-step-${step.position}`}
      badge={
        <Badge variant="light" color="grape" leftSection={<IconSearch size={12} aria-hidden />}>
          {t('lookupStep.type')}
        </Badge>
      }
      rule={editRule}
      saving={saving}
      onSave={save}
      onDone={onDone}
    >
      <Stack gap="xs">
        <Text size="sm">{gatewayName ? t('lookupStep.through', { gateway: gatewayName }) : t('lookupStep.what')}</Text>
        <Text size="xs" c="dimmed">
          {t('lookupStep.hint')}
        </Text>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            w={260}
            label={t('lookupStep.gateway')}
            placeholder={t('lookupStep.defaultGateway')}
            data={offered}
            value={gateway}
            onChange={setGateway}
            clearable
            disabled={!editRule.ok}
            comboboxProps={{ withinPortal: true }}
          />
          {!first && <StepDelayInput delay={delay} disabled={!editRule.ok} w={140} />}
        </Group>
        {lookup && (
          <Stack gap={4} data-testid="lookup-step-progress">
            <Group gap="xs">
              <Badge color={LOOKUP_COLORS[lookup.status] ?? 'gray'} variant="light">
                {tl(`status.${lookup.status}`)}
              </Badge>
              <Text size="sm">{t('lookupStep.done', { done: lookup.done, phones: lookup.phones })}</Text>
              {lookup.reason && (
                <Text size="xs" c="red">
                  {translateMessage({ code: lookup.reason as never })}
                </Text>
              )}
            </Group>
            <Progress value={lookup.phones > 0 ? (lookup.done * 100) / lookup.phones : 0} size="sm" />
            <Group gap="md">
              <Text size="sm">{t('lookupStep.invalid', { count: lookup.invalid })}</Text>
              <Text size="sm">{t('lookupStep.notMobile', { count: lookup.not_mobile })}</Text>
              <Anchor component={Link} to="/lookup-management" size="sm">
                {t('lookupStep.open')}
              </Anchor>
            </Group>
          </Stack>
        )}
      </Stack>
    </CampaignStepFrame>
  );
}
