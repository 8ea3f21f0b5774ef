import type { TLead } from '@herald/shared/leads/leads.schemas';
import { Alert, Button, Group, Modal, SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { describeApiError } from '../../../lib/describe-api-error.ts';
import { translateMessage } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useLeadSearch, useSenderNames, useSendingGateways } from '../api/get-sending.ts';
import { useSendSingleSms } from '../api/send-single-sms.ts';
import { PhoneField, type PhoneRuleSettings, readRecipientPhone } from './phone-field.tsx';

/** What the header hands in: the templates' composer (counter, improver, load and save). */
export interface ComposerSlot {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  redirectTo: string;
  onRedirectTo: (value: string) => void;
  /** The chosen lead's values by attribute slug, as its message renders them; none for a typed phone. */
  values?: Readonly<Record<string, string>>;
}

type Field = 'phone' | 'lead_id' | 'message' | 'redirect_to' | 'gateway_id' | 'from';

const phonesOf = (lead: TLead) => lead.lead_values.filter((v) => v.attribute.type === 'phone').map((v) => v.value);

/**
 * What a person calls the lead: its first two text values of the team's own attributes (a first
 * and a last name, as they come in order), since a lead has no name field of its own.
 */
function nameOf(lead: TLead): string {
  return lead.lead_values
    .filter((v) => v.attribute.type === 'string' && v.value.trim())
    .slice(0, 2)
    .map((v) => v.value.trim())
    .join(' ');
}

/** A lead's values by slug, several joined with '; ' as `renderMessage` joins them. */
function valuesOf(lead: TLead): Record<string, string> {
  const values: Record<string, string> = {};
  for (const v of lead.lead_values) {
    const slug = v.attribute.slug.toLowerCase();
    values[slug] = slug in values ? `${values[slug]}; ${v.value}` : v.value;
  }
  return values;
}

/** Send SMS (spec: header): to a phone or a lead, through a gateway, from an alpha name or a number. */
export function SendSmsModal({
  opened,
  onClose,
  composer,
  phoneRule,
}: {
  opened: boolean;
  onClose: () => void;
  composer: (slot: ComposerSlot) => ReactNode;
  phoneRule?: PhoneRuleSettings;
}) {
  const { t } = useTranslation('messages-sms');
  const gateways = useSendingGateways(opened);
  const senders = useSenderNames(opened);
  const send = useSendSingleSms();
  const [mode, setMode] = useState<'phone' | 'lead'>('phone');
  const [phone, setPhone] = useState('');
  const [leadSearch, setLeadSearch] = useState('');
  const [search] = useDebouncedValue(leadSearch.trim(), 300);
  const leads = useLeadSearch(mode === 'lead' ? search : '');
  const [leadId, setLeadId] = useState<string | null>(null);
  // Kept apart from the search results, which change as the user types on.
  const [lead, setLead] = useState<TLead | null>(null);
  const leadValues = useMemo(() => (lead ? valuesOf(lead) : undefined), [lead]);
  const [message, setMessage] = useState('');
  const [redirectTo, setRedirectTo] = useState('');
  const [gatewayId, setGatewayId] = useState<string | null>(null);
  const [from, setFrom] = useState<string | null>(null);
  // The team's default alpha name is the sender until the user picks another (the server's rule too).
  const [fromChosen, setFromChosen] = useState(false);
  const defaultSender = (senders.data ?? []).find((n) => n.default)?.name ?? null;
  useEffect(() => {
    if (opened && !fromChosen && from === null && defaultSender) setFrom(defaultSender);
  }, [opened, fromChosen, from, defaultSender]);
  const chooseFrom = (value: string | null) => {
    setFromChosen(true);
    setFrom(value);
  };
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  // One key per message the user means to send: a retry of the same request reuses it.
  const key = useRef(crypto.randomUUID());
  const hasLink = /\{\{\s*link\s*\}\}/i.test(message);

  useEffect(() => {
    if (!opened) return;
    setErrors({});
    setFailure(null);
    setFromChosen(false);
    key.current = crypto.randomUUID();
  }, [opened]);

  // One gateway (or a default): chosen for the user.
  useEffect(() => {
    const list = gateways.data ?? [];
    if (gatewayId === null && list.length > 0) {
      const pick = list.find((g) => g.default) ?? (list.length === 1 ? list[0] : undefined);
      if (pick) setGatewayId(String(pick.id));
    }
  }, [gateways.data, gatewayId]);

  const leadOptions = (leads.data?.data ?? []).map((lead) => ({
    value: String(lead.id),
    label: [nameOf(lead) || `#${lead.id}`, phonesOf(lead).join(', ') || '—'].join(' · '),
  }));
  const senderOptions = [
    { group: t('alphaNames'), items: (senders.data ?? []).map((n) => ({ value: n.name, label: n.name })) },
  ];

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFailure(null);
    // A number the phone rule refuses stops here, said once under the field.
    if (mode === 'phone' && phoneRule) {
      const reading = readRecipientPhone(phone, phoneRule);
      if (!reading.ok) return setErrors({ phone: t(`phoneReason.${reading.reason}`) });
    }
    if (mode === 'lead' && !leadId) return setErrors({ lead_id: t('leadRequired') });
    send.mutate(
      {
        key: key.current,
        body: {
          phone: mode === 'phone' ? phone.trim() : null,
          lead_id: mode === 'lead' && leadId ? Number(leadId) : null,
          message,
          redirect_to: hasLink ? redirectTo.trim() || null : null,
          gateway_id: gatewayId ? Number(gatewayId) : null,
          from: from || null,
        },
      },
      {
        onSuccess: (answer) => {
          notifySuccess(answer.code === 'sms_send_unknown' ? t('unknown') : t('sent'));
          setMessage('');
          setPhone('');
          setLeadId(null);
          setLead(null);
          onClose();
        },
        onError: (error) => {
          // A refusal is final for this text: the next press is a new message with a new key.
          key.current = crypto.randomUUID();
          if (isApiError(error) && Object.keys(error.errors).length > 0) {
            const shown: Partial<Record<Field, string>> = {};
            for (const [field, list] of Object.entries(error.errors))
              if (list[0]) shown[field as Field] = translateMessage(list[0]) ?? list[0].code;
            setErrors(shown);
            if (
              !Object.keys(shown).some((f) =>
                ['phone', 'lead_id', 'message', 'redirect_to', 'gateway_id', 'from'].includes(f),
              )
            )
              setFailure(describeApiError(error));
            return;
          }
          setFailure(describeApiError(error));
        },
      },
    );
  };

  const noGateways = gateways.isSuccess && gateways.data.length === 0;

  return (
    <Modal opened={opened} onClose={onClose} title={t('title')} size="lg" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          {noGateways && <Alert color="yellow">{t('noGateways')}</Alert>}
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <SegmentedControl
            aria-label={t('recipient')}
            value={mode}
            onChange={(v) => setMode(v as 'phone' | 'lead')}
            data={[
              { value: 'phone', label: t('byPhone') },
              { value: 'lead', label: t('byLead') },
            ]}
          />
          {mode === 'phone' ? (
            <PhoneField value={phone} onChange={setPhone} rule={phoneRule} error={errors.phone} />
          ) : (
            <Select
              label={t('lead')}
              placeholder={t('leadSearch')}
              searchable
              searchValue={leadSearch}
              onSearchChange={setLeadSearch}
              data={leadOptions}
              value={leadId}
              onChange={(id) => {
                setLeadId(id);
                setLead(leads.data?.data.find((l) => String(l.id) === id) ?? null);
              }}
              nothingFoundMessage={search ? t('noLeads') : undefined}
              filter={({ options }) => options}
              error={errors.lead_id ?? errors.phone}
              required
            />
          )}
          {composer({
            value: message,
            onChange: (value) => {
              setMessage(value);
              // A refusal of the text no longer stands once the text changes.
              setErrors((current) => ({ ...current, message: undefined }));
            },
            error: errors.message,
            redirectTo,
            onRedirectTo: setRedirectTo,
            values: mode === 'lead' ? leadValues : undefined,
          })}
          {hasLink && (
            <TextInput
              label={t('redirectTo')}
              placeholder="https://"
              value={redirectTo}
              onChange={(e) => setRedirectTo(e.currentTarget.value)}
              error={errors.redirect_to}
            />
          )}
          <Select
            label={t('gateway')}
            data={(gateways.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
            value={gatewayId}
            onChange={setGatewayId}
            error={errors.gateway_id}
            allowDeselect={false}
          />
          <Group grow align="flex-start">
            <Select
              label={t('from')}
              placeholder={t('fromGateway')}
              data={senderOptions}
              value={from === null ? defaultSender : senderOptions[0].items.some((o) => o.value === from) ? from : null}
              onChange={chooseFrom}
              clearable={!defaultSender}
              error={errors.from}
            />
            <TextInput
              label={t('number')}
              placeholder={t('numberPlaceholder')}
              value={from && !senderOptions[0].items.some((o) => o.value === from) ? from : ''}
              onChange={(e) => chooseFrom(e.currentTarget.value || null)}
            />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={send.isPending}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={send.isPending} disabled={!message.trim() || noGateways}>
              {t('send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
