import { normalizePhone } from '@herald/shared/leads/phone';
import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A gateway the campaign may send through, with its own sender (a number or a name) if it has one. */
export interface SendingGatewayOption {
  value: string;
  label: string;
  from: string | null;
}

/** The team's active alpha names. */
export interface AlphaNameOption {
  name: string;
  default: boolean;
}

/** A gateway's own sender as the server keeps it: a number in E.164, a name as written. */
export function gatewaySenderOf(gateway: SendingGatewayOption | undefined): string | null {
  const from = gateway?.from?.trim();
  if (!from) return null;
  return (/^[+\d][\d\s()-]*$/.test(from) ? normalizePhone(from) : null) ?? from;
}

/** Every sender the campaign may use through this gateway: the alpha names, then the gateway's own. */
export function sendersFor(gateway: SendingGatewayOption | undefined, names: AlphaNameOption[]): string[] {
  const own = gatewaySenderOf(gateway);
  const list = names.map((n) => n.name);
  return own && !list.some((n) => n.toLowerCase() === own.toLowerCase()) ? [...list, own] : list;
}

/**
 * The sender a gateway gets when the one held does not go with it: the default alpha name, else
 * the only sender there is, else none (the gateway's own, if it has one, goes out anyway).
 */
export function senderAfterGateway(
  current: string,
  gateway: SendingGatewayOption | undefined,
  names: AlphaNameOption[],
): string {
  const senders = sendersFor(gateway, names);
  if (current && senders.includes(current)) return current;
  const fallback = names.find((n) => n.default)?.name;
  if (fallback) return fallback;
  return senders.length === 1 ? senders[0] : '';
}

interface Props {
  gateway: SendingGatewayOption | undefined;
  names: AlphaNameOption[];
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  description?: string;
}

/** The sender picker: the team's approved alpha names and the chosen gateway's own sender. */
export function CampaignSenderSelect({ gateway, names, value, onChange, disabled, description }: Props) {
  const { t } = useTranslation('campaigns');
  const own = gatewaySenderOf(gateway);
  const alpha = names.map((n) => ({ value: n.name, label: n.name }));
  const groups = [
    ...(alpha.length ? [{ group: t('senderAlphaNames'), items: alpha }] : []),
    ...(own && !alpha.some((a) => a.value.toLowerCase() === own.toLowerCase())
      ? [{ group: t('senderOfGateway'), items: [{ value: own, label: own }] }]
      : []),
  ];
  // A sender held that the lists no longer offer (a name switched off since) is still shown.
  const known = groups.some((g) => g.items.some((i) => i.value === value));
  const data = value && !known ? [...groups, { group: t('senderHeld'), items: [{ value, label: value }] }] : groups;
  return (
    <Select
      label={t('sender')}
      placeholder={own ? t('senderGatewayOwn', { sender: own }) : t('senderNone')}
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      clearable
      nothingFoundMessage={t('senderNone')}
      disabled={disabled}
      description={description}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
