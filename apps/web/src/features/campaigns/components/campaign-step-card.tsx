import { canEditStep } from '@herald/shared/campaigns/campaign-moves';
import type { TCampaign, TCampaignStep } from '@herald/shared/campaigns/campaigns.schemas';
import { NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CampaignLookupStepCard } from './campaign-lookup-step-card.tsx';
import { CampaignStepFrame, StepDelayInput, useStepDelay, useStepSave } from './campaign-step-frame.tsx';

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
  const { save: send, saving } = useStepSave(campaign, step, onDone);
  const facts = { status: campaign.status, started: campaign.started_at !== null };
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
  const delay = useStepDelay(step);
  const [limitCap, setLimitCap] = useState<number | ''>(step.limit_cap ?? '');
  const [sendBy, setSendBy] = useState<number | ''>(step.send_by_minutes ?? '');
  const editRule = canEditStep(facts, step, ['message', 'delay_minutes', 'limit_cap']);
  const messageRule = canEditStep(facts, step, ['message', 'redirect_to', 'send_by_minutes']);
  const first = step.position === 1;

  const save = async () => {
    const full = editRule.ok;
    const fields = {
      message,
      redirect_to: hasLink(message) && redirectTo.trim() ? redirectTo.trim() : null,
      short_url_domain_id: hasLink(message) && domainId !== DEFAULT_DOMAIN ? Number(domainId) : null,
      send_by_minutes: sendBy === '' ? null : sendBy,
      ...(full && {
        delay_minutes: delay.minutes,
        limit_cap: limitCap === '' ? null : limitCap,
      }),
    };
    await send(fields, { ...fields, delay_minutes: fields.delay_minutes ?? 0 });
  };

  return (
    <CampaignStepFrame campaign={campaign} step={step} rule={messageRule} saving={saving} onSave={save} onDone={onDone}>
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
        {!first && <StepDelayInput delay={delay} disabled={!editRule.ok} />}
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
    </CampaignStepFrame>
  );
}
