import { canDeleteStep, canEditStep } from '@herald/shared/campaigns/campaign-moves';
import {
  DELAY_UNITS,
  delayParts,
  type TCampaign,
  type TCampaignStep,
  type TDelayUnit,
} from '@herald/shared/campaigns/campaigns.schemas';
import { Anchor, Badge, Button, Group, NumberInput, Paper, Progress, Select, Stack, Text, Title } from '@mantine/core';
import { IconSearch, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { translateMessage } from '../../../lib/i18n.ts';
import { useStepLookupGateways } from '../api/get-step-lookup-gateways.ts';
import { useCreateCampaignStep, useDeleteCampaignStep, useUpdateCampaignStep } from '../api/campaign-steps.ts';

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
  const update = useUpdateCampaignStep();
  const create = useCreateCampaignStep();
  const remove = useDeleteCampaignStep();
  const isNew = step.id === 0;
  const facts = { status: campaign.status, started: campaign.started_at !== null };
  const editRule = canEditStep(facts, step, ['gateway_id', 'delay_minutes']);
  const deleteRule = canDeleteStep(facts);
  const first = step.position === 1;
  const initialDelay = delayParts(step.delay_minutes);
  const [delay, setDelay] = useState(initialDelay.value);
  const [unit, setUnit] = useState<TDelayUnit>(initialDelay.unit);
  const [gateway, setGateway] = useState<string | null>(step.gateway_id === null ? null : String(step.gateway_id));
  const offered = (gateways.data ?? []).map((g) => ({ value: String(g.id), label: g.name }));
  // The gateway it holds stays shown even when it no longer allows lookups (saving refuses it).
  if (gateway && !offered.some((o) => o.value === gateway)) offered.unshift({ value: gateway, label: `#${gateway}` });
  const gatewayName = offered.find((o) => o.value === gateway)?.label;
  const lookup = step.lookup ?? null;

  const save = async () => {
    const fields = {
      gateway_id: gateway === null ? null : Number(gateway),
      delay_minutes: first ? 0 : delay * DELAY_UNITS[unit],
    };
    // A refusal (a gateway that cannot look up) is shown by the app's mutation handler.
    if (isNew) {
      await create.mutateAsync({ campaignId: campaign.id, type: 'lookup', message: '', ...fields });
      onDone?.();
    } else await update.mutateAsync({ id: step.id, ...fields });
  };

  return (
    <Paper withBorder radius="md" p="md" data-testid={`lookup-step-${step.position}`}>
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Title order={4}>{t('step', { position: step.position })}</Title>
          <Badge variant="light" color="grape" leftSection={<IconSearch size={12} aria-hidden />}>
            {t('lookupStep.type')}
          </Badge>
        </Group>
        {deleteRule.ok && (
          <Button
            size="xs"
            color="red"
            variant="subtle"
            leftSection={<IconTrash size={14} aria-hidden />}
            loading={remove.isPending}
            onClick={() => (isNew ? onDone?.() : remove.mutate(step.id))}
          >
            {t('deleteStep')}
          </Button>
        )}
      </Group>
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
          {!first && (
            <Group gap={4} align="flex-end" wrap="nowrap">
              <NumberInput
                w={140}
                label={t('delay')}
                min={0}
                value={delay}
                onChange={(v) => setDelay(Number(v) || 0)}
                disabled={!editRule.ok}
              />
              <Select
                w={110}
                aria-label={t('delay')}
                data={(Object.keys(DELAY_UNITS) as TDelayUnit[]).map((u) => ({
                  value: u,
                  label: t(`delayUnit.${u}`),
                }))}
                value={unit}
                onChange={(v) => v && setUnit(v as TDelayUnit)}
                allowDeselect={false}
                disabled={!editRule.ok}
                comboboxProps={{ withinPortal: true }}
              />
            </Group>
          )}
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
      <Group justify="space-between" mt="sm">
        <Text size="xs" c="dimmed">
          {editRule.ok ? '' : translateMessage({ code: editRule.code })}
        </Text>
        <Button
          size="sm"
          variant="light"
          onClick={save}
          loading={update.isPending || create.isPending}
          disabled={!editRule.ok}
        >
          {t('save')}
        </Button>
      </Group>
    </Paper>
  );
}
