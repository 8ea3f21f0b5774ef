import { canDeleteStep, type TRuleAnswer } from '@herald/shared/campaigns/campaign-moves';
import {
  DELAY_UNITS,
  delayParts,
  type TCampaign,
  type TCampaignStep,
  type TCreateCampaignStepRequest,
  type TDelayUnit,
  type TUpdateCampaignStepRequest,
} from '@herald/shared/campaigns/campaigns.schemas';
import { Button, Group, NumberInput, Paper, Select, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../../lib/i18n.ts';
import { useCreateCampaignStep, useDeleteCampaignStep, useUpdateCampaignStep } from '../api/campaign-steps.ts';

interface FrameProps {
  campaign: TCampaign;
  /** Id 0: a step not saved yet (deleting it only gives it up). */
  step: TCampaignStep;
  /** Beside the step's title: what kind of step it is, when not an SMS one. */
  badge?: ReactNode;
  /** Whether the step's fields can be saved now; a refusal is told beside the save button. */
  rule: TRuleAnswer;
  saving: boolean;
  onSave: () => void;
  /** A new step saved or given up. */
  onDone?: () => void;
  testId?: string;
  children: ReactNode;
}

/**
 * What every step's card has, whatever its type: the title with its position, deleting it (a draft's
 * only), and saving it with the reason it cannot be saved now.
 */
export function CampaignStepFrame({
  campaign,
  step,
  badge,
  rule,
  saving,
  onSave,
  onDone,
  testId,
  children,
}: FrameProps) {
  const { t } = useTranslation('campaigns');
  const remove = useDeleteCampaignStep();
  const deleteRule = canDeleteStep({ status: campaign.status, started: campaign.started_at !== null });
  const title = <Title order={4}>{t('step', { position: step.position })}</Title>;

  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Group justify="space-between" mb="xs">
        {badge ? (
          <Group gap="xs">
            {title}
            {badge}
          </Group>
        ) : (
          title
        )}
        {deleteRule.ok && (
          <Button
            size="xs"
            color="red"
            variant="subtle"
            leftSection={<IconTrash size={14} aria-hidden />}
            loading={remove.isPending}
            onClick={() => (step.id === 0 ? onDone?.() : remove.mutate(step.id))}
          >
            {t('deleteStep')}
          </Button>
        )}
      </Group>
      {children}
      <Group justify="space-between" mt="sm">
        <Text size="xs" c="dimmed">
          {rule.ok ? '' : translateMessage({ code: rule.code })}
        </Text>
        <Button size="sm" variant="light" onClick={onSave} loading={saving} disabled={!rule.ok}>
          {t('save')}
        </Button>
      </Group>
    </Paper>
  );
}

/** Saving a step: a new one (id 0) is made and handed back to the list (`onDone`); a saved one is updated. */
export function useStepSave(campaign: TCampaign, step: TCampaignStep, onDone?: () => void) {
  const update = useUpdateCampaignStep();
  const create = useCreateCampaignStep();
  return {
    saving: update.isPending || create.isPending,
    /** `fields`: what a saved step's update sends; `created`: what a new step is made with. */
    async save(fields: TUpdateCampaignStepRequest, created: TCreateCampaignStepRequest) {
      if (step.id === 0) {
        await create.mutateAsync({ campaignId: campaign.id, ...created });
        onDone?.();
      } else await update.mutateAsync({ id: step.id, ...fields });
    },
  };
}

/** A step's delay after the previous one, as a number and a unit; the first step has none (0 minutes). */
export function useStepDelay(step: TCampaignStep) {
  const initial = delayParts(step.delay_minutes);
  const [value, setValue] = useState(initial.value);
  const [unit, setUnit] = useState<TDelayUnit>(initial.unit);
  return { value, setValue, unit, setUnit, minutes: step.position === 1 ? 0 : value * DELAY_UNITS[unit] };
}

interface DelayProps {
  delay: ReturnType<typeof useStepDelay>;
  disabled: boolean;
  /** The number's width; without it, the number takes the room its row leaves. */
  w?: number;
}

/** The delay's number and unit, side by side. */
export function StepDelayInput({ delay, disabled, w }: DelayProps) {
  const { t } = useTranslation('campaigns');
  return (
    <Group gap={4} align="flex-end" wrap="nowrap">
      <NumberInput
        w={w}
        label={t('delay')}
        min={0}
        value={delay.value}
        onChange={(v) => delay.setValue(Number(v) || 0)}
        disabled={disabled}
        style={w === undefined ? { flex: 1 } : undefined}
      />
      <Select
        w={110}
        aria-label={t('delay')}
        data={(Object.keys(DELAY_UNITS) as TDelayUnit[]).map((u) => ({ value: u, label: t(`delayUnit.${u}`) }))}
        value={delay.unit}
        onChange={(v) => v && delay.setUnit(v as TDelayUnit)}
        allowDeselect={false}
        disabled={disabled}
        comboboxProps={{ withinPortal: true }}
      />
    </Group>
  );
}
