import { canEditCampaign, type TCampaignField } from '@herald/shared/campaigns/campaign-moves';
import type { TCampaign, TUpdateCampaignRequest } from '@herald/shared/campaigns/campaigns.schemas';
import { Button, Group, NumberInput, Select, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../../lib/i18n.ts';
import { type AlphaNameOption, type SendingGatewayOption, senderAfterGateway } from '../campaign-senders.ts';
import { CampaignSenderSelect } from './campaign-sender-select.tsx';
import { CampaignStartField, defaultStartIn } from './campaign-start-field.tsx';

interface Props {
  campaign: TCampaign;
  /** Active gateways that send, each with its own sender. */
  gateways: SendingGatewayOption[];
  /** The team's active alpha names. */
  alphaNames: AlphaNameOption[];
  /** `config/general`'s `timezones_js`. */
  timezones: string[];
  saving: boolean;
  onSave: (patch: TUpdateCampaignRequest) => Promise<unknown>;
}

type Form = Pick<
  TCampaign,
  | 'name'
  | 'sender'
  | 'timezone'
  | 'frequency_per_minute'
  | 'quiet_hours'
  | 'quiet_from'
  | 'quiet_to'
  | 'skip_invalid_phones'
> & { gateway_id: string | null; start_at: string };

const formOf = (c: TCampaign): Form => ({
  name: c.name,
  gateway_id: c.gateway_id === null ? null : String(c.gateway_id),
  sender: c.sender ?? '',
  timezone: c.timezone,
  start_at: c.start_at_local ?? defaultStartIn(c.timezone),
  frequency_per_minute: c.frequency_per_minute,
  quiet_hours: c.quiet_hours,
  quiet_from: c.quiet_from,
  quiet_to: c.quiet_to,
  skip_invalid_phones: c.skip_invalid_phones,
});

/** Name, gateway and sender, start in a time zone, frequency and quiet hours, under the editing rules. */
export function CampaignSettings({ campaign, gateways, alphaNames, timezones, saving, onSave }: Props) {
  const { t } = useTranslation('campaigns');
  const [form, setForm] = useState<Form>(() => formOf(campaign));
  useEffect(() => setForm(formOf(campaign)), [campaign]);
  const facts = { status: campaign.status, started: campaign.started_at !== null };
  const senderEditable = canEditCampaign(facts, 'sender').ok;
  // The campaign's own gateway stays offered when it stopped sending, so the field never reads empty.
  const gatewayOptions = useMemo(
    () =>
      campaign.gateway_id === null || gateways.some((g) => g.value === String(campaign.gateway_id))
        ? gateways
        : [...gateways, { value: String(campaign.gateway_id), label: campaign.gateway_name ?? '', from: null }],
    [gateways, campaign.gateway_id, campaign.gateway_name],
  );
  const gateway = gatewayOptions.find((g) => g.value === form.gateway_id);
  // The list's zones, and the campaign's own (UTC, or an older name of a zone, is not in it).
  const zones = useMemo(
    () => (timezones.includes(campaign.timezone) ? timezones : [campaign.timezone, ...timezones]),
    [timezones, campaign.timezone],
  );
  // One sender and none held: chosen for the user once, as the server does on create; a user who
  // clears it afterwards means the gateway's own.
  const autoFilled = useRef(false);
  useEffect(() => {
    if (autoFilled.current || !senderEditable || campaign.sender !== null || form.gateway_id === null) return;
    const auto = senderAfterGateway('', gateway, alphaNames);
    if (!auto) return;
    autoFilled.current = true;
    setForm((f) => (f.sender === '' ? { ...f, sender: auto } : f));
  }, [campaign.sender, form.gateway_id, gateway, alphaNames, senderEditable]);
  // A field the rules refuse is disabled and says why.
  const rule = (field: TCampaignField) => {
    const answer = canEditCampaign(facts, field);
    return answer.ok ? {} : { disabled: true, description: translateMessage({ code: answer.code }) };
  };
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  // Only what changed goes: a started campaign refuses even an unchanged gateway or start.
  const save = () => {
    const before = formOf(campaign);
    const patch: Record<string, unknown> = { version: campaign.version };
    for (const key of Object.keys(form) as (keyof Form)[]) {
      if (form[key] === before[key]) continue;
      const value = form[key];
      patch[key] = key === 'gateway_id' ? (value === null ? null : Number(value)) : value === '' ? null : value;
    }
    return onSave(patch as TUpdateCampaignRequest);
  };
  const editable = canEditCampaign(facts).ok;

  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label={t('name')}
          value={form.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          {...rule('name')}
        />
        <Select
          label={t('gateway')}
          data={gatewayOptions.map(({ value, label }) => ({ value, label }))}
          value={form.gateway_id}
          onChange={(v) =>
            // A sender of the old gateway (its number) does not go with another: the server refuses it.
            setForm((f) => ({
              ...f,
              gateway_id: v,
              sender: senderAfterGateway(
                f.sender ?? '',
                gatewayOptions.find((g) => g.value === v),
                alphaNames,
              ),
            }))
          }
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          {...rule('gateway_id')}
        />
        <CampaignSenderSelect
          gateway={gateway}
          names={alphaNames}
          value={form.sender ?? ''}
          onChange={(v) => set('sender', v)}
          {...rule('sender')}
        />
        <Select
          label={t('timezone')}
          data={zones}
          searchable
          value={form.timezone}
          onChange={(v) => v && set('timezone', v)}
          comboboxProps={{ withinPortal: true }}
          {...rule('timezone')}
        />
        <CampaignStartField
          value={form.start_at}
          timezone={form.timezone}
          onChange={(v) => set('start_at', v)}
          {...rule('start_at')}
        />
        <NumberInput
          label={t('frequency')}
          min={1}
          value={form.frequency_per_minute}
          onChange={(v) => set('frequency_per_minute', Number(v) || 1)}
          {...rule('frequency_per_minute')}
        />
      </SimpleGrid>
      <Group mt="sm" align="flex-end" gap="sm">
        <Switch
          label={t('quietHours')}
          checked={form.quiet_hours}
          onChange={(e) => set('quiet_hours', e.currentTarget.checked)}
          disabled={!editable}
        />
        {form.quiet_hours && (
          <>
            <TextInput
              w={90}
              label={t('quietFrom')}
              value={form.quiet_from}
              onChange={(e) => set('quiet_from', e.currentTarget.value)}
              disabled={!editable}
            />
            <TextInput
              w={90}
              label={t('quietTo')}
              value={form.quiet_to}
              onChange={(e) => set('quiet_to', e.currentTarget.value)}
              disabled={!editable}
            />
          </>
        )}
      </Group>
      {/* Phones a lookup found invalid or not mobile are left out, uncharged (decision 041). */}
      <Switch
        mt="sm"
        label={t('skipInvalidPhones')}
        description={t('skipInvalidPhonesHint')}
        checked={form.skip_invalid_phones}
        onChange={(e) => set('skip_invalid_phones', e.currentTarget.checked)}
        {...rule('skip_invalid_phones')}
      />
      <Group justify="flex-end" mt="md">
        <Button onClick={save} loading={saving} disabled={!editable}>
          {t('save')}
        </Button>
      </Group>
    </>
  );
}
