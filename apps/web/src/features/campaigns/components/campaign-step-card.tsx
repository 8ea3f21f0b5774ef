import { canDeleteStep, canEditStep } from '@herald/shared/campaigns/campaign-moves';
import {
  DELAY_UNITS,
  delayParts,
  type TCampaign,
  type TCampaignStep,
  type TDelayUnit,
} from '@herald/shared/campaigns/campaigns.schemas';
import { Button, Group, NumberInput, Paper, Select, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../../lib/i18n.ts';
import { useCreateCampaignStep, useDeleteCampaignStep, useUpdateCampaignStep } from '../api/campaign-steps.ts';
import { CampaignLookupStepCard } from './campaign-lookup-step-card.tsx';

/** What the page's composer (the shared live counter, templates, placeholders) edits. */
export interface StepComposerSlot {
  value: string;
  onChange: (value: string) => void;
  redirectTo: string;
  onRedirectTo: (value: string) => void;
  disabled: boolean;
}

interface Props {
  campaign: TCampaign;
  /** Id 0: a step not saved yet (the server takes a step only with its message). */
  step: TCampaignStep;
  composer: (slot: StepComposerSlot) => ReactNode;
  /** The team's verified, enabled short-URL domains a `{{link}}` may go out on. */
  domains: { value: string; label: string }[];
  /** A new step saved or given up. */
  onDone?: () => void;
}

/** The default domain (the app's own host) in the domain picker. */
const DEFAULT_DOMAIN = 'default';

const hasLink = (message: string) => /\{\{\s*link\s*\}\}/i.test(message);

/** One step: an SMS step's card, or a lookup step's. */
export function CampaignStepCard(props: Props) {
  return props.step.type === 'lookup' ? (
    <CampaignLookupStepCard campaign={props.campaign} step={props.step} onDone={props.onDone} />
  ) : (
    <SmsStepCard {...props} />
  );
}

/** An SMS step: message, link target, delay (not for the first), limit cap and send-by deadline. */
function SmsStepCard({ campaign, step, composer, domains, onDone }: Props) {
  const { t } = useTranslation('campaigns');
  const update = useUpdateCampaignStep();
  const create = useCreateCampaignStep();
  const isNew = step.id === 0;
  const remove = useDeleteCampaignStep();
  const facts = { status: campaign.status, started: campaign.started_at !== null };
  const initialDelay = delayParts(step.delay_minutes);
  const [message, setMessage] = useState(step.message);
  const [redirectTo, setRedirectTo] = useState(step.redirect_to ?? '');
  const [domainId, setDomainId] = useState(
    step.short_url_domain_id === null ? DEFAULT_DOMAIN : String(step.short_url_domain_id),
  );
  // A domain the step holds that is no longer verified or enabled is shown as such: saving refuses it.
  const domainOptions = [
    { value: DEFAULT_DOMAIN, label: t('shortDomainDefault') },
    ...domains,
    ...(domainId === DEFAULT_DOMAIN || domains.some((d) => d.value === domainId)
      ? []
      : [{ value: domainId, label: t('shortDomainUnusable') }]),
  ];
  const [delay, setDelay] = useState(initialDelay.value);
  const [unit, setUnit] = useState<TDelayUnit>(initialDelay.unit);
  const [limitCap, setLimitCap] = useState<number | ''>(step.limit_cap ?? '');
  const [sendBy, setSendBy] = useState<number | ''>(step.send_by_minutes ?? '');
  const editRule = canEditStep(facts, step, ['message', 'delay_minutes', 'limit_cap']);
  const messageRule = canEditStep(facts, step, ['message', 'redirect_to', 'send_by_minutes']);
  const deleteRule = canDeleteStep(facts);
  const first = step.position === 1;

  const save = async () => {
    const full = editRule.ok;
    const fields = {
      message,
      redirect_to: hasLink(message) && redirectTo.trim() ? redirectTo.trim() : null,
      short_url_domain_id: hasLink(message) && domainId !== DEFAULT_DOMAIN ? Number(domainId) : null,
      send_by_minutes: sendBy === '' ? null : sendBy,
      ...(full && {
        delay_minutes: first ? 0 : delay * DELAY_UNITS[unit],
        limit_cap: limitCap === '' ? null : limitCap,
      }),
    };
    if (isNew) {
      await create.mutateAsync({ campaignId: campaign.id, ...fields, delay_minutes: fields.delay_minutes ?? 0 });
      onDone?.();
    } else await update.mutateAsync({ id: step.id, ...fields });
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="xs">
        <Title order={4}>{t('step', { position: step.position })}</Title>
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
      {composer({
        value: message,
        onChange: setMessage,
        redirectTo,
        onRedirectTo: setRedirectTo,
        disabled: !messageRule.ok,
      })}
      {hasLink(message) && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="xs">
          <TextInput
            label={t('redirectTo', { link: '{{link}}' })}
            placeholder="https://"
            value={redirectTo}
            onChange={(e) => setRedirectTo(e.currentTarget.value)}
            disabled={!messageRule.ok}
          />
          <Select
            label={t('shortDomain')}
            data={domainOptions}
            value={domainId}
            onChange={(v) => v && setDomainId(v)}
            allowDeselect={false}
            disabled={!messageRule.ok}
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" mt="xs">
        {!first && (
          <Group gap={4} align="flex-end" wrap="nowrap">
            <NumberInput
              label={t('delay')}
              min={0}
              value={delay}
              onChange={(v) => setDelay(Number(v) || 0)}
              disabled={!editRule.ok}
              style={{ flex: 1 }}
            />
            <Select
              w={110}
              aria-label={t('delay')}
              data={(Object.keys(DELAY_UNITS) as TDelayUnit[]).map((u) => ({ value: u, label: t(`delayUnit.${u}`) }))}
              value={unit}
              onChange={(v) => v && setUnit(v as TDelayUnit)}
              allowDeselect={false}
              disabled={!editRule.ok}
              comboboxProps={{ withinPortal: true }}
            />
          </Group>
        )}
        <NumberInput
          label={t('limitCap')}
          min={1}
          value={limitCap}
          onChange={(v) => setLimitCap(v === '' ? '' : Number(v))}
          disabled={!editRule.ok}
        />
        <NumberInput
          label={t('sendBy')}
          min={1}
          value={sendBy}
          onChange={(v) => setSendBy(v === '' ? '' : Number(v))}
          disabled={!messageRule.ok}
        />
      </SimpleGrid>
      <Group justify="space-between" mt="sm">
        <Text size="xs" c="dimmed">
          {messageRule.ok ? '' : translateMessage({ code: messageRule.code })}
        </Text>
        <Button
          size="sm"
          variant="light"
          onClick={save}
          loading={update.isPending || create.isPending}
          disabled={!messageRule.ok}
        >
          {t('save')}
        </Button>
      </Group>
    </Paper>
  );
}
